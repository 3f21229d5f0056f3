//! The receiver's test harness: a PulseAudio of a test's own with a null sink in the
//! receiver's format, `parec` of its monitor, the receiver program with its stderr collected,
//! a paced Scream sender, and (in `kit.rs`, shared with `tributary send`'s tests) what a
//! recording of a tone must hold. Shared by the tests in this folder (`mod support;`), on top
//! of the engine tests' kit (`common`, `hearing`, `pulse`).
#![allow(dead_code)]

#[path = "../../../engine/tests/common/mod.rs"]
pub mod common;
#[path = "../../../engine/tests/common/hearing.rs"]
pub mod hearing;
pub mod jackd;
pub mod kit;
#[path = "../../../engine/tests/common/pulse.rs"]
pub mod pulse;

use common::{free_udp_port, send_scream_from};
pub use kit::*;
use pulse::Pulse;
use std::io::Read;
use std::net::SocketAddr;
use std::process::{Child, Command, Stdio};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// The receiver program, not advertised over mDNS (these tests run on the machine's network;
/// advertising is tested in a namespace, daemon/test/discovery/netns-receiver.test.ts).
pub fn receiver(server: &str, args: &[&str]) -> Child {
    Command::new(env!("CARGO_BIN_EXE_tributary-receive"))
        .arg("--no-advertise")
        .args(args)
        .env("PULSE_SERVER", server)
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the receiver runs")
}

/// `parec` of the null sink's monitor: the left channel, and when each read arrived (frames
/// recorded so far by then).
pub struct Recording {
    child: Child,
    samples: Arc<Mutex<Vec<f64>>>,
    pub arrivals: Arc<Mutex<Vec<(Instant, usize)>>>,
}

impl Recording {
    pub fn start(pulse: &Pulse) -> Self {
        let mut child = Command::new("chrt")
            .args(["-f", "10", "parec", "--server", &pulse.server()])
            .args(["-d", "out.monitor", "--raw"])
            .args(["--format=float32le", "--rate=48000", "--channels=2"])
            .arg("--latency-msec=10")
            .stdout(Stdio::piped())
            .spawn()
            .expect("parec runs");
        let mut out = child.stdout.take().unwrap();
        let samples = Arc::new(Mutex::new(Vec::new()));
        let arrivals = Arc::new(Mutex::new(Vec::new()));
        let (s, a) = (samples.clone(), arrivals.clone());
        std::thread::spawn(move || {
            let mut buf = vec![0u8; 8 * 480];
            let mut pending = Vec::new();
            while let Ok(n) = out.read(&mut buf) {
                if n == 0 {
                    break;
                }
                pending.extend_from_slice(&buf[..n]);
                let whole = pending.len() / 8 * 8;
                let mut s = s.lock().unwrap();
                for frame in pending[..whole].chunks_exact(8) {
                    s.push(f64::from(f32::from_le_bytes(
                        frame[..4].try_into().unwrap(),
                    )));
                }
                a.lock().unwrap().push((Instant::now(), s.len()));
                pending.drain(..whole);
            }
        });
        // Recording from the start: the monitor delivers (silence) before anything plays.
        let until = Instant::now() + Duration::from_secs(5);
        while arrivals.lock().unwrap().is_empty() {
            assert!(Instant::now() < until, "parec records nothing");
            std::thread::sleep(Duration::from_millis(10));
        }
        Recording {
            child,
            samples,
            arrivals,
        }
    }

    pub fn stop(&mut self) -> Vec<f64> {
        let _ = self.child.kill();
        let _ = self.child.wait();
        std::thread::sleep(Duration::from_millis(100));
        self.samples.lock().unwrap().clone()
    }
}

/// When frame `k` had reached the recorder.
pub fn arrival_of(arrivals: &Mutex<Vec<(Instant, usize)>>, k: usize) -> Instant {
    let a = arrivals.lock().unwrap();
    a.iter().find(|(_, n)| *n > k).map(|(t, _)| *t).unwrap()
}

/// A paced Scream tone from 127.0.0.1 for `seconds` to 127.0.0.1:`port`, on a thread.
pub fn send(port: u16, seconds: f64) -> std::thread::JoinHandle<()> {
    send_to(SocketAddr::new(LOCALHOST, port), seconds)
}

/// The same to `to` (a multicast group).
pub fn send_to(to: SocketAddr, seconds: f64) -> std::thread::JoinHandle<()> {
    std::thread::spawn(move || {
        send_scream_from(LOCALHOST, to, seconds, 3, &[(TONE, AMPLITUDE); 2]);
    })
}

/// A receiver playing into a PulseAudio of its own, recorded from the start.
pub struct Session {
    rx: Child,
    lines: Arc<Mutex<Vec<String>>>,
    pub recording: Recording,
    pub port: u16,
    pub pulse: Pulse,
}

impl Session {
    /// PulseAudio `name` with the null sink, `parec`, and the receiver with `-p PORT -s out -v`
    /// and `args`, given half a second to start.
    pub fn start(name: &str, args: &[&str]) -> Session {
        let pulse = Pulse::start(name, NULL_SINK);
        realtime(&pulse);
        let port = free_udp_port();
        let recording = Recording::start(&pulse);
        let port_text = port.to_string();
        let mut all = vec!["-p", &port_text, "-s", "out", "-v"];
        all.extend_from_slice(args);
        let mut rx = receiver(&pulse.server(), &all);
        let lines = lines_of(&mut rx);
        std::thread::sleep(Duration::from_millis(500));
        Session {
            rx,
            lines,
            recording,
            port,
            pulse,
        }
    }

    /// SIGTERM: the receiver must exit 0 within 3 s; the recording and the receiver's lines.
    pub fn stop(&mut self) -> (Vec<f64>, Vec<String>) {
        // SAFETY: a signal to our own child.
        unsafe { libc::kill(self.rx.id() as i32, libc::SIGTERM) };
        let status = wait_exit(&mut self.rx, Duration::from_secs(3));
        let x = self.recording.stop();
        std::thread::sleep(Duration::from_millis(100));
        let lines = self.lines.lock().unwrap().clone();
        eprintln!("{}", lines.join("\n"));
        assert!(status.success(), "SIGTERM: a clean exit, not {status}");
        assert_eq!(lines.last().map(String::as_str), Some("receive: stopped"));
        (x, lines)
    }
}
