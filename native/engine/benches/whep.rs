//! WebRTC listening's added latency (issue 14): from audio entering a sink's WebRTC tap (the
//! sink's mix, after the jitter buffer) to the RTP packet that carries it arriving at a WebRTC
//! listener (str0m, on 127.0.0.1, decoding Opus). A thread plays 10 ms blocks on the wall clock
//! as the engine thread would: silence, and every 200 ms a 10 ms burst of 1 kHz; the listener
//! timestamps the first packet whose decoded audio holds each burst. What is measured: Opus's
//! 20 ms framing (a burst waits for its frame to fill), libopus's lookahead, encoding, the
//! WebRTC thread's wake-up (at most 5 ms), SRTP and the loopback hop. What is not: the jitter
//! buffer before the tap, and the browser's own jitter buffer after the socket.
//!
//! `-- --seconds N` (default 20), `-- --json` prints one JSON line after the figures. Target:
//! p99 <= 40 ms; a run that misses it exits 1, unless `-- --report-only`.

#[path = "../tests/common/args.rs"]
mod args;
#[path = "../tests/common/targets.rs"]
mod targets;
#[path = "../tests/common/whep_peer.rs"]
mod whep_peer;

use std::sync::atomic::Ordering::Relaxed;
use std::sync::atomic::{AtomicBool, AtomicU64};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};
use tributary_codec::OPUS_PROFILES;
use tributary_dsp::AudioBuffer;
use tributary_engine::sink::listen::fold::StereoFold;
use tributary_engine::sink::SinkCounters;
use tributary_engine::{WhepBind, WhepRequest, WhepServer};
use whep_peer::Listener;

const RATE: u32 = 48_000;
const BLOCK: usize = 480;
const BURST_EVERY: u64 = 20;
/// The target for the p99 of the added latency, in ms.
const TARGET_P99_MS: f64 = 40.0;
const TARGETS: [targets::Target; 1] = [("p99_ms", "<=", TARGET_P99_MS)];

fn quantile(sorted: &[f64], q: f64) -> f64 {
    sorted[((sorted.len() - 1) as f64 * q).round() as usize]
}

fn main() {
    let args::BenchArgs {
        json,
        seconds,
        report_only,
        ..
    } = args::parse(20.0);

    let server = WhepServer::default();
    let sink = Arc::new(SinkCounters::default());
    let (mut listener, offer) = Listener::new();
    let req = WhepRequest {
        sink_id: "bench",
        offer_sdp: &offer,
        profile: OPUS_PROFILES[1],
        client: "bench",
        timeout: Duration::from_secs(30),
    };
    let bind = WhepBind {
        addresses: vec!["127.0.0.1".parse().unwrap()],
        port: 0,
    };
    let answer = server
        .offer(sink.clone(), RATE, &req, &bind)
        .unwrap()
        .answer_sdp;
    listener.accept(&answer);

    let bursts = Arc::new(Mutex::new(Vec::<Instant>::new()));
    let stop = Arc::new(AtomicBool::new(false));
    let played = Arc::new(AtomicU64::new(0));
    let player = {
        let (sink, bursts, stop, played) =
            (sink.clone(), bursts.clone(), stop.clone(), played.clone());
        std::thread::spawn(move || {
            let mut buf = AudioBuffer::new(2, BLOCK);
            buf.set_frames(BLOCK);
            let start = Instant::now();
            let mut k = 0u64;
            while !stop.load(Relaxed) {
                let burst = k.is_multiple_of(BURST_EVERY) && k >= 100;
                for i in 0..BLOCK {
                    let t = i as f64 / f64::from(RATE);
                    let v = if burst {
                        (0.5 * (std::f64::consts::TAU * 1000.0 * t).sin()) as f32
                    } else {
                        0.0
                    };
                    buf.channel_mut(0)[i] = v;
                    buf.channel_mut(1)[i] = v;
                }
                if burst {
                    bursts.lock().unwrap().push(Instant::now());
                }
                sink.webrtc.push_audio(&buf, RATE, &StereoFold::default());
                played.fetch_add(1, Relaxed);
                k += 1;
                let due = start + Duration::from_millis(10 * k);
                std::thread::sleep(due.saturating_duration_since(Instant::now()));
            }
        })
    };

    let mut onsets = Vec::new();
    let mut quiet = true;
    listener.listen(Duration::from_secs_f64(seconds + 1.0), |arrival, pcm| {
        let peak = pcm.iter().fold(0.0f32, |m, v| m.max(v.abs()));
        if peak > 0.1 && quiet {
            onsets.push(arrival);
        }
        quiet = peak < 0.02;
        true
    });
    stop.store(true, Relaxed);
    player.join().unwrap();

    let bursts = bursts.lock().unwrap().clone();
    let mut latencies: Vec<f64> = onsets
        .iter()
        .filter_map(|&arrival| {
            let sent = bursts.iter().rev().find(|&&b| b <= arrival)?;
            Some(arrival.duration_since(*sent).as_secs_f64() * 1000.0)
        })
        .collect();
    latencies.sort_by(f64::total_cmp);
    if latencies.is_empty() {
        eprintln!("no burst arrived (the WebRTC connection did not come up)");
        std::process::exit(1);
    }
    let (p50, p99, max) = (
        quantile(&latencies, 0.5),
        quantile(&latencies, 0.99),
        latencies[latencies.len() - 1],
    );
    let (counters, _) = server.counters();
    let thread_ms = counters.max_latency_us.load(Relaxed) as f64 / 1000.0;
    let missed = targets::missed(&TARGETS, &[p99]);
    let met = missed.is_empty();
    println!(
        "WebRTC added latency, tap to RTP at the listener ({} of {} bursts, {seconds} s, Opus \
         balanced, 20 ms frames): p50 {p50:.1} ms, p99 {p99:.1} ms, max {max:.1} ms \
         (target p99 <= {TARGET_P99_MS} ms: {}); WebRTC thread, ring read to packet written: max {thread_ms:.1} ms",
        latencies.len(),
        bursts.len(),
        if met { "met" } else { "NOT met" }
    );
    if json {
        println!(
            "{{\"bursts\":{},\"heard\":{},\"seconds\":{seconds},\"p50_ms\":{p50:.2},\"p99_ms\":{p99:.2},\"max_ms\":{max:.2},\"tap_to_write_max_ms\":{thread_ms:.2},\"target_p99_ms\":{TARGET_P99_MS},\"met\":{met}}}",
            bursts.len(),
            latencies.len()
        );
    }
    targets::finish(&missed, report_only);
}
