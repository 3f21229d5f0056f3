use super::*;
use crate::options::JitterConfig;
use tributary_dsp::sample_format::SampleFormat;

struct Lcg(u64);
impl Lcg {
    fn next_f64(&mut self) -> f64 {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (self.0 >> 11) as f64 / (1u64 << 53) as f64
    }
}

/// L16 stereo packet of a 1 kHz sine at half scale, starting at sender frame `start`.
fn sine_packet(start: u64, frames: usize, rate: f64, out: &mut Vec<u8>) {
    out.clear();
    for n in 0..frames as u64 {
        let v = (0.5
            * (2.0 * std::f64::consts::PI * 1000.0 * (start + n) as f64 / rate).sin()
            * 32767.0) as i16;
        out.extend_from_slice(&v.to_be_bytes());
        out.extend_from_slice(&(-v).to_be_bytes());
    }
}

struct Outcome {
    min_level_ms: f64,
    max_level_ms: f64,
    max_step: f32,
    reader: SourceReader,
    drift_ppm: f64,
}

/// Simulates `seconds` of a sender `ppm` off nominal, 0-3 ms network jitter, dropping every
/// `drop_every`-th packet, rendering 6 ms sink blocks on the router clock.
fn simulate(seconds: f64, ppm: f64, drop_every: u64) -> Outcome {
    let rate = 48_000.0;
    let mut src = SourceBuffer::new(48_000, 2, 1.0, JitterConfig::default());
    let mut reader = SourceReader::new(2, 48_000, 48_000, 288, 0.0);
    let sender_rate = rate * (1.0 + ppm * 1e-6);
    let mut rng = Lcg(42);
    let mut packet = Vec::with_capacity(1200);
    let mut out = vec![0.0f32; 576];
    let (mut seq, mut next_send) = (0u64, 0.0f64);
    let mut next_render = 0.05;
    let mut pending: Option<(f64, u64)> = None;
    let (mut min_level, mut max_level, mut max_step): (f64, f64, f32) = (f64::MAX, f64::MIN, 0.0);
    let mut prev = 0.0f32;
    while next_render < seconds {
        if pending.is_none() {
            pending = Some((next_send + rng.next_f64() * 0.003, seq));
        }
        let (arrival, s) = pending.unwrap_or((f64::MAX, 0));
        if arrival <= next_render {
            if drop_every == 0 || s % drop_every != drop_every - 1 {
                sine_packet(s * 288, 288, sender_rate, &mut packet);
                let ts = (s * 288) as u32;
                src.push_rtp(s as u16, ts, &packet, SampleFormat::S16Be, arrival);
            }
            seq += 1;
            next_send = (seq * 288) as f64 / sender_rate;
            pending = None;
            continue;
        }
        reader.render(&src, next_render, &mut out);
        src.play_pos = reader.play_position();
        if next_render > 60.0 {
            let level = src.level_ms();
            min_level = min_level.min(level);
            max_level = max_level.max(level);
            for frame in out.chunks_exact(2) {
                max_step = max_step.max((frame[0] - prev).abs());
                prev = frame[0];
            }
        } else if let Some(last) = out.chunks_exact(2).last() {
            prev = last[0];
        }
        next_render += 0.006;
    }
    Outcome {
        min_level_ms: min_level,
        max_level_ms: max_level,
        max_step,
        drift_ppm: src.drift.ppm(),
        reader,
    }
}

/// Two readers of one source rendering at different instants in the packet cycle (sinks
/// whose ticks are spread over the period) settle on the same play position for the same
/// time, whatever the offset: the fill is measured against the continuous head, not the
/// write head that steps once per packet.
#[test]
fn readers_rendering_at_different_phases_stay_aligned() {
    for offset_ms in [0.7, 2.2, 3.7, 5.3] {
        let rate = 48_000.0;
        let mut src = SourceBuffer::new(48_000, 2, 1.0, JitterConfig::default());
        let mut a = SourceReader::new(2, 48_000, 48_000, 288, 0.0);
        let mut b = SourceReader::new(2, 48_000, 48_000, 288, 0.0);
        let mut rng = Lcg(7);
        let mut packet = Vec::with_capacity(1200);
        let mut out = vec![0.0f32; 576];
        let offset = offset_ms / 1000.0;
        let (mut seq, mut t_a) = (0u64, 0.05f64);
        // Packets every 6 ms with up to 0.5 ms of network jitter, fed up to time `t`.
        let mut feed = |src: &mut SourceBuffer, t: f64| loop {
            let arrival = (seq * 288) as f64 / rate + 0.0005 * rng.next_f64();
            if arrival > t {
                break;
            }
            sine_packet(seq * 288, 288, rate, &mut packet);
            let ts = (seq * 288) as u32;
            src.push_rtp(seq as u16, ts, &packet, SampleFormat::S16Be, arrival);
            seq += 1;
        };
        let mut last = (0.0, 0.0);
        while t_a < 60.0 {
            feed(&mut src, t_a);
            a.render(&src, t_a, &mut out);
            let pos_a = a.current_position();
            feed(&mut src, t_a + offset);
            b.render(&src, t_a + offset, &mut out);
            last = (pos_a, b.current_position());
            src.play_pos = a.play_position().min(b.play_position());
            t_a += 0.006;
        }
        // B renders `offset` later, so it should be that much further into the stream.
        let error_ms = ((last.1 - last.0) / rate - offset) * 1000.0;
        assert!(
            error_ms.abs() < 0.5,
            "offset {offset_ms} ms: misaligned by {error_ms:.2} ms"
        );
    }
}

/// Largest sample-to-sample change of a 1 kHz sine at half scale, with margin.
const SMOOTH: f32 = 0.5 * 2.0 * std::f32::consts::PI * 1000.0 / 48_000.0 * 1.3;

proptest::proptest! {
    /// Any interleaving of packets (any sequence, timestamp, size), renders and clock jumps
    /// leaves the reader panic-free with finite output, at any delay.
    #[test]
    fn any_input_and_timing_renders_finite_audio(
        events in proptest::collection::vec(
            (0u8..4, proptest::prelude::any::<u16>(), 0u32..2_000_000, 0usize..300, 0.0f64..0.3),
            1..150,
        ),
        rates in (0usize..5, 0usize..5),
        delay_s in 0.0f64..2.0,
    ) {
        let table = [44_100, 48_000, 88_200, 96_000, 192_000];
        let (src_rate, sink_rate) = (table[rates.0], table[rates.1]);
        let mut src = SourceBuffer::new(src_rate, 2, 2.0, JitterConfig::default());
        let mut reader = SourceReader::new(2, src_rate, sink_rate, 288, delay_s);
        let mut out = vec![0.0f32; 576];
        let mut packet = Vec::new();
        let mut t = 0.0;
        for (kind, seq, ts, frames, dt) in events {
            t += dt;
            match kind {
                0..=2 => {
                    sine_packet(u64::from(ts), frames, f64::from(src_rate), &mut packet);
                    src.push_rtp(seq, ts, &packet, SampleFormat::S16Be, t);
                }
                _ => {
                    reader.render(&src, t, &mut out);
                    src.play_pos = src.play_pos.max(reader.play_position());
                    proptest::prop_assert!(out.iter().all(|v| v.is_finite() && v.abs() <= 2.0));
                }
            }
        }
    }
}

#[test]
fn drifting_senders_play_for_an_hour_without_drops_or_repeats() {
    for ppm in [300.0, -300.0] {
        let o = simulate(3600.0, ppm, 0);
        assert_eq!(o.reader.underruns, 0, "{ppm} ppm: underruns");
        assert_eq!(o.reader.concealed, 0, "{ppm} ppm: concealed");
        assert_eq!(o.reader.jumps, 0, "{ppm} ppm: jumps");
        assert!(
            (o.drift_ppm - ppm).abs() < 10.0,
            "{ppm} ppm measured {}",
            o.drift_ppm
        );
        // Bounded buffer: level stays near the 20 ms target (plus one packet of sawtooth).
        assert!(
            o.min_level_ms > 8.0 && o.max_level_ms < 40.0,
            "{ppm}: {} - {}",
            o.min_level_ms,
            o.max_level_ms
        );
        assert!(o.max_step < SMOOTH, "{ppm}: discontinuity {}", o.max_step);
    }
}

#[test]
fn lost_packets_are_concealed_with_fades_not_clicks() {
    let o = simulate(90.0, 0.0, 50);
    assert!(o.reader.concealed > 100, "{}", o.reader.concealed);
    assert_eq!(o.reader.jumps, 0);
    assert!(o.max_step < SMOOTH, "click of {}", o.max_step);
}
