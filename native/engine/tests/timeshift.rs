//! Timeshift: one source on two sinks, one of them 1.5 s later (far beyond the jitter buffer),
//! both complete and continuous.

mod common;

use common::*;

#[test]
fn a_delayed_path_plays_the_same_audio_1_5_s_later() {
    let _serial = serial();
    let mut engine = engine();
    let ((now_rx, now_port), (later_rx, later_port)) = (receiver(), receiver());
    let mut delayed = local_pc();
    delayed.delay_ms = 1500.0;
    let to = play(
        &mut engine,
        vec![
            scream_sink("now", now_port, vec![local_pc()]),
            scream_sink("later", later_port, vec![delayed]),
        ],
    );
    let sender =
        std::thread::spawn(move || send_scream_tone(to, 1.0, [(800.0, 0.5), (800.0, 0.5)]));
    let later = std::thread::spawn(move || collect(&later_rx, 3.0));
    let now = collect(&now_rx, 3.0);
    let later = later.join().unwrap();
    sender.join().unwrap();
    engine.stop();
    // Both sinks tick together from the same start (and every packet since it is queued in
    // the sockets), so sample n of one stream and sample n of the other left at the same time:
    // compare sample indices, not arrival times a loaded machine would blur.
    let onset = |packets: &[(std::time::Instant, Vec<u8>)]| {
        let audio: Vec<u8> = packets.iter().flat_map(|(_, p)| p[5..].to_vec()).collect();
        split_s16(&audio, false)[0]
            .iter()
            .position(|x| x.abs() > 0.3)
    };
    let (a, b) = (
        onset(&now).expect("tone on the undelayed sink"),
        onset(&later).expect("tone on the delayed sink"),
    );
    let shift = (b as f64 - a as f64) / 48_000.0;
    assert!((shift - 1.5).abs() < 0.01, "delayed by {shift} s");
    // The delayed copy is the whole second of tone, without gaps.
    let audio: Vec<u8> = later.iter().flat_map(|(_, p)| p[5..].to_vec()).collect();
    let [l, _] = split_s16(&audio, false);
    let (start, len) = longest_sound(&l);
    assert!(
        len > 46_000,
        "one uninterrupted second, got {len} samples from {start}"
    );
    // Away from the fade-in and the fade-out at the ends.
    let (f, _) = tone(&l[start + 2400..start + len - 2400], 48_000.0);
    assert!((f - 800.0).abs() < 3.0, "{f} Hz");
}
