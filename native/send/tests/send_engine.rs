//! `tributary-send` into the router's own receivers: the engine (as `tributary serve` runs it)
//! with an RTP source on a port of its own, or a Scream source matched by 127.0.0.1, routed to a
//! Scream sink whose output the test records. What must hold: the engine detects the sender's
//! format (`rtp L16 48000 Hz 2 ch`, `scream s16le 48000 Hz 2 ch`), counts no packet lost, late
//! or malformed, and plays the captured 1 kHz tone at its level with no gap or jump. The
//! capture side is `send_pulse.rs`'s (a PulseAudio of the test's own, `pacat`'s tone). When
//! the router restarts (its engine stopped, a second one started on the same port a second
//! later), the sender keeps running and the tone plays again within 1 s of the new engine's
//! start.

mod support;

use std::time::{Duration, Instant};
use support::common::{
    engine, free_udp_port, left_channel, local_pc, path, play, receiver, rtp_source, scream_sink,
    serial,
};
use support::pulse::Pulse;
use support::*;
use tributary_engine::wire::rtp::RtpFormat;
use tributary_engine::{EngineStats, PathSpec};

/// The sender capturing the tone and sending to the engine at `to` (`args`: the protocol) for
/// 3 s; the engine's sink output (left channel) and its statistics.
fn through_the_engine(
    name: &str,
    path: PathSpec,
    to: Option<u16>,
    args: &[&str],
) -> (Vec<f64>, EngineStats) {
    let pulse = Pulse::start(name, NULL_SINK);
    realtime(&pulse);
    let mut engine = engine();
    let (rx, out_port) = receiver();
    let scream_in = play(&mut engine, vec![scream_sink("out", out_port, vec![path])]);
    let port = to.unwrap_or(scream_in.port()).to_string();
    let mut tone = play_tone(&pulse, 6.0);
    std::thread::sleep(Duration::from_millis(1500));
    let mut all = vec!["-h", "127.0.0.1", "-p", &port, "-d", "out.monitor"];
    all.extend_from_slice(args);
    let mut tx = sender(&pulse.server(), &all);
    let lines = lines_of(&mut tx);
    let packets = support::common::collect(&rx, 3.0);
    // SAFETY: a signal to our own child.
    unsafe { libc::kill(tx.id() as i32, libc::SIGTERM) };
    let status = wait_exit(&mut tx, Duration::from_secs(3));
    let _ = tone.kill();
    let _ = tone.wait();
    let stats = engine.stats();
    engine.stop();
    eprintln!("{}", lines.lock().unwrap().join("\n"));
    assert!(status.success(), "{status}");
    (left_channel(&packets, None), stats)
}

/// The source's detected format and counters, and the tone the sink played.
fn detected_and_played(name: &str, x: &[f64], stats: &EngineStats, source: &str, format: &str) {
    let s = stats
        .sources
        .iter()
        .find(|s| s.id == source)
        .expect("the source");
    eprintln!(
        "{name}: {} packets, format {:?}, lost {} late {} malformed {}, underruns {}",
        s.packets, s.format, s.lost, s.late, s.malformed, s.underruns
    );
    assert_eq!(s.format.as_deref(), Some(format));
    assert!(s.packets > 300, "{} packets", s.packets);
    assert_eq!((s.lost, s.late, s.malformed), (0, 0, 0));
    let sounds = stretches(x);
    assert_eq!(sounds.len(), 1, "{name}: one stretch of tone: {sounds:?}");
    let (from, to) = sounds[0];
    // From 0.3 s after the start (the jitter buffer's start) to 50 ms before the end.
    measure(
        name,
        &x[from + (0.3 * RATE) as usize..to - (0.05 * RATE) as usize],
        AMPLITUDE,
    );
}

#[test]
fn rtp_from_the_sender_plays_through_the_engine_as_l16_48k_stereo() {
    if !can_run("rtp_from_the_sender_plays_through_the_engine") {
        return;
    }
    let _serial = serial();
    let port = free_udp_port();
    let rtp_in = path("rtp-in", None, Some(rtp_source(port, RtpFormat::DEFAULT)));
    let (x, stats) = through_the_engine("send-engine-rtp", rtp_in, Some(port), &[]);
    detected_and_played(
        "RTP into the engine",
        &x,
        &stats,
        "rtp-in",
        "rtp L16 48000 Hz 2 ch",
    );
}

#[test]
fn scream_from_the_sender_plays_through_the_engine_matched_by_its_address() {
    if !can_run("scream_from_the_sender_plays_through_the_engine") {
        return;
    }
    let _serial = serial();
    let (x, stats) = through_the_engine("send-engine-scream", local_pc(), None, &["-P", "scream"]);
    detected_and_played(
        "Scream into the engine",
        &x,
        &stats,
        "pc",
        "scream s16le 48000 Hz 2 ch",
    );
}

#[test]
fn rtp_from_the_sender_plays_again_within_a_second_after_the_router_restarts() {
    if !can_run("rtp_from_the_sender_plays_again_after_the_router_restarts") {
        return;
    }
    let _serial = serial();
    let pulse = Pulse::start("send-engine-restart", NULL_SINK);
    realtime(&pulse);
    let port = free_udp_port();
    let (rx, out_port) = receiver();
    let desired = || {
        let rtp_in = path("rtp-in", None, Some(rtp_source(port, RtpFormat::DEFAULT)));
        vec![scream_sink("out", out_port, vec![rtp_in])]
    };
    let mut first = engine();
    play(&mut first, desired());
    let mut tone = play_tone(&pulse, 9.0);
    std::thread::sleep(Duration::from_millis(1500));
    let port_arg = port.to_string();
    let mut tx = sender(
        &pulse.server(),
        &["-h", "127.0.0.1", "-p", &port_arg, "-d", "out.monitor"],
    );
    let lines = lines_of(&mut tx);
    let before = support::common::collect(&rx, 2.0);
    let heard_before = first.stats().sources[0].packets;
    first.stop();
    drop(first);
    // The router is down for a second: the sender's packets go nowhere.
    std::thread::sleep(Duration::from_secs(1));
    let mut second = engine();
    play(&mut second, desired());
    let restarted = Instant::now();
    let after = support::common::collect(&rx, 3.0);
    let stats = second.stats();
    second.stop();
    let running = tx.try_wait().unwrap().is_none();
    // SAFETY: a signal to our own child.
    unsafe { libc::kill(tx.id() as i32, libc::SIGTERM) };
    let status = wait_exit(&mut tx, Duration::from_secs(3));
    let _ = tone.kill();
    let _ = tone.wait();
    eprintln!("{}", lines.lock().unwrap().join("\n"));
    assert!(
        heard_before > 200,
        "{heard_before} packets before the restart"
    );
    assert!(running, "the sender kept running while the router was down");
    assert!(status.success(), "{status}");
    let s = &stats.sources[0];
    eprintln!(
        "after the restart: {} packets, format {:?}, lost {} late {} malformed {}",
        s.packets, s.format, s.lost, s.late, s.malformed
    );
    assert_eq!(s.format.as_deref(), Some("rtp L16 48000 Hz 2 ch"));
    assert_eq!(s.malformed, 0);
    // The first packet of the new engine's output that carries the tone.
    let toned = after
        .iter()
        .position(|(_, p)| carries_tone(p))
        .expect("the tone plays after the restart");
    let resumed = after[toned].0.duration_since(restarted);
    eprintln!(
        "played again {:.0} ms after the router restarted ({} packets out before it)",
        resumed.as_secs_f64() * 1000.0,
        before.len()
    );
    assert!(
        resumed < Duration::from_secs(1),
        "the tone played again {resumed:?} after the router restarted (1 s at most)"
    );
    let x = left_channel(&after[toned..], None);
    let sounds = stretches(&x);
    assert_eq!(
        sounds.len(),
        1,
        "one stretch of tone after the restart: {sounds:?}"
    );
    let (from, to) = sounds[0];
    measure(
        "after the router restarted",
        &x[from + (0.3 * RATE) as usize..to - (0.05 * RATE) as usize],
        AMPLITUDE,
    );
}

/// Whether a Scream packet (5-byte header, 16-bit little-endian stereo) holds more than
/// near-silence on its left channel.
fn carries_tone(packet: &[u8]) -> bool {
    packet
        .get(5..)
        .unwrap_or_default()
        .chunks_exact(4)
        .any(|f| i16::from_le_bytes([f[0], f[1]]).unsigned_abs() > 3277)
}
