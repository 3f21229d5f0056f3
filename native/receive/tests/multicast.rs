//! Multicast, in a network namespace the test creates (`unshare -n`, as root; only its own
//! loopback carries the traffic): without `-u` the receiver joins the group (`-g`) and plays a
//! Scream tone sent to it; with `-u` it does not join, and the same stream stays silent.

mod support;

use std::net::{Ipv4Addr, SocketAddr};
use std::time::Duration;
use support::common::{rerun_in_netns, serial, skip_for_environment};
use support::*;

const GROUP: Ipv4Addr = Ipv4Addr::new(239, 255, 77, 78);
/// Set in the environment of the copy of this test that runs inside the namespace.
const INSIDE: &str = "TRIBUTARY_RECEIVE_TEST_NETNS";

#[test]
fn plays_a_multicast_group_without_u_and_not_with_it() {
    const NAME: &str = "plays_a_multicast_group_without_u_and_not_with_it";
    if std::env::var_os(INSIDE).is_some() {
        return inside_the_namespace();
    }
    // SAFETY: geteuid has no preconditions.
    if unsafe { libc::geteuid() } != 0 {
        return skip_for_environment(NAME, "creating a network namespace needs root");
    }
    if !can_run(NAME) {
        return;
    }
    eprintln!("{}", rerun_in_netns(NAME, INSIDE));
}

fn inside_the_namespace() {
    let _serial = serial();
    let group = GROUP.to_string();
    // Without -u: joins the group, plays.
    let mut session = Session::start("receive-mc", &["-g", &group]);
    send_to(SocketAddr::new(GROUP.into(), session.port), 2.0)
        .join()
        .unwrap();
    std::thread::sleep(Duration::from_millis(300));
    let (x, lines) = session.stop();
    assert!(
        lines[0].contains(&format!("(multicast {group})")),
        "{}",
        lines[0]
    );
    let sounds = stretches(&x);
    assert_eq!(sounds.len(), 1, "one stretch of tone: {sounds:?}");
    let (from, to) = sounds[0];
    assert!((to - from) as f64 / RATE > 1.8, "the 2 s play");
    let settle = (0.3 * RATE) as usize;
    measure(
        "multicast",
        &x[from + settle..to - (0.05 * RATE) as usize],
        AMPLITUDE,
    );
    drop(session);

    // With -u: the group is not joined; the same stream is not heard.
    let mut session = Session::start("receive-uc", &["-u", "-g", &group]);
    send_to(SocketAddr::new(GROUP.into(), session.port), 1.0)
        .join()
        .unwrap();
    std::thread::sleep(Duration::from_millis(300));
    let (x, lines) = session.stop();
    assert!(lines[0].contains("(unicast)"), "{}", lines[0]);
    assert!(
        x.len() as f64 / RATE > 1.0,
        "recorded {:.2} s",
        x.len() as f64 / RATE
    );
    assert!(x.iter().all(|s| s.abs() < 0.01), "unicast: nothing heard");
    assert!(
        !lines
            .iter()
            .any(|l| l.contains("playing the Scream sender")),
        "no sender seen"
    );
}
