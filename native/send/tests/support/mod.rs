//! The sender's test harness: a PulseAudio of the test's own (the engine tests' `pulse.rs`) with
//! the receiver tests' null sink, `pacat` playing a 1 kHz tone into it, the sender program
//! capturing its monitor, and a UDP socket on 127.0.0.1 collecting what it sends with arrival
//! times (the kernel's: the engine tests' `arrival.rs`). What the tone must hold is the receiver
//! tests' `kit.rs` (level, frequency, no gap or jump), on top of the engine tests' kit.
#![allow(dead_code)]

#[path = "../../../engine/tests/common/arrival.rs"]
pub mod arrival;
#[path = "../../../engine/tests/common/mod.rs"]
pub mod common;
#[path = "../../../engine/tests/common/hearing.rs"]
pub mod hearing;
#[path = "../../../receive/tests/support/kit.rs"]
pub mod kit;
#[path = "../../../engine/tests/common/pulse.rs"]
pub mod pulse;

use arrival::{recv_stamped, stamp_arrivals};
pub use kit::*;
use pulse::Pulse;
use std::io::Write;
use std::net::UdpSocket;
use std::process::{Child, Command, Stdio};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// The sender program, without SAP announcements (these tests run on the machine's network;
/// SAP is tested in a namespace, daemon/test/discovery/netns-sender-sap.test.ts).
pub fn sender(server: &str, args: &[&str]) -> Child {
    Command::new(env!("CARGO_BIN_EXE_tributary-send"))
        .arg("--no-sap")
        .args(args)
        .env("PULSE_SERVER", server)
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the sender runs")
}

/// `pacat` playing `seconds` of a 1 kHz tone at [`AMPLITUDE`] on both channels into the null
/// sink (48 kHz float, its own format), fed from a thread; the sound server paces it. 100 ms of
/// buffer: with 20 ms, once in six runs on the loaded test machine it ran dry and the tone had
/// a gap that the sender (every packet there, numbered without a hole) had not made.
pub fn play_tone(pulse: &Pulse, seconds: f64) -> Child {
    let mut child = Command::new("chrt")
        .args(["-f", "10", "pacat", "--server", &pulse.server()])
        .args([
            "-d",
            "out",
            "--raw",
            "--format=float32le",
            "--rate=48000",
            "--channels=2",
        ])
        .arg("--latency-msec=100")
        .stdin(Stdio::piped())
        .stdout(Stdio::null())
        .spawn()
        .expect("pacat runs");
    let mut stdin = child.stdin.take().unwrap();
    std::thread::spawn(move || {
        let frames = (seconds * RATE) as usize;
        let mut bytes = Vec::with_capacity(frames * 8);
        for k in 0..frames {
            let s =
                (AMPLITUDE * (2.0 * std::f64::consts::PI * TONE * k as f64 / RATE).sin()) as f32;
            bytes.extend_from_slice(&s.to_le_bytes());
            bytes.extend_from_slice(&s.to_le_bytes());
        }
        let _ = stdin.write_all(&bytes);
    });
    child
}

/// What arrived on a socket: each datagram and when the kernel received it, seconds
/// (`SO_TIMESTAMPNS`, the engine tests' `arrival.rs`: the collecting thread's own scheduling does
/// not show up as bursts or gaps).
pub type Arrivals = Arc<Mutex<Vec<(f64, Vec<u8>)>>>;

/// Collects every datagram to `socket` on a thread until `until`.
pub fn collect(socket: UdpSocket, until: Instant) -> (Arrivals, std::thread::JoinHandle<()>) {
    let got: Arrivals = Arc::default();
    let into = got.clone();
    socket
        .set_read_timeout(Some(Duration::from_millis(20)))
        .unwrap();
    stamp_arrivals(&socket).expect("SO_TIMESTAMPNS");
    let thread = std::thread::spawn(move || {
        let mut buf = [0u8; 2048];
        while Instant::now() < until {
            if let Ok((n, at)) = recv_stamped(&socket, &mut buf) {
                into.lock().unwrap().push((at, buf[..n].to_vec()));
            }
        }
    });
    (got, thread)
}

/// The gaps between arrivals (seconds), ms.
pub fn gaps_ms(times: &[f64]) -> Vec<f64> {
    times.windows(2).map(|w| (w[1] - w[0]) * 1000.0).collect()
}

pub fn percentile(sorted: &[f64], q: f64) -> f64 {
    sorted[((sorted.len() - 1) as f64 * q).round() as usize]
}

/// 16-bit samples of channel 0 of interleaved stereo PCM, as -1..1.
pub fn left_of(pcm: &[u8], big_endian: bool) -> impl Iterator<Item = f64> + '_ {
    pcm.chunks_exact(4).map(move |f| {
        let s = if big_endian {
            i16::from_be_bytes([f[0], f[1]])
        } else {
            i16::from_le_bytes([f[0], f[1]])
        };
        f64::from(s) / 32768.0
    })
}
