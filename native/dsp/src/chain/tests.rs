use super::*;
use crate::sample_format::{SampleFormat, ALL_SAMPLE_FORMATS};
use crate::testutil::{db, fit_sine, sine};

fn fmt(s: &str) -> StreamFormat {
    s.parse().unwrap()
}

fn run(chain: &mut Chain, input: &[u8], pieces: &[usize]) -> Vec<u8> {
    let mut out = Vec::new();
    let mut pos = 0;
    for len in pieces.iter().cycle() {
        if pos >= input.len() {
            break;
        }
        let len = (*len).min(input.len() - pos);
        let mut buf = vec![0u8; chain.max_output_bytes(len)];
        let n = chain
            .process_into(&input[pos..pos + len], &mut buf)
            .unwrap();
        out.extend_from_slice(&buf[..n]);
        pos += len;
    }
    out
}

fn noise_bytes(n: usize) -> Vec<u8> {
    let mut x = 0x1234_5678u32;
    (0..n)
        .map(|_| {
            x ^= x << 13;
            x ^= x >> 17;
            x ^= x << 5;
            (x >> 24) as u8
        })
        .collect()
}

fn s16le_sine(freq: f64, rate: f64, amp: f64, frames: usize, channels: usize) -> Vec<u8> {
    sine(freq, rate, amp, frames)
        .iter()
        .flat_map(|v| {
            let s = (v * 32767.0).round() as i16;
            std::iter::repeat_n(s.to_le_bytes(), channels).flatten()
        })
        .collect()
}

fn s16le_channel(bytes: &[u8], channels: usize, c: usize) -> Vec<f32> {
    bytes
        .chunks_exact(2 * channels)
        .map(|f| i16::from_le_bytes([f[2 * c], f[2 * c + 1]]) as f32 / 32768.0)
        .collect()
}

#[test]
fn neutral_paths_return_the_input_bytes_unchanged_for_every_format() {
    for sf in ALL_SAMPLE_FORMATS {
        for channels in [1, 2, 6, 8] {
            let f = StreamFormat::new(sf, 48_000, channels).unwrap();
            let mut chain = Chain::new(&ChainConfig::new(f, f)).unwrap();
            assert!(chain.is_passthrough());
            let input = noise_bytes(10_007);
            assert!(
                run(&mut chain, &input, &[1, 1000, 37, 4096]) == input,
                "{sf} x {channels}"
            );
        }
    }
}

#[test]
fn processing_at_unity_is_exact_and_switching_to_passthrough_is_seamless() {
    let f = fmt("s24le:48000:2");
    let mut chain = Chain::new(&ChainConfig::new(f, f)).unwrap();
    chain.set_volume(0.5).unwrap();
    chain.set_volume(1.0).unwrap(); // ramps down and back: not passthrough until settled
    let input = noise_bytes(60_000);
    let out = run(&mut chain, &input, &[6000]);
    assert!(chain.is_passthrough());
    // The whole output, the processed first piece included: a ramp from 1.0 to 1.0 is exact, and
    // handing over to plain copying loses or repeats nothing.
    assert_eq!(out.len(), input.len());
    if let Some(at) = out.iter().zip(&input).position(|(a, b)| a != b) {
        panic!("output differs from the input from byte {at} on");
    }
}

#[test]
fn resample_eq_volume_path_keeps_a_tone_where_it_belongs() {
    // Volume and EQ measured each on its own: the left channel carries the EQ band's centre
    // (b9, 1046.5 Hz, boosted +6.02 dB), the right a tone three octaves below it, where the band
    // does nothing measurable (< 0.02 dB): the right tone's level is the volume alone, and the
    // left tone's level over the right's is the EQ alone.
    let (boosted, plain) = (1046.5, 130.81);
    let mut cfg = ChainConfig::new(fmt("s16le:44100:2"), fmt("s16le:48000:2"));
    cfg.eq[8] = 2.0;
    cfg.volume = 0.7;
    let mut chain = Chain::new(&cfg).unwrap();
    let frames = 44_100;
    let (left, right) = (
        sine(boosted, 44_100.0, 0.25, frames),
        sine(plain, 44_100.0, 0.25, frames),
    );
    let input: Vec<u8> = left
        .iter()
        .zip(&right)
        .flat_map(|(l, r)| [*l, *r])
        .flat_map(|v| ((v as f64 * 32767.0).round() as i16).to_le_bytes())
        .collect();
    let out = run(&mut chain, &input, &[4096, 333]);
    let got_frames = out.len() / 4;
    let expected = 48_000 - chain.latency_frames() as i64;
    assert!(
        (got_frames as i64 - expected).abs() <= 2,
        "{got_frames} frames, expected {expected}"
    );
    let mut level = [0.0; 2];
    for (c, freq) in [boosted, plain].into_iter().enumerate() {
        let ch = s16le_channel(&out, 2, c);
        let (amp, _, resid) = fit_sine(&ch[8000..], freq, 48_000.0);
        assert!(
            db(resid / amp) < -80.0,
            "{freq} Hz: residual {}",
            db(resid / amp)
        );
        level[c] = db(amp / 0.25);
    }
    let (volume, eq) = (level[1], level[0] - level[1]);
    assert!((volume - db(0.7)).abs() < 0.05, "volume {volume:.3} dB");
    assert!(
        (eq - db(2.0)).abs() < 0.05,
        "EQ {eq:.3} dB at the band centre"
    );
    assert!(chain.latency_frames() > 0);
}

#[test]
fn layouts_are_mapped_with_the_default_matrix() {
    let cfg = ChainConfig::new(fmt("s16le:48000:6:5.1"), fmt("s16le:48000:2"));
    let mut chain = Chain::new(&cfg).unwrap();
    // Only the centre channel (index 2) carries a tone.
    let tone = sine(500.0, 48_000.0, 0.5, 4800);
    let input: Vec<u8> = tone
        .iter()
        .flat_map(|v| {
            let mut f = [0u8; 12];
            f[4..6].copy_from_slice(&((v * 32767.0).round() as i16).to_le_bytes());
            f
        })
        .collect();
    let out = run(&mut chain, &input, &[1200]);
    let left = s16le_channel(&out, 2, 0);
    let (amp, _, _) = fit_sine(&left, 500.0, 48_000.0);
    assert!(
        (db(amp / 0.5) + 3.01).abs() < 0.05,
        "centre at {} dB in L",
        db(amp / 0.5)
    );
}

#[test]
fn byte_splits_and_planar_output_agree_with_whole_calls() {
    let cfg = ChainConfig::new(fmt("s24be:96000:2"), fmt("s16le:48000:1"));
    let input = noise_bytes(6 * 5000);
    let whole = run(&mut Chain::new(&cfg).unwrap(), &input, &[usize::MAX]);
    let bytewise = run(&mut Chain::new(&cfg).unwrap(), &input, &[1, 2, 5, 7, 100]);
    assert!(whole == bytewise);
    let mut chain = Chain::new(&cfg).unwrap();
    let mut planar = AudioBuffer::new(1, chain.max_output_frames(input.len()));
    let frames = chain.process_to_planar(&input, &mut planar).unwrap();
    assert_eq!(frames * 2, whole.len());
    let ints: Vec<f32> = s16le_channel(&whole, 1, 0);
    for (a, b) in planar.channel(0).iter().zip(ints) {
        // Same samples up to the encoder's clamping, rounding and dither (24 -> 16 bit).
        let a = a.clamp(-1.0, 32767.0 / 32768.0);
        assert!((a - b).abs() <= 2.0 / 32768.0, "{a} vs {b}");
    }
}

#[test]
fn live_changes_take_effect_and_errors_are_reported() {
    let f = fmt("s16le:48000:2");
    let mut chain = Chain::new(&ChainConfig::new(f, f)).unwrap();
    let input = s16le_sine(1000.0, 48_000.0, 0.5, 9600, 2);
    chain.set_volume(0.25).unwrap();
    let out = run(&mut chain, &input, &[input.len()]);
    let (amp, _, _) = fit_sine(&s16le_channel(&out, 2, 0)[4800..], 1000.0, 48_000.0);
    assert!((amp - 0.125).abs() < 0.002);
    chain.set_delay_ms(10.0).unwrap();
    chain.set_normalize(true);
    chain.set_eq(&[1.5; 18]).unwrap();
    assert!(!chain.is_passthrough());
    assert!(chain.set_volume(1.5).is_err());
    assert!(chain.set_eq(&[1.0; 3]).is_err());
    assert!(chain.set_delay_ms(-1.0).is_err());
    assert!(
        chain.set_ratio_adjust(0.01).is_err(),
        "no resampler on this path"
    );
    assert!(chain
        .set_matrix(Some(MixMatrix::identity(3).unwrap()))
        .is_err());
    let mut small = [0u8; 4];
    assert!(matches!(
        chain.process_into(&input, &mut small),
        Err(DspError::OutputTooSmall { .. })
    ));
    let mut cfg = ChainConfig::new(f, f);
    cfg.volume = 2.0;
    assert!(Chain::new(&cfg).is_err());
    cfg.volume = 1.0;
    cfg.matrix = Some(MixMatrix::identity(1).unwrap());
    assert!(Chain::new(&cfg).is_err());
    cfg.matrix = None;
    cfg.drift_correction = true;
    let mut drift = Chain::new(&cfg).unwrap();
    assert!(!drift.is_passthrough());
    drift.set_ratio_adjust(0.01).unwrap();
    run(&mut drift, &input, &[1920]);
    assert!(drift.ratio_adjust() > 0.0);
}

#[test]
fn dither_applies_only_when_reducing_bit_depth() {
    let make = |i: &str, o: &str, dither: bool| {
        let mut c = ChainConfig::new(fmt(i), fmt(o));
        c.dither = dither;
        Chain::new(&c).unwrap()
    };
    assert!(make("s24le:48000:2", "s16le:48000:2", true)
        .encoder
        .dither());
    assert!(!make("s24le:48000:2", "s16le:48000:2", false)
        .encoder
        .dither());
    assert!(!make("s16le:48000:2", "s24le:48000:2", true)
        .encoder
        .dither());
    assert!(!make("s16le:48000:2", "s16be:48000:2", true)
        .encoder
        .dither());
    let _ = SampleFormat::S16Le;
}

#[test]
fn leaving_passthrough_mid_frame_keeps_the_output_aligned() {
    let f = fmt("s16le:48000:2");
    let mut chain = Chain::new(&ChainConfig::new(f, f)).unwrap();
    let input = noise_bytes(4003);
    let mut out = run(&mut chain, &input[..6], &[6]); // one and a half frames, passed through
                                                      // A volume change that ends where it started: processed, but at unity, so still exact.
    chain.set_volume(0.5).unwrap();
    chain.set_volume(1.0).unwrap();
    assert!(!chain.is_passthrough());
    out.extend(run(&mut chain, &input[6..], &[1, 500, 3]));
    assert_eq!(
        out.len(),
        input.len() / 4 * 4,
        "whole frames, the partial one completed"
    );
    assert!(out[..] == input[..out.len()]);
}
