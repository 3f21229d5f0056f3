//! Floods from a configured source's own address (issue 10: anyone on the LAN can spoof it):
//! random bytes and valid-looking Scream headers of every format, cut anywhere, on every port,
//! while another source plays on another sink. Nothing fails, the other path plays on, the
//! flood is counted. And a second engine cannot take ports the first one listens on.

mod common;

use common::*;
use std::net::{IpAddr, Ipv4Addr, UdpSocket};
use std::time::{Duration, Instant};
use tributary_engine::{Engine, EngineOptions, HealthState};

#[test]
fn random_bytes_and_format_changes_from_a_sources_address_leave_the_other_paths_playing() {
    let _serial = serial();
    let mut engine = engine();
    let rtp_port = free_udp_port();
    let (rx_a, port_a) = receiver();
    let (rx_b, port_b) = receiver();
    let other = IpAddr::V4(Ipv4Addr::new(127, 0, 0, 3));
    let rtp = rtp_source(rtp_port, tributary_engine::wire::rtp::RtpFormat::DEFAULT);
    let to = play(
        &mut engine,
        vec![
            scream_sink(
                "a",
                port_a,
                vec![local_pc(), path("rtp", Some(LOCAL), Some(rtp))],
            ),
            scream_sink("b", port_b, vec![path("other", Some(other), None)]),
        ],
    );
    let ports = engine.ports();
    let targets = [
        ports.scream[0],
        ports.tagged.unwrap(),
        rtp_port,
        rtp_port + 1,
    ];
    let flooder = std::thread::spawn(move || {
        // From 127.0.0.1: the configured sources "pc" (Scream) and "rtp".
        let s = UdpSocket::bind((LOCAL, 0)).unwrap();
        let mut rng = Lcg(10);
        let mut buf = [0u8; 2100];
        let (mut sent, mut headers) = (0u64, 0u64);
        let start = Instant::now();
        let mut i = 0u64;
        while start.elapsed() < Duration::from_millis(2500) {
            let len = (rng.next() % 1400) as usize;
            for b in &mut buf[..len] {
                *b = rng.next() as u8;
            }
            if i.is_multiple_of(2) && len >= 5 {
                // A valid Scream header of a random format: any rate byte, bit depth, 1-8
                // channels, any mask, then a payload of any length (frames cut anywhere).
                buf[0] = [0x01, 0x81, 0x02, 0x82, 0x04, 0x08][(rng.next() % 6) as usize];
                buf[1] = [16, 24, 32][(rng.next() % 3) as usize];
                buf[2] = 1 + (rng.next() % 8) as u8;
                headers += 1;
            }
            let port = targets[(i % targets.len() as u64) as usize];
            if s.send_to(&buf[..len], (LOCAL, port)).is_ok() {
                sent += 1;
            }
            i += 1;
            if i.is_multiple_of(16) {
                std::thread::sleep(Duration::from_millis(1));
            }
        }
        (sent, headers)
    });
    let sender =
        std::thread::spawn(move || send_scream_from(other, to, 3.0, 3, &[(440.0, 0.5); 2]));
    let collect_a = std::thread::spawn(move || collect(&rx_a, 3.1));
    let b = collect(&rx_b, 3.1);
    let (sent, headers) = flooder.join().unwrap();
    sender.join().unwrap();
    let a = collect_a.join().unwrap();
    let stats = engine.stats();
    let health = engine.health();
    // Nothing failed.
    assert_eq!(health.faults, 0, "{health:?}");
    assert_eq!(health.state, HealthState::Running);
    // Sink b played the tone throughout: no dropout, the right frequency.
    let gap = assert_tone_throughout(&b, 440.0, 480);
    // Sink a kept its cadence (one 1152-byte packet per 6 ms) whatever it played.
    assert!(a.len() > 450, "sink a sent {} packets", a.len());
    let malformed: u64 = stats.sources.iter().map(|s| s.malformed).sum();
    let pc = stats.sources.iter().find(|s| s.id == "pc").unwrap();
    assert!(malformed + stats.malformed_unknown > sent / 4, "{stats:?}");
    println!(
        "flood: {sent} packets sent ({headers} with a valid Scream header of a random format) in 2.5 s; \
         counted malformed on the sources {malformed}, malformed unknown {}, packets taken from 'pc' {}; \
         sink b: {} packets, longest dropout {gap} samples; sink a: {} packets; faults 0",
        stats.malformed_unknown,
        pc.packets,
        b.len(),
        a.len()
    );
    engine.stop();
}

#[test]
fn a_second_engine_cannot_listen_on_the_ports_of_the_first() {
    let _serial = serial();
    let first = engine();
    let taken = first.ports();
    let second = Engine::start(EngineOptions {
        bind: LOCAL,
        scream_ports: vec![taken.scream[0]],
        tagged_port: None,
        rtp_ports: vec![],
        ..EngineOptions::default()
    });
    let message = second.err().expect("the port is taken").to_string();
    assert!(
        message.contains(&format!("UDP port {}", taken.scream[0]))
            && message.contains("another Tributary"),
        "{message}"
    );
    // Bound to every address, the port is taken on loopback too.
    let any = Engine::start(EngineOptions {
        bind: IpAddr::V4(Ipv4Addr::UNSPECIFIED),
        scream_ports: vec![taken.scream[0]],
        tagged_port: None,
        rtp_ports: vec![],
        ..EngineOptions::default()
    });
    assert!(any.is_err(), "0.0.0.0 and 127.0.0.1 share the port");
    drop(first);
}
