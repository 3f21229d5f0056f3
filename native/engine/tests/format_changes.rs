//! Streams that change format mid-stream, at every stateful stage: the source buffer (Scream's
//! byte stream with frames straddling packets, RTP by timestamp), the shared reader (tap) that
//! follows a source rebuilt for a new format, and the stateless parsers fed what a sender
//! switching formats sends. Nothing may panic, and what is kept must be whole frames.

use proptest::prelude::*;
use tributary_dsp::sample_format::SampleFormat;
use tributary_engine::graph::tap::{Tap, TapKey};
use tributary_engine::options::JitterConfig;
use tributary_engine::source::buffer::{SourceBuffer, ORIGIN};
use tributary_engine::wire::scream::{self, ScreamFormat};
use tributary_engine::wire::{rtcp, rtp, tagged};

const SCREAM_ENCODINGS: [SampleFormat; 3] = [
    SampleFormat::S16Le,
    SampleFormat::S24Le,
    SampleFormat::S32Le,
];
const RTP_ENCODINGS: [SampleFormat; 3] = [
    SampleFormat::S16Be,
    SampleFormat::S24Be,
    SampleFormat::S16Le,
];
const RATES: [u32; 5] = [44_100, 48_000, 88_200, 96_000, 192_000];

/// The packets of the report (issue 10): 7 bytes of a 32-bit stereo stream (less than one
/// 8-byte frame, carried to the next packet), then 100 bytes of 16-bit stereo. The carried
/// partial frame was completed with bytes of the new layout and overran its 32-byte store.
#[test]
fn a_bit_depth_change_in_the_middle_of_a_frame_drops_the_partial_frame() {
    let mut s = SourceBuffer::new(48_000, 2, 1.0, JitterConfig::default());
    s.push_scream(&[0x11; 7], SampleFormat::S32Le, 0.000);
    assert_eq!(s.timeline.write_head(), ORIGIN, "no whole 8-byte frame yet");
    s.push_scream(&[0x22; 100], SampleFormat::S16Le, 0.006);
    // 100 bytes of 4-byte frames: 25 frames, none of them built from the old bytes.
    assert_eq!(s.timeline.write_head(), ORIGIN + 25);
    let mut frame = [0.0f32; 2];
    assert!(s.timeline.read_frame(ORIGIN, &mut frame));
    let expected = f32::from(i16::from_le_bytes([0x22, 0x22])) / 32768.0;
    assert_eq!(frame, [expected, expected]);
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    /// Scream packets of any length whose bit depth changes at random, into buffers of 1-8
    /// channels: no panic, and the buffer holds exactly the whole frames a model of the byte
    /// stream predicts (a partial frame is completed by the next packet of the same format and
    /// dropped by a packet of another).
    #[test]
    fn scream_streams_changing_bit_depth_keep_exactly_the_whole_frames(
        channels in 1usize..=8,
        packets in prop::collection::vec((0usize..3, 1usize..=scream::PAYLOAD_LEN), 1..60),
    ) {
        let mut s = SourceBuffer::new(48_000, channels, 2.0, JitterConfig::default());
        let (mut frames, mut carried, mut last_frame) = (0u64, 0usize, 0usize);
        for (k, (encoding, len)) in packets.into_iter().enumerate() {
            let encoding = SCREAM_ENCODINGS[encoding];
            let frame = encoding.bytes_per_sample() * channels;
            if frame != last_frame {
                carried = 0;
                last_frame = frame;
            }
            frames += ((carried + len) / frame) as u64;
            carried = (carried + len) % frame;
            // 1 ms apart: the buffer never sees a pause, so no packet restarts the stream.
            s.push_scream(&vec![0x5a; len], encoding, k as f64 * 0.001);
        }
        prop_assert_eq!(s.timeline.write_head() - ORIGIN, frames);
    }

    /// RTP payloads of any length in any of the encodings the engine plays, with sequence
    /// numbers and timestamps that may jump: no panic, positions stay near the origin.
    #[test]
    fn rtp_streams_changing_encoding_never_panic(
        channels in 1usize..=8,
        packets in prop::collection::vec(
            (0usize..3, 0usize..1500, any::<u16>(), any::<u32>(), 0.0f64..0.03),
            1..80,
        ),
    ) {
        let mut s = SourceBuffer::new(48_000, channels, 1.0, JitterConfig::default());
        let mut t = 0.0;
        for (encoding, len, seq, ts, dt) in packets {
            t += dt;
            s.push_rtp(seq, ts, &vec![0x33; len], RTP_ENCODINGS[encoding], t);
            s.play_pos = s.play_pos.max(s.timeline.write_head().saturating_sub(4_800));
        }
        prop_assert!(s.timeline.write_head().abs_diff(ORIGIN) < 1 << 36);
    }

    /// A source that changes rate and channel count while a tap reads it: the engine builds a
    /// new buffer and the tap rebuilds its reader; the output stays finite and within the
    /// limiter's range, and the ring keeps its indices (paths keep their cursors).
    #[test]
    fn a_tap_follows_a_source_through_format_changes(
        segments in prop::collection::vec(
            (0usize..RATES.len(), 1usize..=8, 0usize..3, 1usize..40),
            1..6,
        ),
        sink_rate in 0usize..RATES.len(),
    ) {
        let sink_rate = RATES[sink_rate];
        let key = TapKey { source_id: "s".into(), sink_rate, delay_ms: 0.0 };
        let mut tap = Tap::new(key, 48_000, 2);
        let mut t = 0.0f64;
        let mut cursor = 0u64;
        let mut block = vec![0.0f32; 288];
        for (rate, channels, encoding, packets) in segments {
            let rate = RATES[rate];
            let mut src = SourceBuffer::new(rate, channels, 1.0, JitterConfig::default());
            tap.rebuild_for_source(rate, channels);
            let encoding = SCREAM_ENCODINGS[encoding];
            for _ in 0..packets {
                src.push_scream(&[0x40; scream::PAYLOAD_LEN], encoding, t);
                tap.render_to(&src, t, cursor + 288);
                for ch in 0..channels {
                    tap.read(ch, cursor, &mut block);
                    prop_assert!(block.iter().all(|v| v.is_finite() && v.abs() <= 4.0));
                }
                cursor += 288;
                t += 0.006;
            }
        }
        prop_assert_eq!(tap.head(), cursor);
    }

    /// What a sender switching formats sends, as each parser sees it: a valid header of any
    /// format in front of any payload, cut anywhere. Parsers answer a packet or a reason.
    #[test]
    fn parsers_take_any_format_and_any_cut(
        rate_byte in any::<u8>(),
        bits in prop::sample::select(vec![0u8, 8, 16, 24, 32, 64]),
        channels in 0u8..12,
        mask in any::<u16>(),
        payload in prop::collection::vec(any::<u8>(), 0..1400),
        cut in 0usize..1500,
    ) {
        let mut packet = vec![rate_byte, bits, channels];
        packet.extend_from_slice(&mask.to_le_bytes());
        packet.extend_from_slice(&payload);
        let packet = &packet[..cut.min(packet.len())];
        if let Ok(p) = scream::parse(packet) {
            let f: ScreamFormat = p.format;
            prop_assert!(f.frame_bytes() > 0 && f.frame_bytes() <= 32);
            prop_assert!(!p.payload.is_empty() && p.payload.len() <= scream::PAYLOAD_LEN);
        }
        let mut wrapped = b"TRBT\x01\x04\x7f\x00\x00\x01\x03app".to_vec();
        wrapped.extend_from_slice(packet);
        if let Ok(p) = tagged::parse(&wrapped) {
            prop_assert!(p.scream.format.frame_bytes() > 0);
        }
        let _ = rtp::parse(packet);
        for report in rtcp::parse(packet).take(64) {
            let _ = report;
        }
    }
}

mod common;

use common::*;
use std::net::{IpAddr, Ipv4Addr, UdpSocket};
use std::time::Duration;

/// The two packets of the report, over real sockets, from a configured Scream source's
/// address, while another source plays on another sink: that sink plays on without a gap, the
/// attacked source plays its next valid stream, and the engine still takes changes.
#[test]
fn two_packets_changing_bit_depth_mid_frame_stop_nothing() {
    let _serial = serial();
    let mut engine = engine();
    let (rx_a, port_a) = receiver();
    let (rx_b, port_b) = receiver();
    let other = IpAddr::V4(Ipv4Addr::new(127, 0, 0, 3));
    let to = play(
        &mut engine,
        vec![
            scream_sink("a", port_a, vec![local_pc()]),
            scream_sink("b", port_b, vec![path("other", Some(other), None)]),
        ],
    );
    let sender_b =
        std::thread::spawn(move || send_scream_from(other, to, 2.5, 3, &[(440.0, 0.5); 2]));
    let collect_b = std::thread::spawn(move || collect(&rx_b, 2.6));
    std::thread::sleep(Duration::from_millis(800));
    let attacker = UdpSocket::bind((LOCAL, 0)).unwrap();
    let mut first = vec![0x01, 0x20, 0x02, 0x03, 0x00];
    first.extend_from_slice(&[0xAA; 7]);
    let mut second = vec![0x01, 0x10, 0x02, 0x03, 0x00];
    second.extend_from_slice(&[0xBB; 100]);
    attacker.send_to(&first, to).unwrap();
    attacker.send_to(&second, to).unwrap();
    // The attacked source's own sender carries on with a valid stream: sink a plays it.
    std::thread::sleep(Duration::from_millis(100));
    let pc = std::thread::spawn(move || send_scream_tone(to, 1.0, [(1000.0, 0.5); 2]));
    let a = collect(&rx_a, 1.3);
    pc.join().unwrap();
    sender_b.join().unwrap();
    let b = collect_b.join().unwrap();
    // Sink b: a 440 Hz tone throughout, before and after the attack (no dropout).
    assert_tone_throughout(&b, 440.0, 48);
    // Sink a: the valid stream after the attack.
    let (f, rms) = tone(&left_channel(&a, None), 48_000.0);
    assert!(
        (f - 1000.0).abs() < 10.0 && rms > 0.1,
        "a: {f} Hz, rms {rms}"
    );
    let stats = engine.stats();
    let pc_stats = stats.sources.iter().find(|s| s.id == "pc").unwrap();
    assert!(pc_stats.packets > 100, "{pc_stats:?}");
    // Still taking changes.
    assert!(engine
        .apply(tributary_engine::DesiredState::default())
        .is_ok());
    engine.stop();
}
