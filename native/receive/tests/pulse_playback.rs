//! `tributary-receive -o pulse` against real parts: a PulseAudio of the test's own with a null
//! sink (48 kHz float), a paced Scream sender on 127.0.0.1 (the engine tests' own), `parec`
//! recording the null sink's monitor. What the recording must hold: 1 kHz at the sent level
//! (within 0.5 dB), no gap or jump once playing, and, after the sender stops and starts again,
//! the tone back within 1 s. SIGTERM ends the receiver cleanly; a missing server or a refused
//! stream is a clear error and a non-zero exit. The harness is `support/`.

mod support;

use std::time::{Duration, Instant};
use support::common::{
    ffmpeg_tone, free_udp_port, have_tool, longest_sound, serial, skip_for_environment,
};
use support::hearing::hear;
use support::*;

#[test]
fn plays_a_scream_tone_on_pulseaudio_resumes_after_the_sender_restarts_and_stops_on_sigterm() {
    if !can_run("plays_a_scream_tone_on_pulseaudio") {
        return;
    }
    let _serial = serial();
    let mut session = Session::start("receive", &["-u", "-t", "50"]);
    let port = session.port;
    let started = Instant::now();
    send(port, 3.0).join().unwrap();
    std::thread::sleep(Duration::from_millis(1500));
    let restarted = Instant::now();
    send(port, 2.5).join().unwrap();
    std::thread::sleep(Duration::from_millis(500));
    let arrivals = session.recording.arrivals.clone();
    let (x, lines) = session.stop();
    assert!(
        lines
            .iter()
            .any(|l| l.contains("buffer") && l.contains("drift") && l.contains("underruns")),
        "-v reports the buffer, the drift and the underruns"
    );
    let last = lines.iter().rev().find(|l| l.contains("card:")).unwrap();
    assert!(
        last.ends_with("underruns 0, overflows 0"),
        "the card never lacked frames nor dropped any: {last}"
    );

    let sounds = stretches(&x);
    for (i, (from, to)) in sounds.iter().enumerate() {
        eprintln!(
            "stretch {i}: {:.3} s to {:.3} s of the recording, heard {:.0} ms after the start, {:.0} ms after the restart",
            *from as f64 / RATE,
            *to as f64 / RATE,
            arrival_of(&arrivals, *from).saturating_duration_since(started).as_secs_f64() * 1000.0,
            arrival_of(&arrivals, *from).saturating_duration_since(restarted).as_secs_f64() * 1000.0
        );
    }
    assert_eq!(sounds.len(), 2, "two stretches of tone: {sounds:?}");
    // Once playing: from 0.3 s after the first sound (the fade-in and the jitter buffer's start)
    // to 50 ms before the last (the fade-out when the sender stops).
    let settle = (0.3 * RATE) as usize;
    let tail = (0.05 * RATE) as usize;
    let (a, b) = (sounds[0], sounds[1]);
    assert!(
        (a.1 - a.0) as f64 / RATE > 2.8,
        "the first 3 s play: {:.2} s",
        (a.1 - a.0) as f64 / RATE
    );
    measure("first run", &x[a.0 + settle..a.1 - tail], AMPLITUDE);
    measure("after the restart", &x[b.0 + settle..b.1 - tail], AMPLITUDE);
    let resumed = arrival_of(&arrivals, b.0).duration_since(restarted);
    eprintln!(
        "resumed {:.0} ms after the sender restarted (as recorded, through the server and parec)",
        resumed.as_secs_f64() * 1000.0
    );
    assert!(
        resumed < Duration::from_secs(1),
        "resumed after {resumed:?}"
    );
    // Between the runs: silence, not noise.
    let quiet = &x[a.1 + tail..b.0];
    assert!(quiet.iter().all(|s| s.abs() < 0.01), "the pause is silent");

    // A sink the server does not have: refused, said, non-zero exit.
    let (status, text) = run_to_exit(receiver(
        &session.pulse.server(),
        &["-u", "-p", &free_udp_port().to_string(), "-s", "nosuchsink"],
    ));
    assert_eq!(status.code(), Some(1));
    assert!(
        text.contains("cannot play on PulseAudio") && text.contains("sink nosuchsink"),
        "{text}"
    );
}

#[test]
fn plays_rtp_l16_from_ffmpeg_on_pulseaudio() {
    if !can_run("plays_rtp_l16_from_ffmpeg_on_pulseaudio") {
        return;
    }
    if !have_tool("ffmpeg") {
        skip_for_environment("plays_rtp_l16_from_ffmpeg_on_pulseaudio", "needs ffmpeg");
        return;
    }
    let _serial = serial();
    let mut session = Session::start("receive-rtp", &["-u", "-r", "L16/48000/2"]);
    let port = session.port;
    // Both channels at the sine's level (-ac 2 would put a mono sine 3 dB down on each).
    let mut ffmpeg = ffmpeg_tone(port, TONE, 48_000, 3.0, &["-af", "pan=stereo|c0=c0|c1=c0"]);
    assert!(ffmpeg.wait().unwrap().success(), "ffmpeg sent");
    std::thread::sleep(Duration::from_millis(500));
    let (x, lines) = session.stop();
    assert!(
        lines[0].contains("listening for RTP s16be 48000 Hz 2 ch"),
        "{}",
        lines[0]
    );
    assert!(
        lines.iter().any(|l| l.contains("rtp L16 48000 Hz 2 ch")),
        "-v names the stream's format"
    );
    // ffmpeg is not a real-time sender (bursts of 21 ms, stalls on a loaded machine): as in the
    // engine's own ffmpeg test, the level and pitch are judged on the longest stretch without a
    // gap, and any gap must be one the receiver counted (gap-free playback is the Scream test's).
    let (start, len) = longest_sound(&x);
    eprintln!("longest stretch without a gap: {:.2} s", len as f64 / RATE);
    assert!(
        len as f64 / RATE > 0.5,
        "0.5 s of uninterrupted tone: {len} samples"
    );
    let edge = (0.02 * RATE) as usize;
    measure(
        "RTP from ffmpeg",
        &x[start + edge..start + len - edge],
        FFMPEG_AMPLITUDE,
    );
    let sounds = stretches(&x);
    let (from, to) = (sounds[0].0, sounds.last().unwrap().1);
    let gaps = hear(&x[from..to], RATE, TONE, 0.0).gaps;
    let counted = lines
        .iter()
        .any(|l| !l.contains("underruns 0 (0 ms silence)") && l.contains("buffer"));
    assert!(
        gaps.is_empty() || counted,
        "gaps {gaps:?} that -v did not count"
    );
}

#[test]
fn without_a_pulseaudio_server_it_says_so_and_exits_non_zero() {
    let dir = std::env::temp_dir().join(format!("trib-no-pa-{}", std::process::id()));
    let server = format!("unix:{}", dir.join("native").display());
    let (status, text) = run_to_exit(receiver(
        &server,
        &["-u", "-p", &free_udp_port().to_string()],
    ));
    assert_eq!(status.code(), Some(1), "{text}");
    assert!(
        text.contains(&format!("cannot play on PulseAudio ({server})"))
            && text.contains("Connection refused")
            && text.contains("running for this user"),
        "{text}"
    );
}
