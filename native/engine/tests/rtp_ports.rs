//! The RTP ports sources name, as the configuration changes (issue 35's soak found the leak):
//! a port another program holds is a problem of every apply that names it and leaves nothing
//! behind (before: no problem was reported and its RTCP neighbour was opened anyway, again at
//! every apply where multicast groups let ports be shared: one more thread and socket each
//! time); once free it is opened at the next apply; a port no source names any more is closed
//! (before: every port ever named stayed open, a thread and a socket each).

mod common;

use common::*;
use std::net::UdpSocket;
use tributary_engine::wire::rtp::RtpFormat;
use tributary_engine::{DesiredState, Engine};

/// The engine's receiver threads (`trib-rx-PORT`) in this process.
fn receiver_threads() -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir("/proc/self/task")
        .unwrap()
        .filter_map(|t| std::fs::read_to_string(t.ok()?.path().join("comm")).ok())
        .map(|n| n.trim().to_owned())
        .filter(|n| n.starts_with("trib-rx-"))
        .collect();
    names.sort();
    names
}

/// The receiver threads once they match `want` (a new thread names itself when it starts,
/// which may be a moment after the engine returns), or as they are after 2 s.
fn settled(want: &[String]) -> Vec<String> {
    let until = std::time::Instant::now() + std::time::Duration::from_secs(2);
    loop {
        let now = receiver_threads();
        if now == want || std::time::Instant::now() > until {
            return now;
        }
        std::thread::sleep(std::time::Duration::from_millis(10));
    }
}

fn with_rtp_source(engine: &mut Engine, port: Option<u16>) -> Vec<String> {
    let (_, out_port) = receiver();
    let paths = port
        .map(|p| {
            vec![path(
                "rtp-in",
                None,
                Some(rtp_source(p, RtpFormat::DEFAULT)),
            )]
        })
        .unwrap_or_default();
    let sinks = vec![scream_sink("out", out_port, paths)];
    engine
        .apply(DesiredState { sinks })
        .unwrap()
        .into_iter()
        .map(|p| p.0)
        .collect()
}

#[test]
fn a_taken_port_is_a_problem_leaving_nothing_behind_and_unused_ports_are_closed() {
    let _serial = serial();
    let mut engine = engine();
    let bound = engine.ports();
    let mut before: Vec<String> = bound
        .scream
        .iter()
        .chain(&bound.tagged)
        .map(|p| format!("trib-rx-{p}"))
        .collect();
    before.sort();
    assert_eq!(settled(&before), before, "the Scream and tagged receivers");
    let port = free_udp_port();
    let holder = UdpSocket::bind(("127.0.0.1", port)).unwrap();

    for _ in 0..20 {
        let problems = with_rtp_source(&mut engine, Some(port));
        assert_eq!(problems.len(), 1, "{problems:?}");
        assert!(
            problems[0].starts_with(&format!("RTP port {port}: cannot listen (")),
            "{problems:?}"
        );
    }
    assert_eq!(
        receiver_threads(),
        before,
        "20 refused applies left nothing behind"
    );
    assert!(!engine.ports().rtp.contains(&port));

    drop(holder);
    assert_eq!(
        with_rtp_source(&mut engine, Some(port)),
        Vec::<String>::new()
    );
    assert!(engine.ports().rtp.contains(&port));
    let mut open = before.clone();
    open.extend([format!("trib-rx-{port}"), format!("trib-rx-{}", port + 1)]);
    open.sort();
    assert_eq!(settled(&open), open, "the port's RTP and RTCP receivers");

    with_rtp_source(&mut engine, None);
    assert!(!engine.ports().rtp.contains(&port), "{:?}", engine.ports());
    assert_eq!(settled(&before), before, "the port's receivers closed");
    // The port is free again: another program can take it.
    UdpSocket::bind(("127.0.0.1", port)).expect("the engine let the port go");
    engine.stop();
}
