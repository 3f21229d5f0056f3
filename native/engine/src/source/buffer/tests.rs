use super::*;

fn l16(frames: usize, value: i16) -> Vec<u8> {
    (0..frames * 2).flat_map(|_| value.to_be_bytes()).collect()
}

proptest::proptest! {
    /// Whatever a sender claims (sequence, timestamp, size, timing), buffering never panics
    /// and positions stay near the origin.
    #[test]
    fn arbitrary_rtp_streams_never_panic(
        packets in proptest::collection::vec(
            (proptest::prelude::any::<u16>(), proptest::prelude::any::<u32>(), 0usize..400, 0.0f64..0.05),
            1..200,
        ),
        play_ahead in 0u64..100_000,
    ) {
        let mut s = SourceBuffer::new(48_000, 2, 1.0, JitterConfig::default());
        let mut t = 0.0;
        for (i, (seq, ts, frames, dt)) in packets.into_iter().enumerate() {
            t += dt;
            s.push_rtp(seq, ts, &l16(frames, 7), SampleFormat::S16Be, t);
            if i % 7 == 0 {
                s.play_pos = s.timeline.write_head().saturating_sub(play_ahead);
            }
            let _ = s.target_frames();
            let _ = s.level_ms();
        }
        proptest::prop_assert!(s.timeline.write_head().abs_diff(ORIGIN) < 1 << 36);
    }

    #[test]
    fn arbitrary_scream_streams_never_panic(
        packets in proptest::collection::vec((1usize..1153, 0.0f64..0.05, 0u64..50_000), 1..100),
    ) {
        let mut s = SourceBuffer::new(44_100, 5, 1.0, JitterConfig::default());
        let mut t = 0.0;
        for (len, dt, jump) in packets {
            t += dt;
            s.push_scream(&vec![1u8; len], SampleFormat::S24Le, t);
            s.play_pos = s.play_pos.max(s.timeline.write_head().saturating_sub(jump));
        }
    }
}

#[test]
fn extends_across_wraps() {
    assert_eq!(extend(0x1_ffff, 0x0001, 16), 0x2_0001);
    assert_eq!(extend(0x2_0001, 0xffff, 16), 0x1_ffff);
    assert_eq!(extend(0x5_0000_0010, 0xffff_fff0, 32), 0x4_ffff_fff0);
}

#[test]
fn counts_loss_reordering_and_late_packets() {
    let mut s = SourceBuffer::new(48_000, 2, 1.0, JitterConfig::default());
    let mut t = 0.0;
    let send = |s: &mut SourceBuffer, seq: u16, t: f64| {
        s.push_rtp(
            seq,
            u32::from(seq.wrapping_sub(65_530)) * 288,
            &l16(288, 1000),
            SampleFormat::S16Be,
            t,
        )
    };
    for seq in [65_530u16, 65_531, 65_533, 65_532, 65_535, 0, 1] {
        t += 0.006;
        send(&mut s, seq, t);
    }
    assert_eq!(s.counters.packets, 7);
    assert_eq!(s.counters.reordered, 1);
    assert_eq!(s.counters.lost, 1, "65534 never came");
    let start = s.timeline.write_head() - 288 * 8;
    assert_eq!(s.timeline.present_run(start, 10_000), 288 * 4);
    // A packet the playhead already passed is late.
    s.play_pos = s.timeline.write_head();
    send(&mut s, 65_534, t);
    assert_eq!(s.counters.late, 1);
    assert_eq!(
        s.counters.lost, 0,
        "it did arrive, late (RFC 3550 counts it received)"
    );
}

#[test]
fn a_sender_restart_resyncs_ahead_of_playback() {
    let mut s = SourceBuffer::new(48_000, 2, 1.0, JitterConfig::default());
    s.push_rtp(10, 1000, &l16(288, 1), SampleFormat::S16Be, 0.0);
    s.play_pos = s.timeline.write_head() + 10_000;
    s.push_rtp(40_000, 77, &l16(288, 1), SampleFormat::S16Be, 1.0);
    assert_eq!(s.counters.resyncs, 1);
    assert!(s.timeline.write_head() >= s.play_pos + 960);
}

#[test]
fn scream_frames_straddling_packets_are_reassembled() {
    // Five channels of 16-bit audio: 1152 bytes is 115.2 frames.
    let mut s = SourceBuffer::new(48_000, 5, 1.0, JitterConfig::default());
    let samples: Vec<u8> = (0..576 * 3)
        .flat_map(|i| ((i % 5) as i16 * 1000).to_le_bytes())
        .collect();
    for (k, packet) in samples.chunks(1152).enumerate() {
        s.push_scream(packet, SampleFormat::S16Le, k as f64 * 0.006);
    }
    assert_eq!(s.timeline.write_head() - ORIGIN, 345);
    let mut frame = [0.0f32; 5];
    for p in ORIGIN..ORIGIN + 345 {
        assert!(s.timeline.read_frame(p, &mut frame));
        for (c, v) in frame.iter().enumerate() {
            assert!(
                (v - c as f32 * 1000.0 / 32768.0).abs() < 1e-6,
                "frame {p} ch {c}"
            );
        }
    }
}

#[test]
fn adaptive_target_tracks_jitter_within_bounds() {
    let mut s = SourceBuffer::new(48_000, 2, 1.0, JitterConfig::default());
    assert!((s.target_frames() - 960.0).abs() < 1.0, "20 ms floor");
    let mut t: f64 = 0.0;
    for seq in 0..2000u16 {
        t += 0.006 + if seq % 2 == 0 { 0.03 } else { -0.03 };
        s.push_rtp(
            seq,
            u32::from(seq) * 288,
            &l16(288, 1),
            SampleFormat::S16Be,
            t.max(0.0),
        );
    }
    let ms = s.target_frames() / 48.0;
    assert!(ms > 100.0 && ms <= 200.0, "{ms}");
    s.set_config(JitterConfig {
        adaptive: false,
        min_ms: 5.0,
        max_ms: 500.0,
    });
    assert!(
        (s.target_frames() - 960.0).abs() < 1.0,
        "fixed, clamped to 20 ms"
    );
}
