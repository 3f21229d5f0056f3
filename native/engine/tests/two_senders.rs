//! Two real senders on one source: ffmpeg sending a 1 kHz tone as L16 RTP to the source's port,
//! and a second ffmpeg, started a second later, sending 3 kHz to the same port (another SSRC,
//! another local port). The source plays the first and drops the second's packets, counting
//! them and naming the sender in its statistics; once the first stops, the second takes over
//! within the lock's hold (0.2 s) and plays alone. Before the lock, the two streams' packets
//! went into one buffer: 1.5 s of jumble (54 of 73 windows of 20 ms neither 1 nor 3 kHz), then
//! 1.5 s of silence while both still sent, and nothing counted anywhere.

mod common;

use common::*;
use std::time::Duration;
use tributary_engine::wire::rtp::RtpFormat;

/// What a 20 ms window of the sink's output holds: the first sender's tone, the second's,
/// something else, or near-silence.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Heard {
    First,
    Second,
    Other(u32),
    Quiet,
}

fn heard(window: &[f64]) -> Heard {
    let (freq, rms) = tone(window, 48_000.0);
    if rms < 0.05 {
        Heard::Quiet
    } else if (freq - 1000.0).abs() < 60.0 {
        Heard::First
    } else if (freq - 3000.0).abs() < 160.0 {
        Heard::Second
    } else {
        Heard::Other(freq as u32)
    }
}

#[test]
fn a_second_rtp_sender_on_a_sources_port_is_dropped_and_counted_until_the_first_stops() {
    let _serial = serial();
    assert!(have_tool("ffmpeg"), "ffmpeg is required (Debian: ffmpeg)");
    let mut engine = engine();
    let (rx, out_port) = receiver();
    let port = free_udp_port();
    let rtp_in = path("rtp-in", None, Some(rtp_source(port, RtpFormat::DEFAULT)));
    play(
        &mut engine,
        vec![scream_sink("out", out_port, vec![rtp_in])],
    );
    let mut first = ffmpeg_tone(port, 1000.0, 48_000, 3.5, &["-ac", "2"]);
    let collector = std::thread::spawn(move || collect(&rx, 6.5));
    std::thread::sleep(Duration::from_secs(1));
    let mut second = ffmpeg_tone(port, 3000.0, 48_000, 4.5, &["-ac", "2"]);
    let packets = collector.join().unwrap();
    for child in [&mut first, &mut second] {
        let _ = child.kill();
        let _ = child.wait();
    }
    let stats = engine.stats();
    engine.stop();

    let s = &stats.sources[0];
    eprintln!(
        "{} packets played from, {} dropped from {:?}, {} sender change(s), lost {} late {}",
        s.packets, s.competing_packets, s.competing_sender, s.sender_changes, s.lost, s.late
    );
    let left = left_channel(&packets, None);
    let windows: Vec<Heard> = left.chunks_exact(960).map(heard).collect();
    let line: String = windows
        .iter()
        .map(|h| match h {
            Heard::First => '1',
            Heard::Second => '3',
            Heard::Other(_) => 'x',
            Heard::Quiet => '.',
        })
        .collect();
    eprintln!("20 ms windows: {line}");
    // About 130 packets a second for the 2.5 s both send.
    assert!(s.competing_packets > 150, "{} dropped", s.competing_packets);
    let sender = s.competing_sender.as_deref().unwrap_or_default();
    assert!(sender.starts_with("127.0.0.1:"), "{sender:?}");
    assert!(s.sender_changes >= 1, "the second sender took over");

    let first_played = windows.iter().filter(|h| **h == Heard::First).count();
    let second_played = windows.iter().filter(|h| **h == Heard::Second).count();
    let other: Vec<u32> = windows
        .iter()
        .filter_map(|h| match h {
            Heard::Other(f) => Some(*f),
            _ => None,
        })
        .collect();
    // 3.5 s of the first (less the buffer's start), then what is left of the second's.
    assert!(
        first_played > 140,
        "{first_played} windows of the first sender"
    );
    assert!(
        second_played > 60,
        "{second_played} windows of the second sender"
    );
    // The window where one hands over to the other (and one on each side of a stall of
    // ffmpeg's) may hold both or part of a tone.
    assert!(other.len() <= 4, "windows of neither tone: {other:?}");
    let last_first = windows.iter().rposition(|h| *h == Heard::First).unwrap();
    let first_second = windows.iter().position(|h| *h == Heard::Second).unwrap();
    assert!(
        first_second > last_first,
        "the second sender played before the first stopped: {line}"
    );
}
