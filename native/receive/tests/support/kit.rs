//! The Linux endpoints' test kit, shared by `tributary receive`'s tests (`support/mod.rs`) and
//! `tributary send`'s (`native/send/tests/support`, by `#[path]`): the tone and the null sink
//! both use, a program's stderr lines and exit, what a recording of the tone must hold, and a
//! PulseAudio given real-time priority. Needs the engine tests' kit as the siblings `common`,
//! `hearing` and `pulse`.
#![allow(dead_code)]

use super::common::{have_tool, skip_for_environment};
use super::hearing::{hear, jumps, precise_frequency};
use super::pulse::Pulse;
use std::io::{BufRead, BufReader};
use std::net::{IpAddr, Ipv4Addr};
use std::process::{Child, Command};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

pub const RATE: f64 = 48_000.0;
pub const TONE: f64 = 1000.0;
/// The sent amplitude (-6.02 dBFS).
pub const AMPLITUDE: f64 = 0.5;
/// ffmpeg's sine source plays at 1/8 of full scale (-18.06 dBFS).
pub const FFMPEG_AMPLITUDE: f64 = 0.125;
/// The null sink: the receiver's own format, so nothing converts.
pub const NULL_SINK: &str =
    "load-module module-null-sink sink_name=out format=float32le rate=48000 channels=2";
pub const LOCALHOST: IpAddr = IpAddr::V4(Ipv4Addr::LOCALHOST);

/// A program's stderr lines, collected on a thread.
pub fn lines_of(child: &mut Child) -> Arc<Mutex<Vec<String>>> {
    let lines = Arc::new(Mutex::new(Vec::new()));
    let stderr = child.stderr.take().unwrap();
    let into = lines.clone();
    std::thread::spawn(move || {
        for line in BufReader::new(stderr).lines().map_while(Result::ok) {
            into.lock().unwrap().push(line);
        }
    });
    lines
}

pub fn wait_exit(child: &mut Child, within: Duration) -> std::process::ExitStatus {
    let until = Instant::now() + within;
    loop {
        if let Some(status) = child.try_wait().unwrap() {
            return status;
        }
        if Instant::now() > until {
            let _ = child.kill();
            panic!("the program did not exit within {within:?}");
        }
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// Runs a program that must end by itself within 5 s (an error): its exit status and its
/// stderr, which is also printed.
pub fn run_to_exit(mut child: Child) -> (std::process::ExitStatus, String) {
    let lines = lines_of(&mut child);
    let status = wait_exit(&mut child, Duration::from_secs(5));
    std::thread::sleep(Duration::from_millis(100));
    let text = lines.lock().unwrap().join("\n");
    eprintln!("{text}");
    (status, text)
}

pub fn db(x: f64) -> f64 {
    20.0 * x.log10()
}

/// Amplitude (RMS x sqrt 2), frequency, gaps and jumps of one stretch of the tone.
pub fn measure(name: &str, x: &[f64], sent: f64) -> (f64, f64) {
    let amplitude = (x.iter().map(|s| s * s).sum::<f64>() / x.len() as f64).sqrt() * 2f64.sqrt();
    let freq = precise_frequency(x, RATE).expect("a tone");
    let heard = hear(x, RATE, TONE, 0.0);
    assert!(heard.gaps.is_empty(), "{name}: gaps {:?}", heard.gaps);
    let jumps = jumps(x, RATE, TONE);
    assert!(jumps.is_empty(), "{name}: the tone jumps at {jumps:?}");
    eprintln!(
        "{name}: {:.2} s, amplitude {amplitude:.4} ({:+.3} dB against the sent), {freq:.4} Hz",
        x.len() as f64 / RATE,
        db(amplitude / sent)
    );
    assert!(
        (db(amplitude / sent)).abs() < 0.5,
        "{name}: level {:.3} dB off",
        db(amplitude / sent)
    );
    assert!((freq - TONE).abs() < 0.5, "{name}: {freq} Hz, not 1 kHz");
    (amplitude, freq)
}

/// Where the tone sounds: runs of sound (|x| > 0.01) separated by over 0.5 s of quiet.
pub fn stretches(x: &[f64]) -> Vec<(usize, usize)> {
    let mut out: Vec<(usize, usize)> = Vec::new();
    for (i, s) in x.iter().enumerate() {
        if s.abs() > 0.01 {
            match out.last_mut() {
                Some(last) if i - last.1 < RATE as usize / 2 => last.1 = i,
                _ => out.push((i, i)),
            }
        }
    }
    out
}

/// Gives every thread of the test's PulseAudio real-time priority. Its main thread, which
/// moves a client's audio into the sink, runs at normal priority otherwise, and on the shared
/// test machine (load 5-10 on 2 cores) it was starved for 10-135 ms at a time: the recording
/// had gaps the receiver never wrote (checked by logging every silent chunk it wrote: none).
/// The recorder runs at real-time priority too. The receiver's own threads raise themselves.
pub fn realtime(pulse: &Pulse) {
    let pid = std::fs::read_to_string(pulse.dir.join("pulse/pid")).expect("PulseAudio's pid");
    let ok = Command::new("chrt")
        .args(["-a", "-r", "-p", "10", pid.trim()])
        .status()
        .is_ok_and(|s| s.success());
    assert!(ok, "chrt PulseAudio");
}

pub fn can_run(test: &str) -> bool {
    let have = have_tool;
    if !have("pulseaudio") || !have("parec") {
        skip_for_environment(
            test,
            "needs PulseAudio (Debian: pulseaudio, pulseaudio-utils)",
        );
        return false;
    }
    true
}
