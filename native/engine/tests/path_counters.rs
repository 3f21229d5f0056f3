//! Per-path counters over real UDP on loopback: two Scream senders (A on the left channel, B
//! on the right), three sinks (A and B, A only, B only). A stalls twice mid-stream (its audio
//! thread late by 150 ms, then resuming where it was); B keeps time. What each sink's channels
//! heard is compared with what each path counted: A's stalls are on A's paths (both of them),
//! and on no path of B's; each sink's counters are the sums over its paths.

mod common;

use common::*;
use std::net::{IpAddr, Ipv4Addr, SocketAddr, UdpSocket};
use std::time::{Duration, Instant};
use tributary_engine::wire::scream::{self, ScreamFormat};
use tributary_engine::{EngineStats, PathStats};

#[path = "common/hearing.rs"]
mod hearing;

const B_IP: IpAddr = IpAddr::V4(Ipv4Addr::new(127, 0, 0, 2));
/// Frames per Scream packet (1152 bytes of 16-bit stereo): 6 ms at 48 kHz.
const FRAMES: usize = 288;

/// Sends 48 kHz 16-bit stereo Scream from `from` for `seconds`: a `freq` Hz tone at half scale
/// on the left channel (`left`) or the right, silence on the other. At each of `stalls`
/// (seconds into the stream) the sender stops for `stall_s` and then goes on with the next
/// sample, as an audio thread that was descheduled does: nothing is lost, it is late.
fn send(from: IpAddr, to: SocketAddr, seconds: f64, freq: f64, left: bool, stalls: &[f64]) {
    let socket = UdpSocket::bind((from, 0)).unwrap();
    let format = ScreamFormat {
        sample_rate: 48_000,
        bit_depth: 16,
        channels: 2,
        channel_mask: 3,
    };
    tributary_engine::runtime::scheduling::raise_current_thread(30);
    let packets = (seconds * 48_000.0) as usize / FRAMES;
    let period = FRAMES as f64 / 48_000.0;
    let stall_s = 0.15;
    let start = Instant::now();
    let mut late = 0.0;
    let mut pending = stalls.to_vec();
    let (mut payload, mut out) = ([0u8; FRAMES * 4], [0u8; 1200]);
    for k in 0..packets {
        if pending.first().is_some_and(|&at| k as f64 * period >= at) {
            pending.remove(0);
            late += stall_s;
        }
        for (i, frame) in payload.chunks_exact_mut(4).enumerate() {
            let n = (k * FRAMES + i) as f64;
            let v =
                (0.5 * (2.0 * std::f64::consts::PI * freq * n / 48_000.0).sin() * 32767.0) as i16;
            let (l, r) = if left { (v, 0) } else { (0, v) };
            frame[..2].copy_from_slice(&l.to_le_bytes());
            frame[2..].copy_from_slice(&r.to_le_bytes());
        }
        let due = start + Duration::from_secs_f64(late + k as f64 * period);
        std::thread::sleep(due.saturating_duration_since(Instant::now()));
        let len = scream::build(&format, &payload, &mut out).unwrap();
        socket.send_to(&out[..len], to).unwrap();
    }
}

fn path_of<'a>(stats: &'a EngineStats, source: &str, sink: &str) -> &'a PathStats {
    stats
        .paths
        .iter()
        .find(|p| p.source_id == source && p.sink_id == sink)
        .unwrap_or_else(|| panic!("no path {source} -> {sink}: {:?}", stats.paths))
}

/// Silence a listener heard on one channel (gaps over 2 ms after the first sound), ms.
fn heard_gap_ms(channel: &[f64], freq: f64) -> f64 {
    hearing::hear(channel, 48_000.0, freq, 0.0).gap_ms()
}

/// What a path counted matches what its channel of the sink heard: the gap (a 5 ms fade at each
/// edge may be heard as sound), and nothing where nothing was heard.
fn assert_counted(p: &PathStats, heard_ms: f64) {
    let counted = p.silence_ms + p.concealed_ms;
    let events = (p.underruns + p.concealed) as f64;
    assert!(
        (counted - heard_ms).abs() <= 4.0 + 10.0 * events,
        "{} -> {}: heard {heard_ms:.1} ms of gaps, counted {counted:.1} ms: {p:?}",
        p.source_id,
        p.sink_id
    );
    if heard_ms == 0.0 {
        assert_eq!(counted, 0.0, "nothing heard, something counted: {p:?}");
    }
}

#[test]
fn a_stall_of_one_source_counts_on_its_paths_only() {
    let _serial = serial();
    let mut engine = engine();
    let (rx_both, port_both) = receiver();
    let (rx_a, port_a) = receiver();
    let (rx_b, port_b) = receiver();
    let a = || path("a", Some(LOCAL), None);
    let b = || path("b", Some(B_IP), None);
    let to = play(
        &mut engine,
        vec![
            scream_sink("both", port_both, vec![a(), b()]),
            scream_sink("only-a", port_a, vec![a()]),
            scream_sink("only-b", port_b, vec![b()]),
        ],
    );
    let seconds = 4.0;
    let sender_a = std::thread::spawn(move || send(LOCAL, to, seconds, 1000.0, true, &[1.5, 2.7]));
    let sender_b = std::thread::spawn(move || send(B_IP, to, seconds, 440.0, false, &[]));
    let listen = |rx: UdpSocket| std::thread::spawn(move || collect(&rx, seconds + 1.0));
    let (both, only_a, only_b) = (listen(rx_both), listen(rx_a), listen(rx_b));
    let both = both.join().unwrap();
    let only_a = only_a.join().unwrap();
    let only_b = only_b.join().unwrap();
    sender_a.join().unwrap();
    sender_b.join().unwrap();
    let stats = engine.stats();
    engine.stop();

    let channels = |packets: &[(Instant, Vec<u8>)]| {
        let audio: Vec<u8> = packets.iter().flat_map(|(_, p)| p[5..].to_vec()).collect();
        split_s16(&audio, false)
    };
    let [both_l, both_r] = channels(&both);
    let [only_a_l, _] = channels(&only_a);
    let [_, only_b_r] = channels(&only_b);
    let heard = [
        ("a", "both", heard_gap_ms(&both_l, 1000.0)),
        ("b", "both", heard_gap_ms(&both_r, 440.0)),
        ("a", "only-a", heard_gap_ms(&only_a_l, 1000.0)),
        ("b", "only-b", heard_gap_ms(&only_b_r, 440.0)),
    ];
    eprintln!(
        "heard gaps (source, sink, ms): {heard:?}; paths: {:?}",
        stats.paths
    );
    assert_eq!(stats.paths.len(), 4, "{:?}", stats.paths);
    for (source, sink, ms) in heard {
        assert_counted(path_of(&stats, source, sink), ms);
    }
    // Both stalls were heard and counted on both of A's paths (each an underrun, or one
    // that lasted through both when the buffer had not refilled in between).
    for sink in ["both", "only-a"] {
        let p = path_of(&stats, "a", sink);
        assert!(p.underruns >= 1, "{p:?}");
        assert!(p.silence_ms >= 250.0, "two stalls of 150 ms: {p:?}");
    }
    // B was on time: its paths count what its channels heard, which is not A's stalls.
    for sink in ["both", "only-b"] {
        let p = path_of(&stats, "b", sink);
        assert!(p.silence_ms < 150.0, "{p:?}");
    }
    // A sink counts what its paths counted, no more, no less.
    for sink in &stats.sinks {
        let on: Vec<&PathStats> = stats
            .paths
            .iter()
            .filter(|p| p.sink_id == sink.id)
            .collect();
        let sum = |f: fn(&PathStats) -> f64| on.iter().map(|p| f(p)).sum::<f64>();
        assert_eq!(
            sink.underruns as f64,
            sum(|p| p.underruns as f64),
            "{sink:?}"
        );
        assert!(
            (sink.silence_ms - sum(|p| p.silence_ms)).abs() < 0.01,
            "{sink:?}"
        );
        assert_eq!(
            sink.concealed as f64,
            sum(|p| p.concealed as f64),
            "{sink:?}"
        );
    }
}
