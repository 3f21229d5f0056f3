//! The engine's render cost without the network: N sources fed synthetic Scream packets on a
//! simulated clock -> taps (shared drift-corrected readers) -> M sinks of P paths each (EQ and
//! volume per path) -> mix -> encode. The sinks have no destination, so nothing is sent; no
//! thread sleeps. Deterministic, so `valgrind --tool=callgrind` gives repeatable instruction
//! counts; plainly it reports the CPU time per second of audio as % of one core.
//!
//! `cargo bench -p tributary-engine --bench graph -- [--sources 32] [--sinks 16]
//! [--per-sink 4] [--seconds 20] [--eq distinct|same|flat] [--idle N] [--json]`
//!
//! Topology and curves as in the `loopback` bench (`tests/common/topology.rs`). The senders run 100
//! ppm fast, so every reader corrects drift as with real senders. `--idle N` stops the first N
//! sources after 2 s (their paths go quiet) and measures from 4 s on.

#[path = "../tests/common/args.rs"]
mod args;
#[path = "../tests/common/topology.rs"]
mod topology;

use std::net::UdpSocket;
use std::sync::atomic::Ordering::Relaxed;
use std::sync::Arc;
use std::time::{Duration, Instant};
use topology::{path, sink};
use tributary_dsp::{ChannelLayout, SampleFormat};
use tributary_engine::graph::path::Path;
use tributary_engine::graph::tap::{Tap, TapKey};
use tributary_engine::limits::EQ_BANDS;
use tributary_engine::options::JitterConfig;
use tributary_engine::runtime::stats::thread_cpu_ns;
use tributary_engine::sink::Sink;
use tributary_engine::source::slot::SourceSlot;

const FRAMES: usize = 288;
const PPM: f64 = 100.0;

fn main() {
    let a = args::parse(20.0);
    let mut sources: Vec<SourceSlot> = (0..a.sources)
        .map(|i| {
            let spec = path(i, None, [1.0; EQ_BANDS]);
            SourceSlot::new(&spec, 0.0, JitterConfig::default(), Arc::default())
        })
        .collect();
    // One tap per source (every sink runs at 48 kHz, no delays), as the engine's apply makes.
    let mut taps: Vec<Tap> = (0..a.sources)
        .map(|i| {
            let key = TapKey {
                source_id: format!("src{i}"),
                sink_rate: 48_000,
                delay_ms: 0.0,
            };
            let mut tap = Tap::new(key, 48_000, 2);
            tap.source = i;
            tap
        })
        .collect();
    let base = Instant::now();
    let mut sinks: Vec<Sink> = (0..a.sinks)
        .map(|j| {
            let spec = sink(j, None, 4010, Vec::new());
            let mut rt = Sink::new(&spec, base, j as u64).expect("sink");
            for i in a.sources_of(j) {
                let p = path(i, None, a.eq_for(i, j));
                let max_frames = Sink::max_frames_for(&spec);
                let mut path =
                    Path::new(&p, ChannelLayout::STEREO, &spec, max_frames).expect("path");
                path.tap = i;
                rt.paths.push(path);
            }
            rt
        })
        .collect();
    let socket = UdpSocket::bind(("127.0.0.1", 0)).expect("socket");
    // The quiet tone the loopback bench sends.
    let mut payload = vec![0u8; FRAMES * 4];
    let sender_period = FRAMES as f64 / (48_000.0 * (1.0 + PPM * 1e-6));
    let mut packets = 0u64;
    let step = Duration::from_micros(500);
    // Measured after a second of warm-up; with idle sources, once they have gone quiet.
    let warm = if a.idle > 0 { 4.0 } else { 1.0 };
    let end = warm + a.seconds;
    let mut cpu0 = None;
    let mut t = Duration::ZERO;
    while t.as_secs_f64() < end {
        let now_s = t.as_secs_f64();
        if now_s >= warm && cpu0.is_none() {
            cpu0 = Some(thread_cpu_ns());
        }
        while packets as f64 * sender_period <= now_s {
            for (n, frame) in payload.chunks_exact_mut(4).enumerate() {
                let x = (packets as usize * FRAMES + n) as f64 * 0.05;
                let v = ((0.01 * x.sin()) * 32767.0) as i16;
                frame[..2].copy_from_slice(&v.to_le_bytes());
                frame[2..].copy_from_slice(&v.to_le_bytes());
            }
            let arrival = packets as f64 * sender_period;
            for (i, s) in sources.iter_mut().enumerate() {
                if i >= a.idle || arrival < 2.0 {
                    s.buffer.push_scream(&payload, SampleFormat::S16Le, arrival);
                }
            }
            packets += 1;
        }
        let now = base + t;
        for sink in &mut sinks {
            if sink.deadline() <= now {
                sink.tick(&mut sources, &mut taps, now, now_s, &socket);
            }
        }
        t += step;
    }
    let cpu_s = (thread_cpu_ns() - cpu0.unwrap_or(0)) as f64 / 1e9;
    let percent = cpu_s / a.seconds * 100.0;
    let per_path = percent / a.paths() as f64;
    let underruns: u64 = sinks
        .iter()
        .map(|s| s.counters.underruns.load(Relaxed))
        .sum();
    if a.json {
        println!(
            "{{\"sources\":{},\"sinks\":{},\"paths\":{},\"eq\":\"{}\",\"idle\":{},\"seconds\":{},\"cpu_percent_of_one_core\":{percent:.2},\"cpu_percent_per_path\":{per_path:.4},\"underruns\":{underruns}}}",
            a.sources, a.sinks, a.paths(), a.eq.name(), a.idle, a.seconds
        );
        return;
    }
    println!(
        "render only (no network): {} sources x {} sinks, {} paths, EQ {}, {} idle sources, {} s of audio",
        a.sources, a.sinks, a.paths(), a.eq.name(), a.idle, a.seconds
    );
    println!("  {percent:.1} % of one core ({per_path:.4} % per path), underruns {underruns}");
}
