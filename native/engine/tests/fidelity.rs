//! Fidelity with the senders people run: ffmpeg `-re` (bursty: 21 ms of audio at once) sends a
//! 1 kHz tone over RTP, the engine plays it to a Scream sink, and we measure what a listener
//! hears: gaps after the first sample, the pitch per 0.5 s window, and whether every gap that
//! happened is in the stats. Idle, with static payload type 10 (44.1 kHz), and under a CPU hog
//! on both cores (`stress-ng`). The same with a sender of our own that injects 5-20 ms of
//! jitter (held packets released in bursts), idle and under the hog.

mod common;

use common::*;
use std::process::{Command, Stdio};
use tributary_engine::wire::rtp::RtpFormat;
use tributary_engine::EngineStats;

#[path = "../benches/common/bursty.rs"]
mod bursty;
#[path = "../benches/common/hearing.rs"]
mod hearing;
#[path = "../benches/common/sender_clock.rs"]
mod sender_clock;

use hearing::{quantile_abs, Heard};

/// Samples at 48 kHz (the sink's rate) of the left channel.
const RATE: f64 = 48_000.0;

fn hear(left: &[f64], freq: f64) -> Heard {
    hearing::hear(left, RATE, freq, 5.0)
}

/// Plays what ffmpeg sends to an RTP source set to `configured` into a Scream sink; returns
/// the sink's left channel and the engine's stats at the end.
fn play_ffmpeg(configured: RtpFormat, rate: u32, seconds: f64) -> (Vec<f64>, EngineStats) {
    let mut engine = engine();
    let (rx, out_port) = receiver();
    let rtp_port = free_udp_port();
    let rtp_in = path("ffmpeg", None, Some(rtp_source(rtp_port, configured)));
    play(
        &mut engine,
        vec![scream_sink("out", out_port, vec![rtp_in])],
    );
    let mut child = ffmpeg_tone(rtp_port, 1000.0, rate, seconds, &["-ac", "2"]);
    let packets = collect(&rx, seconds + 1.5);
    let _ = child.kill();
    let _ = child.wait();
    let stats = engine.stats();
    engine.stop();
    (left_channel(&packets, None), stats)
}

/// Plays what the bursty sender sends (holds of 5-20 ms) for `seconds` into a Scream sink;
/// returns the sink's left channel, the engine's stats and what the sender did.
fn play_bursty(seconds: f64, seed: u64) -> (Vec<f64>, EngineStats, bursty::Sent) {
    let mut engine = engine();
    let (rx, out_port) = receiver();
    let rtp_port = free_udp_port();
    let rtp_in = path(
        "bursty",
        None,
        Some(rtp_source(rtp_port, RtpFormat::DEFAULT)),
    );
    play(
        &mut engine,
        vec![scream_sink("out", out_port, vec![rtp_in])],
    );
    let to = std::net::SocketAddr::new(LOCAL, rtp_port);
    let sender = std::thread::spawn(move || {
        let never = std::sync::atomic::AtomicBool::new(false);
        bursty::send(to, seconds, 1000.0, 0.5, (5.0, 20.0), seed, &never)
    });
    let packets = collect(&rx, seconds + 1.0);
    let sent = sender.join().unwrap();
    let stats = engine.stats();
    engine.stop();
    (left_channel(&packets, None), stats, sent)
}

/// Every gap a listener heard is in the stats: sink silence and concealment add up to what was
/// heard, to within a few ms per gap (fades at its edges).
fn assert_gaps_counted(heard: &Heard, stats: &EngineStats) {
    let sink = &stats.sinks[0];
    let heard_ms: f64 = heard.gaps.iter().map(|g| g.1).sum();
    let counted_ms = sink.silence_ms + sink.concealed_ms;
    let slack = 3.0 * heard.gaps.len() as f64 + 3.0;
    assert!(
        heard.gaps.is_empty() || counted_ms > 0.0,
        "gaps {:?} but the stats count none: {sink:?}",
        heard.gaps
    );
    assert!(
        counted_ms <= heard_ms + slack + 10.0 * (sink.underruns + sink.concealed) as f64,
        "counted {counted_ms} ms, heard {heard_ms} ms: {sink:?}"
    );
    if !heard.gaps.is_empty() {
        assert!(
            counted_ms + slack >= heard_ms,
            "heard {heard_ms} ms of gaps {:?}, counted {counted_ms}: {sink:?}",
            heard.gaps
        );
    }
}

fn report(name: &str, h: &Heard, stats: &EngineStats) {
    let src = &stats.sources[0];
    eprintln!(
        "FIDELITY {name}: {:.1} s heard, gaps {} ({:.1} ms, at {:.2?}), pitch p50 {:.1} p99 {:.1} max {:.1} ppm over {} windows, correction {:.1} ppm, buffer {:.1} ms, underruns {}, silence {:.1} ms, concealed {} ({:.1} ms), skips {}, late {}",
        h.seconds,
        h.gaps.len(),
        h.gaps.iter().map(|g| g.1).sum::<f64>(),
        h.gaps,
        quantile_abs(&h.pitch_ppm, 0.5),
        quantile_abs(&h.pitch_ppm, 0.99),
        quantile_abs(&h.pitch_ppm, 1.0),
        h.pitch_ppm.len(),
        src.correction_ppm,
        src.buffer_ms,
        src.underruns,
        src.silence_ms,
        src.concealed,
        src.concealed_ms,
        src.skips,
        src.late
    );
}

#[test]
fn ffmpeg_re_plays_without_a_gap_at_true_pitch() {
    let _serial = serial();
    // ffmpeg is not a real-time process: on a machine busy with other work it can stall longer
    // than any buffer, right at the start too. Every gap must be counted in every attempt; one
    // attempt in three must start without a gap and hold the pitch (on an idle machine the
    // first does; before issue 12 none did: a 19-54 ms gap at the start, 1,000 ppm off).
    let mut attempts = Vec::new();
    for attempt in 1..=3 {
        let (left, stats) = play_ffmpeg(RtpFormat::DEFAULT, 48_000, 9.0);
        let h = hear(&left, 1000.0);
        report(
            &format!("ffmpeg -re 48k idle, attempt {attempt}"),
            &h,
            &stats,
        );
        assert!(h.seconds > 8.0, "{} s of tone", h.seconds);
        assert_gaps_counted(&h, &stats);
        assert_eq!(stats.sources[0].format_problem, None);
        let clean_start = h.gaps.iter().all(|g| g.0 > 0.5);
        let p50 = quantile_abs(&h.pitch_ppm, 0.5);
        // 20 ppm in the reader's simulations; 50 here, where other work on the machine makes
        // ffmpeg stall and the buffer re-centre.
        if clean_start && h.pitch_ppm.len() >= 5 && p50 <= 50.0 {
            return;
        }
        attempts.push((h.gaps, h.pitch_ppm));
    }
    panic!("no attempt started without a gap at true pitch (gaps, pitch ppm): {attempts:?}");
}

#[test]
fn static_payload_type_10_sets_44k1_whatever_the_source_is_set_to() {
    let _serial = serial();
    // The source says 48 kHz; ffmpeg sends L16 stereo at 44.1 kHz, which is payload type 10.
    let (left, stats) = play_ffmpeg(RtpFormat::DEFAULT, 44_100, 7.0);
    let h = hear(&left, 1000.0);
    report("ffmpeg PT 10 44.1k", &h, &stats);
    let src = &stats.sources[0];
    assert_eq!(src.format.as_deref(), Some("rtp L16 44100 Hz 2 ch"));
    let problem = src.format_problem.as_deref().unwrap_or_default();
    assert!(problem.contains("payload type 10"), "{src:?}");
    // Every gap-free half second from the start: within 1 Hz (1088 Hz if played as 48 kHz).
    let windows = hearing::hear(&left, RATE, 1000.0, 0.0).pitch_ppm;
    assert!(windows.len() >= 4, "{h:?}");
    assert!(
        quantile_abs(&windows, 0.5) < 1000.0,
        "{windows:?} ppm off 1000 Hz"
    );
    assert_gaps_counted(&h, &stats);
}

#[test]
fn under_a_cpu_hog_every_gap_is_counted_and_pitch_holds() {
    let _serial = serial();
    let hog = Command::new("stress-ng")
        .args(["--cpu", "2", "--timeout", "14s", "--quiet"])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn();
    let Ok(mut hog) = hog else {
        skip_for_environment(
            "under_a_cpu_hog_every_gap_is_counted_and_pitch_holds",
            "stress-ng is missing (Debian: stress-ng)",
        );
        return;
    };
    let (left, stats) = play_ffmpeg(RtpFormat::DEFAULT, 48_000, 10.0);
    let _ = hog.kill();
    let _ = hog.wait();
    let h = hear(&left, 1000.0);
    report("ffmpeg -re 48k under stress-ng --cpu 2", &h, &stats);
    assert!(h.seconds > 5.0, "{} s of tone", h.seconds);
    assert_gaps_counted(&h, &stats);
    if h.pitch_ppm.len() >= 3 {
        let p99 = quantile_abs(&h.pitch_ppm, 0.99);
        assert!(p99 <= 100.0, "pitch {:?} ppm", h.pitch_ppm);
    }
}

#[test]
fn a_sender_with_5_to_20_ms_of_jitter_plays_at_true_pitch_without_a_gap() {
    let _serial = serial();
    let (left, stats, sent) = play_bursty(10.0, 12);
    let h = hear(&left, 1000.0);
    report("bursty sender (holds of 5-20 ms), idle", &h, &stats);
    eprintln!("sender: {sent:?}");
    // The sender did inject what it says: a hold every 1-4 packets, up to 20 ms.
    assert!(sent.bursts > 300 && sent.max_hold_ms > 15.0, "{sent:?}");
    assert!(h.seconds > 9.0, "{} s of tone", h.seconds);
    assert_gaps_counted(&h, &stats);
    assert!(h.pitch_ppm.len() >= 8, "{h:?}");
    // After 5 s the pitch holds within 20 ppm (issue 12's bound) in half of the windows at
    // least, and within 100 ppm in all: a pause of the machine (other work) may re-centre the
    // buffer, and that shows in a window or two.
    let p50 = quantile_abs(&h.pitch_ppm, 0.5);
    assert!(p50 <= 20.0, "pitch {:?} ppm", h.pitch_ppm);
    assert!(
        quantile_abs(&h.pitch_ppm, 1.0) <= 100.0,
        "pitch {:?} ppm",
        h.pitch_ppm
    );
}

#[test]
fn a_sender_with_jitter_under_a_cpu_hog_holds_pitch_and_every_gap_is_counted() {
    let _serial = serial();
    let hog = Command::new("stress-ng")
        .args(["--cpu", "2", "--timeout", "13s", "--quiet"])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn();
    let Ok(mut hog) = hog else {
        skip_for_environment(
            "a_sender_with_jitter_under_a_cpu_hog_holds_pitch_and_every_gap_is_counted",
            "stress-ng is missing (Debian: stress-ng)",
        );
        return;
    };
    let (left, stats, sent) = play_bursty(10.0, 34);
    let _ = hog.kill();
    let _ = hog.wait();
    let h = hear(&left, 1000.0);
    report(
        "bursty sender (holds of 5-20 ms), stress-ng --cpu 2",
        &h,
        &stats,
    );
    eprintln!("sender: {sent:?}");
    assert!(h.seconds > 9.0, "{} s of tone", h.seconds);
    assert_gaps_counted(&h, &stats);
    assert!(h.pitch_ppm.len() >= 5, "{h:?}");
    let p99 = quantile_abs(&h.pitch_ppm, 0.99);
    assert!(p99 <= 100.0, "pitch {:?} ppm", h.pitch_ppm);
}

/// The bench's measure of a sender's clock (its pitch reference) reads a 100 ppm fast sender
/// through up to 30 ms of random delay, one prompt packet a second.
#[test]
fn the_bench_reads_a_senders_clock_through_jitter() {
    let mut seed = 1u32;
    let arrivals: Vec<(f64, u32)> = (0..5000u32)
        .map(|k| {
            seed = seed.wrapping_mul(1_664_525).wrapping_add(1_013_904_223);
            let delay = if k % 166 == 0 {
                0.0
            } else {
                f64::from(seed >> 8) / 16_777_216.0 * 0.03
            };
            (f64::from(k) * 0.006 / (1.0 + 100e-6) + delay, k * 288)
        })
        .collect();
    let ppm = sender_clock::sender_ppm(&arrivals, 48_000).unwrap();
    assert!((ppm - 100.0).abs() < 5.0, "{ppm}");
    let same: Vec<(f64, u32)> = arrivals
        .iter()
        .map(|&(t, ts)| (t * (1.0 + 100e-6), ts))
        .collect();
    let ppm = sender_clock::sender_ppm(&same, 48_000).unwrap();
    assert!(ppm.abs() < 5.0, "same clock: {ppm}");
}
