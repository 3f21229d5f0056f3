//! Multicast in a network namespace the test creates (`unshare -n`, as root): the engine joins
//! the configured group and plays a Scream stream sent to it, and sends RTP to a multicast sink
//! with TTL 64; an RTP source on a multicast group (as SAP adds them) played on two sinks
//! listens and plays on both (it joined its group once per path before: the second join failed
//! with "Address already in use" and the port never opened). Only the namespace's own loopback
//! carries the traffic.

mod common;

use common::*;
use std::net::{Ipv4Addr, SocketAddr, UdpSocket};
use std::time::Duration;
use tributary_engine::wire::rtp::RtpFormat;
use tributary_engine::{DesiredState, Engine, EngineOptions, RtpSourceSpec, SinkProtocol};

const IN_GROUP: Ipv4Addr = Ipv4Addr::new(239, 255, 10, 10);
const OUT_GROUP: Ipv4Addr = Ipv4Addr::new(239, 255, 10, 11);
const SAP_GROUP: Ipv4Addr = Ipv4Addr::new(239, 255, 10, 12);

/// Set in the environment of the copy of this test that runs inside the namespace.
const INSIDE: &str = "TRIBUTARY_TEST_INSIDE_NETNS";

#[test]
fn multicast_in_a_private_network_namespace() {
    if std::env::var_os(INSIDE).is_some() {
        return multicast_inside_the_namespace();
    }
    // SAFETY: geteuid has no preconditions.
    if unsafe { libc::geteuid() } != 0 {
        return skip_for_environment(
            "multicast_in_a_private_network_namespace",
            "creating a network namespace needs root",
        );
    }
    // This same test runs again inside the namespace, where INSIDE sends it to the real work.
    rerun_in_netns("multicast_in_a_private_network_namespace", INSIDE);
}

/// The test proper, inside the namespace the test above creates.
fn multicast_inside_the_namespace() {
    let mut engine = Engine::start(EngineOptions {
        bind: std::net::IpAddr::V4(Ipv4Addr::UNSPECIFIED),
        scream_ports: vec![0],
        tagged_port: None,
        rtp_ports: vec![],
        multicast_groups: vec![IN_GROUP],
        ..EngineOptions::default()
    })
    .expect("engine starts");
    // The RTP sink is a multicast group; a receiver joins it.
    let out_port = free_udp_port();
    let rx = UdpSocket::bind((Ipv4Addr::UNSPECIFIED, out_port)).unwrap();
    rx.join_multicast_v4(&OUT_GROUP, &Ipv4Addr::UNSPECIFIED)
        .unwrap();
    enable_recv_ttl(&rx);
    let mut s = sink(
        "multicast",
        out_port,
        SinkProtocol::Rtp,
        48_000,
        16,
        vec![local_pc()],
    );
    s.ip = Some(OUT_GROUP.into());
    play(&mut engine, vec![s]);
    // The Scream sender (bound to 127.0.0.1 so the source matches) sends to the input group.
    let to = SocketAddr::new(IN_GROUP.into(), engine.ports().scream[0]);
    let sender =
        std::thread::spawn(move || send_scream_tone(to, 1.0, [(1000.0, 0.5), (1000.0, 0.5)]));
    rx.set_read_timeout(Some(Duration::from_millis(200)))
        .unwrap();
    let mut buf = [0u8; 2048];
    let (mut packets, mut loud, mut ttls) = (0, 0, Vec::new());
    let end = std::time::Instant::now() + Duration::from_millis(1500);
    while std::time::Instant::now() < end {
        if let Some((n, ttl)) = recv_with_ttl(&rx, &mut buf) {
            packets += 1;
            ttls.push(ttl);
            let p = tributary_engine::wire::rtp::parse(&buf[..n]).unwrap();
            if p.payload
                .chunks_exact(2)
                .any(|b| i16::from_be_bytes([b[0], b[1]]).abs() > 15_000)
            {
                loud += 1;
            }
        }
    }
    sender.join().unwrap();
    engine.stop();
    assert!(packets > 100, "{packets} multicast RTP packets");
    assert!(
        loud > 50,
        "the multicast Scream input played ({loud} loud packets)"
    );
    assert!(
        ttls.iter().all(|&t| t == 64),
        "TTL 64 on every packet: {:?}",
        &ttls[..5.min(ttls.len())]
    );
}

fn enable_recv_ttl(socket: &UdpSocket) {
    use std::os::fd::AsRawFd;
    let one: libc::c_int = 1;
    // SAFETY: setsockopt on a socket we own with a valid int option.
    unsafe {
        libc::setsockopt(
            socket.as_raw_fd(),
            libc::IPPROTO_IP,
            libc::IP_RECVTTL,
            (&one as *const libc::c_int).cast(),
            std::mem::size_of::<libc::c_int>() as libc::socklen_t,
        );
    }
}

/// One datagram and the TTL it arrived with (IP_RECVTTL control message).
fn recv_with_ttl(socket: &UdpSocket, buf: &mut [u8]) -> Option<(usize, i32)> {
    use std::os::fd::AsRawFd;
    let mut iov = libc::iovec {
        iov_base: buf.as_mut_ptr().cast(),
        iov_len: buf.len(),
    };
    let mut control = [0u8; 64];
    // SAFETY: msghdr points at the iovec and control buffer above, which outlive the call;
    // CMSG_* walk only the control bytes the kernel reports.
    unsafe {
        let mut msg: libc::msghdr = std::mem::zeroed();
        msg.msg_iov = &mut iov;
        msg.msg_iovlen = 1;
        msg.msg_control = control.as_mut_ptr().cast();
        msg.msg_controllen = control.len() as _;
        let n = libc::recvmsg(socket.as_raw_fd(), &mut msg, 0);
        if n < 0 {
            return None;
        }
        let mut cmsg = libc::CMSG_FIRSTHDR(&msg);
        while !cmsg.is_null() {
            if (*cmsg).cmsg_level == libc::IPPROTO_IP && (*cmsg).cmsg_type == libc::IP_TTL {
                let ttl = std::ptr::read_unaligned(libc::CMSG_DATA(cmsg) as *const libc::c_int);
                return Some((n as usize, ttl));
            }
            cmsg = libc::CMSG_NXTHDR(&msg, cmsg);
        }
        Some((n as usize, -1))
    }
}

#[test]
fn a_multicast_rtp_source_on_two_sinks_listens_and_plays_on_both() {
    if std::env::var_os(INSIDE).is_some() {
        return multicast_rtp_source_on_two_sinks();
    }
    // SAFETY: geteuid has no preconditions.
    if unsafe { libc::geteuid() } != 0 {
        return skip_for_environment(
            "a_multicast_rtp_source_on_two_sinks_listens_and_plays_on_both",
            "creating a network namespace needs root",
        );
    }
    rerun_in_netns(
        "a_multicast_rtp_source_on_two_sinks_listens_and_plays_on_both",
        INSIDE,
    );
}

fn multicast_rtp_source_on_two_sinks() {
    let mut engine = Engine::start(EngineOptions {
        bind: std::net::IpAddr::V4(Ipv4Addr::UNSPECIFIED),
        scream_ports: vec![0],
        tagged_port: None,
        rtp_ports: vec![],
        ..EngineOptions::default()
    })
    .expect("engine starts");
    let port = free_udp_port();
    let source = || {
        path(
            "sap-stream",
            None,
            Some(RtpSourceSpec {
                listen_ip: Some(SAP_GROUP.into()),
                ..rtp_source(port, RtpFormat::DEFAULT)
            }),
        )
    };
    let (a, a_port) = receiver();
    let (b, b_port) = receiver();
    let sinks = vec![
        scream_sink("a", a_port, vec![source()]),
        scream_sink("b", b_port, vec![source()]),
    ];
    let problems = engine.apply(DesiredState { sinks }).unwrap();
    assert!(problems.is_empty(), "{problems:?}");
    assert!(engine.ports().rtp.contains(&port), "{:?}", engine.ports());
    // 1 s of a loud L16 48 kHz stereo tone to the group, 6 ms a packet.
    let tx = UdpSocket::bind((Ipv4Addr::UNSPECIFIED, 0)).unwrap();
    let sender = std::thread::spawn(move || {
        let mut packet = vec![0u8; 12 + 1152];
        for k in 0..167u32 {
            packet[0] = 0x80;
            packet[1] = 127;
            packet[2..4].copy_from_slice(&(k as u16).to_be_bytes());
            packet[4..8].copy_from_slice(&(k * 288).to_be_bytes());
            packet[8..12].copy_from_slice(&0x5eed_u32.to_be_bytes());
            for (i, frame) in packet[12..].chunks_exact_mut(4).enumerate() {
                let t = f64::from(k * 288 + i as u32) / 48_000.0;
                let v = (16_000.0 * (2.0 * std::f64::consts::PI * 1000.0 * t).sin()) as i16;
                frame[..2].copy_from_slice(&v.to_be_bytes());
                frame[2..].copy_from_slice(&v.to_be_bytes());
            }
            tx.send_to(&packet, (SAP_GROUP, port)).unwrap();
            std::thread::sleep(Duration::from_millis(6));
        }
    });
    let (from_a, from_b) = std::thread::scope(|s| {
        let a = s.spawn(|| collect(&a, 1.5));
        let b = s.spawn(|| collect(&b, 1.5));
        (a.join().unwrap(), b.join().unwrap())
    });
    sender.join().unwrap();
    let stats = engine.stats();
    engine.stop();
    let heard = stats.sources.iter().find(|s| s.id == "sap-stream").unwrap();
    assert!(heard.packets > 100, "{} packets heard", heard.packets);
    for (name, packets) in [("a", &from_a), ("b", &from_b)] {
        let loud = left_channel(packets, None)
            .iter()
            .filter(|x| x.abs() > 0.3)
            .count();
        assert!(loud > 4_800, "sink {name}: {loud} loud samples");
    }
}
