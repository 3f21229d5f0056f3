//! `tributary-send -i alsa` and `-i jack` against what runs without a sound card: a
//! `jackd -d dummy -r 48000` of the test's own (the receiver tests' `jackd.rs`; its clock is this
//! machine's), captured through ALSA's `jack` PCM (libasound2-plugins) and through JACK itself,
//! the sender sending to a UDP socket on 127.0.0.1. What must hold: packets of one payload
//! (1152 bytes, 288 frames of 16-bit stereo) arrive at the capture clock's rate, 48000 / 288 =
//! 166.7 a second within 3 %, numbered without a hole, for 2 s; the `-v` line counts no
//! overrun; SIGTERM ends the sender cleanly. A missing ALSA device, no JACK server, and a rate
//! the JACK server does not run at are errors in words and exit 1. ALSA's `null` PCM is not
//! used: it has no clock (it records as fast as it is read).

mod support;

#[allow(dead_code)]
#[path = "../../receive/tests/support/jackd.rs"]
mod jackd;

use jackd::Jackd;
use std::net::UdpSocket;
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};
use support::common::{have_tool, serial, skip_for_environment};
use support::*;
use tributary_engine::wire::rtp;

/// How long the packets are counted, after [`SETTLE`].
const WINDOW: Duration = Duration::from_secs(2);
/// From the sender's start until counting begins (opening the device, JACK's first periods).
const SETTLE: Duration = Duration::from_millis(700);
/// 48 kHz in packets of 288 frames.
const NOMINAL_PPS: f64 = 48_000.0 / 288.0;
/// How far the measured packet rate may be from [`NOMINAL_PPS`].
const RATE_TOLERANCE: f64 = 0.03;

/// A home of the test's own (no user ALSA configuration).
fn home(test: &str) -> PathBuf {
    let home = std::env::temp_dir().join(format!("trib-send-alsa-{test}-{}", std::process::id()));
    std::fs::create_dir_all(&home).unwrap();
    home
}

/// The sender with `args`, ALSA configured from `home`, JACK's server `jack` (never started for
/// it), no PulseAudio server (ALSA's `pulse` PCM fails at once when cpal lists it).
fn device_sender(home: &PathBuf, jack: &str, args: &[&str]) -> Child {
    Command::new(env!("CARGO_BIN_EXE_tributary-send"))
        .arg("--no-sap")
        .args(args)
        .env("HOME", home)
        .env("JACK_DEFAULT_SERVER", jack)
        .env("JACK_NO_START_SERVER", "1")
        .env(
            "PULSE_SERVER",
            format!("unix:{}", home.join("no-pulse").display()),
        )
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the sender runs")
}

fn can_run_jack(test: &str) -> bool {
    if !have_tool("jackd") || !have_tool("jack_lsp") {
        skip_for_environment(test, "needs jackd and jack_lsp (Debian: jackd2)");
        return false;
    }
    true
}

/// Runs the sender with `args` (to a socket of the test's own) for [`SETTLE`] + [`WINDOW`],
/// then SIGTERM; returns its stderr lines and the packets that arrived in the window.
fn send_for(home: &PathBuf, jack: &str, args: &[&str]) -> (Vec<String>, Vec<(f64, Vec<u8>)>) {
    let socket = UdpSocket::bind("127.0.0.1:0").unwrap();
    let port = socket.local_addr().unwrap().port().to_string();
    let mut all = vec!["-h", "127.0.0.1", "-p", &port, "-v"];
    all.extend_from_slice(args);
    let mut tx = device_sender(home, jack, &all);
    let lines = lines_of(&mut tx);
    // Whatever arrives while the device starts is read and dropped with the settling time.
    let (early, first) = collect(socket.try_clone().unwrap(), Instant::now() + SETTLE);
    first.join().unwrap();
    let (arrivals, collector) = collect(socket, Instant::now() + WINDOW);
    collector.join().unwrap();
    drop(early);
    // SAFETY: a signal to our own child.
    unsafe { libc::kill(tx.id() as i32, libc::SIGTERM) };
    let status = wait_exit(&mut tx, Duration::from_secs(3));
    std::thread::sleep(Duration::from_millis(100));
    let lines = lines.lock().unwrap().clone();
    eprintln!("{}", lines.join("\n"));
    assert!(status.success(), "SIGTERM: a clean exit, not {status}");
    assert_eq!(lines.last().map(String::as_str), Some("send: stopped"));
    let packets = arrivals.lock().unwrap().clone();
    (lines, packets)
}

/// Packets a second between the first and the last arrival, after checking that each is one
/// RTP L16 payload (1152 bytes) and that their numbers have no hole.
fn packet_rate(packets: &[(f64, Vec<u8>)]) -> f64 {
    assert!(packets.len() > 100, "{} packets arrived", packets.len());
    let mut last_seq: Option<u16> = None;
    for (_, p) in packets {
        let h = rtp::parse(p).expect("an RTP packet");
        assert_eq!(h.payload.len(), 1152, "one payload");
        if let Some(s) = last_seq {
            assert_eq!(h.sequence, s.wrapping_add(1), "no hole in the numbers");
        }
        last_seq = Some(h.sequence);
    }
    let span = packets.last().unwrap().0 - packets[0].0;
    (packets.len() - 1) as f64 / span
}

/// The line saying what is captured (alsa-lib prints its own lines while cpal lists devices).
fn start_line(lines: &[String]) -> &str {
    lines
        .iter()
        .find(|l| l.starts_with("send: capturing"))
        .expect("a start line")
}

fn assert_nominal(what: &str, lines: &[String], packets: &[(f64, Vec<u8>)]) {
    let pps = packet_rate(packets);
    eprintln!(
        "{what}: {} packets in the window, {pps:.2} a second (nominal {NOMINAL_PPS:.2})",
        packets.len()
    );
    assert!(
        (pps / NOMINAL_PPS - 1.0).abs() < RATE_TOLERANCE,
        "{what}: the JACK server's clock paces the sender: {pps:.2} packets/s"
    );
    let report = lines
        .iter()
        .rev()
        .find(|l| l.contains(" overruns "))
        .expect("a -v line");
    assert!(
        report.contains(", 0 overruns (0 frames lost)"),
        "{what}: the sender kept up: {report}"
    );
}

#[test]
fn alsa_and_jack_capture_send_at_the_jack_servers_rate_and_another_rate_is_refused() {
    let test = "alsa_and_jack_capture_send_at_the_jack_servers_rate_and_another_rate_is_refused";
    if !can_run_jack(test) {
        return;
    }
    let _serial = serial();
    let jackd = Jackd::start("send", 48_000);
    let home = home("jack");

    let (lines, packets) = send_for(&home, &jackd.name, &["-i", "alsa", "-d", "jack"]);
    let line = start_line(&lines);
    assert!(
        line.starts_with("send: capturing from the ALSA device jack, sending RTP L16"),
        "{line}"
    );
    assert_nominal("ALSA's jack PCM", &lines, &packets);

    let (lines, packets) = send_for(&home, &jackd.name, &["-i", "jack", "-n", "TribSend"]);
    let line = start_line(&lines);
    assert!(
        line.starts_with("send: capturing from the JACK server as TribSend_in, sending"),
        "{line}"
    );
    assert_nominal("JACK", &lines, &packets);

    let (status, text) = run_to_exit(device_sender(
        &home,
        &jackd.name,
        &["-h", "127.0.0.1", "-i", "jack", "-r", "44100"],
    ));
    assert_eq!(status.code(), Some(1), "{text}");
    assert!(
        text.contains("the JACK server as Tributary sender_in does not record 44100 Hz 2 ch")
            && text.contains("(it records 48000 Hz)")
            && text.contains("start jackd at -r 44100"),
        "{text}"
    );
}

#[test]
fn without_a_jack_server_it_asks_whether_jackd_is_running() {
    let home = home("no-jack");
    let server = format!("trib-none-{}", std::process::id());
    let (status, text) = run_to_exit(device_sender(
        &home,
        &server,
        &["-h", "127.0.0.1", "-i", "jack"],
    ));
    assert_eq!(status.code(), Some(1), "{text}");
    assert!(
        text.contains(&format!(
            "tributary send: cannot connect to a JACK server ({server}): is jackd running (for \
             this user)?"
        )),
        "{text}"
    );
}

#[test]
fn an_alsa_device_that_does_not_exist_is_named_with_exit_1() {
    let home = home("missing");
    let (status, text) = run_to_exit(device_sender(
        &home,
        "trib-no-jack",
        &["-h", "127.0.0.1", "-i", "alsa", "-d", "nosuchcard"],
    ));
    assert_eq!(status.code(), Some(1), "{text}");
    assert!(
        text.contains(
            "tributary send: no ALSA capture device nosuchcard that can be opened now (it does \
             not exist, or another program holds it; of a card's devices only the first \
             opens, as hw:N,0 or the card's name): the capture devices here are"
        ),
        "{text}"
    );
}
