//! Malformed-packet floods on every port, reconfiguration without gaps, unknown senders, clean
//! shutdown.

mod common;

use common::*;
use std::net::UdpSocket;
use std::time::{Duration, Instant};
use tributary_engine::DesiredState;

#[test]
fn floods_of_random_bytes_on_every_port_are_dropped_and_counted_while_audio_plays() {
    let _serial = serial();
    let mut engine = engine();
    let rtp_port = free_udp_port();
    let (rx, out_port) = receiver();
    let rtp = rtp_source(rtp_port, tributary_engine::wire::rtp::RtpFormat::DEFAULT);
    let paths = vec![local_pc(), path("rtp", Some(LOCAL), Some(rtp))];
    let to = play(&mut engine, vec![scream_sink("out", out_port, paths)]);
    let ports = engine.ports().clone();
    let targets: Vec<u16> = [
        ports.scream[0],
        ports.tagged.unwrap(),
        rtp_port,
        rtp_port + 1,
    ]
    .into_iter()
    .collect();
    let flooder = std::thread::spawn(move || {
        // Random bytes from another address: a real source's address sending a valid-looking
        // header would (rightly) be taken as that source changing format.
        let s = UdpSocket::bind(("127.0.0.2", 0)).unwrap();
        let known = UdpSocket::bind((LOCAL, 0)).unwrap();
        let mut rng = Lcg(99);
        let mut buf = [0u8; 3000];
        for i in 0..20_000u32 {
            let len = (rng.next() % 2500) as usize;
            for b in &mut buf[..len] {
                *b = rng.next() as u8;
            }
            // Some look like the real thing: a valid-looking first byte.
            if i % 3 == 0 && len > 0 {
                buf[0] = [0x01, 0x80, b'T'][(i as usize / 3) % 3];
            }
            let port = targets[i as usize % targets.len()];
            let _ = s.send_to(&buf[..len], (LOCAL, port));
            // And broken packets from the known sources' own address.
            if i % 40 == 0 {
                let _ = known.send_to(&[0x01, 16, 2], (LOCAL, targets[0]));
                let _ = known.send_to(&[0x40; 20], (LOCAL, targets[2]));
            }
            if i % 500 == 0 {
                std::thread::sleep(Duration::from_millis(5));
            }
        }
    });
    let tone =
        std::thread::spawn(move || send_scream_tone(to, 2.0, [(1000.0, 0.5), (1000.0, 0.5)]));
    let packets = collect(&rx, 2.3);
    flooder.join().unwrap();
    tone.join().unwrap();
    let stats = engine.stats();
    let of = |id: &str| {
        stats
            .sources
            .iter()
            .find(|s| s.id == id)
            .map_or(0, |s| s.malformed)
    };
    assert!(
        stats.malformed_unknown > 1000,
        "random packets counted: {stats:?}"
    );
    assert!(
        of("pc") >= 400 && of("rtp") >= 400,
        "charged to the sources: {stats:?}"
    );
    // The tone still arrived, and the sink kept its cadence.
    assert!(packets.len() > 300, "{} packets", packets.len());
    let audio: Vec<u8> = packets[150..300]
        .iter()
        .flat_map(|(_, p)| p[5..].to_vec())
        .collect();
    let [l, _] = split_s16(&audio, false);
    let (f, _) = tone_of(&l);
    assert!((f - 1000.0).abs() < 10.0, "{f} Hz");
    engine.stop();
}

fn tone_of(s: &[f64]) -> (f64, f64) {
    tone(s, 48_000.0)
}

#[test]
fn apply_changes_volume_and_adds_sinks_without_a_gap_on_the_unchanged_path() {
    let _serial = serial();
    let mut engine = engine();
    let ((rx, p1), (rx2, p2)) = (receiver(), receiver());
    let base = DesiredState {
        sinks: vec![scream_sink("a", p1, vec![local_pc()])],
    };
    let to = play(&mut engine, base.sinks.clone());
    let tone = std::thread::spawn(move || send_scream_tone(to, 3.0, [(500.0, 0.5), (500.0, 0.5)]));
    let collector = std::thread::spawn(move || collect(&rx, 3.2));
    std::thread::sleep(Duration::from_millis(1000));
    // Halve the volume on sink a and add sink b, playing the source 1.5 s later (more than its
    // buffer held, so the buffer grows): a keeps playing.
    let mut changed = base.clone();
    changed.sinks[0].paths[0].volume = 0.5;
    let mut later = local_pc();
    later.delay_ms = 1500.0;
    changed.sinks.push(scream_sink("b", p2, vec![later]));
    engine.apply(changed).unwrap();
    let second = collect(&rx2, 1.0);
    let packets = collector.join().unwrap();
    tone.join().unwrap();
    let audio: Vec<u8> = packets.iter().flat_map(|(_, p)| p[5..].to_vec()).collect();
    let [l, _] = split_s16(&audio, false);
    // Find the playing stretch and check it has no dropout and both levels.
    let start = l.iter().position(|x| x.abs() > 0.1).expect("tone arrived");
    let end = l.iter().rposition(|x| x.abs() > 0.05).unwrap();
    let playing = &l[start..end];
    // Where the volume change landed: the first 10 ms window whose peak is below 0.4.
    let change = (0..playing.len() / 480)
        .map(|w| w * 480)
        .find(|&i| playing[i..i + 480].iter().all(|x| x.abs() < 0.4))
        .expect("the volume change arrived");
    // The path kept playing across it: no dropout within 200 ms either side. (Elsewhere a
    // loaded machine may delay loopback delivery itself; that shows as a counted underrun.)
    let around = &playing[change.saturating_sub(9_600)..(change + 9_600).min(playing.len())];
    assert!(
        longest_silence(around) < 8,
        "dropout at the change; {:?}",
        engine.stats()
    );
    let unexplained = longest_silence(playing) >= 8 && engine.stats().sinks[0].underruns == 0;
    assert!(
        !unexplained,
        "a dropout without an underrun; {:?}",
        engine.stats()
    );
    let peak = |s: &[f64]| s.iter().fold(0.0f64, |m, x| m.max(x.abs()));
    let before = peak(&playing[..24_000]);
    let after = peak(&playing[playing.len() - 24_000..]);
    assert!(
        (before - 0.5).abs() < 0.03 && (after - 0.25).abs() < 0.03,
        "{before} -> {after}"
    );
    // No click: the volume ramp keeps sample steps within a 500 Hz sine's slope.
    let max_step = playing
        .windows(2)
        .map(|w| (w[1] - w[0]).abs())
        .fold(0.0, f64::max);
    assert!(
        max_step < 0.5 * 2.0 * std::f64::consts::PI * 500.0 / 48_000.0 * 1.3,
        "step {max_step}"
    );
    assert!(
        second.len() > 100,
        "the new sink plays too ({} packets)",
        second.len()
    );
    engine.stop();
}

#[test]
fn unknown_senders_are_listed_not_played_and_stop_is_clean() {
    let _serial = serial();
    let mut engine = engine();
    let (rx, port) = receiver();
    let to = play(&mut engine, vec![scream_sink("a", port, vec![])]);
    send_scream_tone(to, 0.3, [(1000.0, 0.5), (1000.0, 0.5)]);
    std::thread::sleep(Duration::from_millis(300));
    let unknown = engine.unknown_senders();
    assert_eq!(unknown.len(), 1, "{unknown:?}");
    assert_eq!(unknown[0].address, "127.0.0.1");
    assert_eq!(unknown[0].kind, tributary_engine::wire::SenderKind::Scream);
    assert!(unknown[0].packets > 20);
    assert_eq!(
        unknown[0].format.as_deref(),
        Some("scream s16le 48000 Hz 2 ch")
    );
    let packets = collect(&rx, 0.3);
    assert!(
        packets.iter().all(|(_, p)| p[5..].iter().all(|&b| b == 0)),
        "unknown audio is not routed"
    );
    let scream_port = engine.ports().scream[0];
    let t = Instant::now();
    engine.stop();
    assert!(
        t.elapsed() < Duration::from_secs(2),
        "stop took {:?}",
        t.elapsed()
    );
    // Every socket is closed: the port can be bound again.
    UdpSocket::bind((LOCAL, scream_port)).expect("port released after stop");
}

#[test]
fn a_sender_added_as_a_source_leaves_the_unknown_list_and_plays() {
    let _serial = serial();
    let mut engine = engine();
    let (rx, port) = receiver();
    let to = play(&mut engine, vec![scream_sink("a", port, vec![])]);
    send_scream_tone(to, 0.2, [(1000.0, 0.5), (1000.0, 0.5)]);
    std::thread::sleep(Duration::from_millis(200));
    assert_eq!(engine.unknown_senders().len(), 1);
    // The dashboard adds it: it plays, and is no longer listed.
    let new = path("new", Some(LOCAL), None);
    play(&mut engine, vec![scream_sink("a", port, vec![new])]);
    let sender =
        std::thread::spawn(move || send_scream_tone(to, 0.5, [(1000.0, 0.5), (1000.0, 0.5)]));
    let packets = collect(&rx, 0.7);
    sender.join().unwrap();
    std::thread::sleep(Duration::from_millis(200));
    assert!(
        engine.unknown_senders().is_empty(),
        "{:?}",
        engine.unknown_senders()
    );
    let loud = packets
        .iter()
        .filter(|(_, p)| split_s16(&p[5..], false)[0].iter().any(|x| x.abs() > 0.3))
        .count();
    assert!(loud > 30, "{loud} packets with the tone");
    engine.stop();
}
