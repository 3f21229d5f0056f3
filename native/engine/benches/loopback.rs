//! End-to-end benchmark on loopback: N Scream senders -> engine -> M Scream sinks.
//!
//! `cargo bench -p tributary-engine --bench loopback -- [--sources 32] [--sinks 16]
//! [--per-sink 4] [--seconds 20] [--eq distinct|same|flat] [--latency-seconds N] [--json]
//! [--report-only]` (`--seconds 600` is the 10-minute soak; `--per-sink 32` puts every source on
//! every sink). A run that misses one of `TARGETS` exits 1, unless `--report-only`; `--json`
//! lists them with the figures (scripts/bench/bench-engine.mjs judges by them).
//!
//! Topology: source `i` (sender address 127.0.0.(10+i)) plays on the sinks whose window of
//! `per-sink` consecutive sources covers it (`BenchArgs::sources_of`, `tests/common/topology.rs`),
//! so every sink mixes `per-sink` sources; every path has volume 0.8 and a non-flat 18-band EQ, by
//! default a different curve per path (`--eq same`: one curve for all); all streams are 48 kHz
//! stereo 16-bit, the sinks too (no resampling beyond drift correction). Reports:
//! - added latency: from sending the input packet that carries a marker to receiving the
//!   output packet that carries it (phase 1: one source, one sink, the default low-latency
//!   buffer), p50/p99; `--latency-seconds 0` skips it;
//! - send-cadence jitter: |interval - nominal| of every sink's packets, p99 (phase 2, full load),
//!   from the kernel's arrival stamps (`tests/common/arrival.rs`), and as the receiving threads
//!   saw it;
//! - engine CPU (its own threads' CPU time) as % of one core, and per path;
//! - underruns and sender queue overflows.

#[path = "../tests/common/args.rs"]
mod args;
#[path = "../tests/common/arrival.rs"]
mod arrival;
#[path = "../tests/common/targets.rs"]
mod targets;
#[path = "../tests/common/topology.rs"]
mod topology;

use args::BenchArgs as Args;
use arrival::{cadence_jitter_ms, recv_stamped, stamp_arrivals};
use std::net::{IpAddr, Ipv4Addr, SocketAddr, UdpSocket};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};
use topology::{path, sink};
use tributary_engine::limits::EQ_BANDS;
use tributary_engine::wire::scream::{self, ScreamFormat};
use tributary_engine::{DesiredState, Engine, EngineOptions};

const LOCAL: IpAddr = IpAddr::V4(Ipv4Addr::LOCALHOST);
const FRAMES: usize = scream::PAYLOAD_LEN / 4;
const PERIOD: Duration = Duration::from_micros(6000);
/// What the engine must do here.
const TARGETS: [targets::Target; 5] = [
    ("latency_ms_p99", "<=", 25.0),
    ("cadence_jitter_ms_p99", "<=", 1.0),
    ("cpu_percent_of_one_core", "<", 50.0),
    ("underruns", "==", 0.0),
    ("queue_overflows", "==", 0.0),
];

fn source_ip(i: usize) -> IpAddr {
    IpAddr::V4(Ipv4Addr::new(
        127,
        0,
        (10 + i / 200) as u8,
        (10 + i % 200) as u8,
    ))
}

/// An engine listening for Scream on an ephemeral loopback port.
fn start_engine() -> Engine {
    Engine::start(EngineOptions {
        bind: LOCAL,
        scream_ports: vec![0],
        tagged_port: None,
        rtp_ports: vec![],
        ..EngineOptions::default()
    })
    .expect("engine")
}

fn percentile(v: &mut [f64], p: f64) -> f64 {
    if v.is_empty() {
        return f64::NAN;
    }
    v.sort_by(f64::total_cmp);
    v[((v.len() - 1) as f64 * p).round() as usize]
}

/// A Scream packet: a quiet tone, or (marker) a full-scale first frame.
fn packet(k: u64, marker: bool, out: &mut [u8; 1200]) -> usize {
    let mut payload = [0u8; scream::PAYLOAD_LEN];
    for i in 0..FRAMES {
        let n = k * FRAMES as u64 + i as u64;
        let v = if marker && i == 0 {
            30_000
        } else {
            (0.01 * (n as f64 * 0.05).sin() * 32767.0) as i16
        };
        payload[i * 4..i * 4 + 2].copy_from_slice(&v.to_le_bytes());
        payload[i * 4 + 2..i * 4 + 4].copy_from_slice(&v.to_le_bytes());
    }
    let f = ScreamFormat {
        sample_rate: 48_000,
        bit_depth: 16,
        channels: 2,
        channel_mask: 3,
    };
    scream::build(&f, &payload, out).unwrap_or(0)
}

/// Phase 1: one source to one sink with markers every 100 ms; returns latencies in ms.
fn latency_phase(seconds: f64) -> Vec<f64> {
    let mut engine = start_engine();
    let rx = UdpSocket::bind((LOCAL, 0)).unwrap();
    let port = rx.local_addr().unwrap().port();
    let mut p = path(0, Some(LOCAL), [1.0; EQ_BANDS]);
    p.volume = 1.0;
    engine
        .apply(DesiredState {
            sinks: vec![sink(0, Some(LOCAL), port, vec![p])],
        })
        .unwrap();
    let to = SocketAddr::new(LOCAL, engine.ports().scream[0]);
    let sent: Arc<Mutex<Vec<Instant>>> = Arc::default();
    let done = Arc::new(AtomicBool::new(false));
    let sender = {
        let (sent, done) = (sent.clone(), done.clone());
        std::thread::spawn(move || {
            tributary_engine::runtime::scheduling::raise_current_thread(30);
            let s = UdpSocket::bind((LOCAL, 0)).unwrap();
            let start = Instant::now();
            let mut buf = [0u8; 1200];
            let mut k = 0u64;
            while start.elapsed().as_secs_f64() < seconds {
                // A marker every 17 packets (~100 ms), after a 1 s warm-up.
                let marker = k > 170 && k.is_multiple_of(17);
                let n = packet(k, marker, &mut buf);
                let at = Instant::now();
                let _ = s.send_to(&buf[..n], to);
                if marker {
                    sent.lock().unwrap().push(at);
                }
                k += 1;
                std::thread::sleep(
                    (start + PERIOD * k as u32).saturating_duration_since(Instant::now()),
                );
            }
            done.store(true, Ordering::Relaxed);
        })
    };
    tributary_engine::runtime::scheduling::raise_current_thread(30);
    rx.set_read_timeout(Some(Duration::from_millis(100)))
        .unwrap();
    let mut got = Vec::new();
    let mut buf = [0u8; 2048];
    let mut last_marker: Option<Instant> = None;
    while !done.load(Ordering::Relaxed) {
        if let Ok((n, _)) = rx.recv_from(&mut buf) {
            let at = Instant::now();
            let loud = buf[5..n]
                .chunks_exact(4)
                .any(|f| i16::from_le_bytes([f[0], f[1]]).abs() > 10_000);
            // One marker spreads over a few frames (interpolation): count it once.
            if loud && last_marker.is_none_or(|t| at - t > Duration::from_millis(50)) {
                got.push(at);
                last_marker = Some(at);
            }
        }
    }
    sender.join().unwrap();
    engine.stop();
    let sent = sent.lock().unwrap();
    // Pair each received marker with the latest marker sent before it.
    got.iter()
        .filter_map(|&g| {
            sent.iter()
                .rev()
                .find(|&&s| s <= g)
                .map(|&s| (g - s).as_secs_f64() * 1000.0)
        })
        .collect()
}

struct LoadResult {
    /// From the kernel's arrival stamps: the engine's send cadence.
    cadence_jitter_ms: Vec<f64>,
    /// From when the receiving threads got each packet (adds their own scheduling delays).
    received_jitter_ms: Vec<f64>,
    cpu_percent: f64,
    paths: usize,
    underruns: u64,
    sender_stalls: u64,
    /// The engine's largest lateness against a sink deadline, ms.
    max_late_ms: f64,
    overflows: u64,
    packets_out: u64,
}

/// Phase 2: the full topology; returns cadence jitter samples and CPU.
fn load_phase(a: &Args) -> LoadResult {
    let mut engine = start_engine();
    let receivers: Vec<UdpSocket> = (0..a.sinks)
        .map(|_| UdpSocket::bind((LOCAL, 0)).unwrap())
        .collect();
    let mut sinks = Vec::new();
    for (j, r) in receivers.iter().enumerate() {
        let ps = a
            .sources_of(j)
            .map(|i| path(i, Some(source_ip(i)), a.eq_for(i, j)))
            .collect();
        sinks.push(sink(j, Some(LOCAL), r.local_addr().unwrap().port(), ps));
    }
    engine.apply(DesiredState { sinks }).unwrap();
    let to = SocketAddr::new(LOCAL, engine.ports().scream[0]);
    let done = Arc::new(AtomicBool::new(false));
    let sources = a.sources;
    let seconds = a.seconds;
    // How often the senders themselves ran late by more than the 20 ms jitter buffer (then the
    // engine rightly runs dry: that is the senders' glitch, not the engine's).
    let sender_stalls = Arc::new(AtomicU64::new(0));
    let sender = {
        let done = done.clone();
        let stalls = sender_stalls.clone();
        std::thread::spawn(move || {
            tributary_engine::runtime::scheduling::raise_current_thread(30);
            let sockets: Vec<UdpSocket> = (0..sources)
                .map(|i| UdpSocket::bind((source_ip(i), 0)).expect("127.0.x.y"))
                .collect();
            let start = Instant::now();
            let mut buf = [0u8; 1200];
            let mut k = 0u64;
            while start.elapsed().as_secs_f64() < seconds + 1.0 {
                if Instant::now().saturating_duration_since(start + PERIOD * k as u32)
                    > Duration::from_millis(18)
                {
                    stalls.fetch_add(1, Ordering::Relaxed);
                }
                let n = packet(k, false, &mut buf);
                for s in &sockets {
                    let _ = s.send_to(&buf[..n], to);
                }
                k += 1;
                std::thread::sleep(
                    (start + PERIOD * k as u32).saturating_duration_since(Instant::now()),
                );
            }
            done.store(true, Ordering::Relaxed);
        })
    };
    let collectors: Vec<_> = receivers
        .into_iter()
        .map(|r| {
            let done = done.clone();
            std::thread::spawn(move || {
                tributary_engine::runtime::scheduling::raise_current_thread(20);
                r.set_read_timeout(Some(Duration::from_millis(100)))
                    .unwrap();
                stamp_arrivals(&r).expect("SO_TIMESTAMPNS");
                let mut buf = [0u8; 2048];
                let mut times = Vec::new();
                while !done.load(Ordering::Relaxed) {
                    if let Ok((_, kernel)) = recv_stamped(&r, &mut buf) {
                        times.push((Instant::now(), kernel));
                    }
                }
                times
            })
        })
        .collect();
    // Let buffers settle, then measure.
    std::thread::sleep(Duration::from_secs(1));
    let before = engine.stats();
    let (cpu0, underruns0) = (
        before.cpu_s,
        before.sinks.iter().map(|s| s.underruns).sum::<u64>(),
    );
    let stalls0 = sender_stalls.load(Ordering::Relaxed);
    let t0 = Instant::now();
    sender.join().unwrap();
    let elapsed = t0.elapsed().as_secs_f64();
    let stats = engine.stats();
    engine.stop();
    let (mut jitter, mut received) = (Vec::new(), Vec::new());
    let mut packets_out = 0;
    let nominal = Some(PERIOD.as_secs_f64());
    for c in collectors {
        let times: Vec<(Instant, f64)> = c
            .join()
            .unwrap()
            .into_iter()
            .filter(|t| t.0 >= t0)
            .collect();
        packets_out += times.len() as u64;
        let kernel: Vec<f64> = times.iter().map(|t| t.1).collect();
        jitter.extend(cadence_jitter_ms(&kernel, nominal));
        let thread: Vec<f64> = times.iter().map(|t| (t.0 - t0).as_secs_f64()).collect();
        received.extend(cadence_jitter_ms(&thread, nominal));
    }
    LoadResult {
        cadence_jitter_ms: jitter,
        received_jitter_ms: received,
        cpu_percent: (stats.cpu_s - cpu0) / elapsed * 100.0,
        paths: a.paths(),
        underruns: stats.sinks.iter().map(|s| s.underruns).sum::<u64>() - underruns0,
        sender_stalls: sender_stalls.load(Ordering::Relaxed) - stalls0,
        max_late_ms: stats
            .sinks
            .iter()
            .map(|s| s.max_late_ms)
            .fold(0.0, f64::max),
        overflows: stats.queue_overflows,
        packets_out,
    }
}

/// The reference sender: a GStreamer live L16 RTP pipeline (6 ms packets, normal priority) to
/// a kernel-stamped socket for `seconds`. Prints its cadence jitter as JSON: p99 of
/// |interval - median| from the kernel stamps and as this thread saw the packets.
fn gst_reference(seconds: f64) {
    let rx = UdpSocket::bind((LOCAL, 0)).unwrap();
    stamp_arrivals(&rx).expect("SO_TIMESTAMPNS");
    rx.set_read_timeout(Some(Duration::from_millis(200)))
        .unwrap();
    let port = rx.local_addr().unwrap().port();
    let buffers = (seconds * 1000.0 / 6.0).round() as u64;
    let child = std::process::Command::new("gst-launch-1.0")
        .args([
            "-q",
            "audiotestsrc",
            "is-live=true",
            &format!("num-buffers={buffers}"),
            "samplesperbuffer=288",
            "!",
            "audio/x-raw,rate=48000,channels=2,format=S16BE",
            "!",
            "rtpL16pay",
            "min-ptime=6000000",
            "max-ptime=6000000",
            "!",
            "udpsink",
            "host=127.0.0.1",
            &format!("port={port}"),
        ])
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn();
    let Ok(mut child) = child else {
        println!("{{\"reference_p99_ms\":null,\"reference_received_p99_ms\":null,\"packets\":0}}");
        return;
    };
    let t0 = Instant::now();
    let mut times = Vec::new();
    let mut buf = [0u8; 2048];
    loop {
        match recv_stamped(&rx, &mut buf) {
            Ok((_, kernel)) => times.push(((Instant::now() - t0).as_secs_f64(), kernel)),
            Err(_) if child.try_wait().ok().flatten().is_some() => break,
            Err(_) => {}
        }
    }
    // The first packets leave while the pipeline starts: skip them.
    let times = times.get(2..).unwrap_or_default();
    let kernel: Vec<f64> = times.iter().map(|t| t.1).collect();
    let thread: Vec<f64> = times.iter().map(|t| t.0).collect();
    let mut k = cadence_jitter_ms(&kernel, None);
    let mut r = cadence_jitter_ms(&thread, None);
    let (k99, r99) = (percentile(&mut k, 0.99), percentile(&mut r, 0.99));
    let ok = times.len() >= 10;
    let ms = |v: f64| if ok { format!("{v:.3}") } else { "null".into() };
    println!(
        "{{\"reference_p99_ms\":{},\"reference_received_p99_ms\":{},\"packets\":{}}}",
        ms(k99),
        ms(r99),
        times.len()
    );
}

fn main() {
    let a = args::parse(20.0);
    if a.gst_reference > 0.0 {
        gst_reference(a.gst_reference);
        return;
    }
    let latency_seconds = a
        .latency_seconds
        .unwrap_or((a.seconds / 2.0).clamp(4.0, 30.0));
    let mut lat = if latency_seconds > 0.0 {
        latency_phase(latency_seconds)
    } else {
        Vec::new()
    };
    let mut load = load_phase(&a);
    let (l50, l99) = (percentile(&mut lat, 0.5), percentile(&mut lat, 0.99));
    let j99 = percentile(&mut load.cadence_jitter_ms, 0.99);
    let r99 = percentile(&mut load.received_jitter_ms, 0.99);
    let per_path = load.cpu_percent / load.paths as f64;
    let missed = targets::missed(
        &TARGETS,
        &[
            l99,
            j99,
            load.cpu_percent,
            load.underruns as f64,
            load.overflows as f64,
        ],
    );
    if a.json {
        let ms = |v: f64| {
            if v.is_finite() {
                format!("{v:.2}")
            } else {
                "null".into()
            }
        };
        println!(
            "{{\"sources\":{},\"sinks\":{},\"paths\":{},\"eq\":\"{}\",\"seconds\":{},\"latency_ms_p50\":{},\"latency_ms_p99\":{},\"latency_samples\":{},\"cadence_jitter_ms_p99\":{j99:.3},\"received_jitter_ms_p99\":{r99:.3},\"cpu_percent_of_one_core\":{:.1},\"cpu_percent_per_path\":{per_path:.3},\"underruns\":{},\"sender_stalls\":{},\"engine_max_late_ms\":{:.2},\"queue_overflows\":{},\"packets_out\":{},\"targets\":[{}]}}",
            a.sources, a.sinks, load.paths, a.eq.name(), a.seconds, ms(l50), ms(l99), lat.len(), load.cpu_percent, load.underruns, load.sender_stalls, load.max_late_ms, load.overflows, load.packets_out,
            targets::json(&TARGETS)
        );
        return targets::finish(&missed, a.report_only);
    }
    println!("engine end-to-end on loopback (48 kHz stereo s16 Scream in and out)");
    if !lat.is_empty() {
        println!("  latency (1 source -> 1 sink, default low-latency buffer, {} markers): p50 {l50:.1} ms, p99 {l99:.1} ms (target p99 <= 25 ms)", lat.len());
    }
    println!(
        "  load: {} sources x {} sinks, {} paths ({} sources mixed per sink), 18-band EQ ({}) on every path, {:.0} s",
        a.sources, a.sinks, load.paths, a.per_sink, a.eq.name(), a.seconds
    );
    println!(
        "  send-cadence jitter p99: {j99:.3} ms over {} packets, kernel arrival stamps (target <= 1 ms); {r99:.3} ms as the receiving threads saw it",
        load.packets_out
    );
    println!(
        "  engine CPU: {:.1} % of one core ({per_path:.3} % per path; target < 50 %)",
        load.cpu_percent
    );
    println!(
        "  underruns: {}, receive-queue overflows: {}, engine late by at most {:.1} ms",
        load.underruns, load.overflows, load.max_late_ms
    );
    targets::finish(&missed, a.report_only);
}
