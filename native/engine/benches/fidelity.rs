//! Fidelity against GStreamer (issue 12): one RTP stream (a 1 kHz tone, L16 stereo) from
//! a real sender goes, packet for packet, to Tributary (RTP source -> Scream sink, recorded
//! here) and to GStreamer (`udpsrc ! rtpjitterbuffer ! rtpL16depay ! audioconvert !
//! audioresample ! pulsesink` into a PulseAudio null sink of its own, recorded with `parec`).
//! For each, the pitch error per 0.5 s window after 5 s (p50/p99, ppm, against the sender's own
//! clock as its RTP timestamps and arrivals show it: `tests/common/sender_clock.rs`), the gaps
//! after the first sound (count, ms), and for Tributary the audio it keeps queued (its added
//! latency, mean of the stats each second) and the rate correction it applied (p50/p99 of |ppm|).
//! GStreamer's latency is its configured jitterbuffer latency plus the sink's buffer.
//!
//! Senders (`tests/common/senders.rs`): ffmpeg `-re` (bursts of 21 ms) at 48 kHz and at 44.1 kHz
//! (static payload type 10), GStreamer `audiotestsrc is-live ! rtpL16pay` (paced), PulseAudio's
//! `module-rtp-send` (44.1 kHz, type 10) and a sender of our own injecting 5-20 ms of jitter
//! (held packets released in bursts, `tests/common/bursty.rs`), each idle and under
//! `stress-ng --cpu 2`. Tributary and GStreamer both play at 48 kHz (resampling the 44.1 kHz
//! senders). `-- --seconds N` sets each run's length
//! (default 60; `npm run bench -- fidelity` passes BENCH_FIDELITY_SECONDS, 300 with
//! BENCH_SOAK=1); `-- --only TEXT` runs only the runs whose label (`sender, load`) contains
//! TEXT; `-- --json` prints one JSON line per run.

#[path = "../tests/common/args.rs"]
mod args;
#[path = "../tests/common/bursty.rs"]
mod bursty;
#[path = "../tests/common/hearing.rs"]
mod hearing;
#[path = "../tests/common/pulse.rs"]
mod pulse;
#[path = "../tests/common/rtp_sender.rs"]
mod rtp_sender;
#[path = "../tests/common/sender_clock.rs"]
mod sender_clock;
#[path = "../tests/common/senders.rs"]
mod senders;

use hearing::{hear, quantile_abs};
use pulse::Pulse;
use rtp_sender::free_udp_port;
use senders::{start_sender, wire_format, BURSTY, FFMPEG_44K, FFMPEG_48K, GST, PULSE};
use std::net::{Ipv4Addr, UdpSocket};
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicBool, Ordering::Relaxed};
use std::sync::Arc;
use std::time::{Duration, Instant};
use tributary_dsp::ChannelLayout;
use tributary_engine::wire::rtp::RtpFormat;
use tributary_engine::{
    DesiredState, Engine, EngineOptions, PathSpec, RtpSourceSpec, SinkProtocol, SinkSpec,
};

const LOCAL: Ipv4Addr = Ipv4Addr::LOCALHOST;
const JITTERBUFFER_MS: u32 = 50;

struct Run {
    sender: &'static str,
    load: bool,
}

fn main() {
    let args::BenchArgs {
        json,
        seconds,
        only,
        ..
    } = args::parse(60.0);
    for tool in [
        "ffmpeg",
        "gst-launch-1.0",
        "pulseaudio",
        "parec",
        "stress-ng",
    ] {
        let found = Command::new("sh")
            .args(["-c", &format!("command -v {tool}")])
            .stdout(Stdio::null())
            .status()
            .is_ok_and(|s| s.success());
        if !found {
            eprintln!("the fidelity bench needs {tool} (Debian: ffmpeg, gstreamer1.0-tools, pulseaudio, pulseaudio-utils, stress-ng)");
            std::process::exit(2);
        }
    }
    println!(
        "{seconds:.0} s per run, 1 kHz L16 48 kHz stereo; pitch error per 0.5 s window after 5 s"
    );
    for run in [
        Run {
            sender: FFMPEG_48K,
            load: false,
        },
        Run {
            sender: FFMPEG_48K,
            load: true,
        },
        Run {
            sender: GST,
            load: false,
        },
        Run {
            sender: GST,
            load: true,
        },
        Run {
            sender: BURSTY,
            load: false,
        },
        Run {
            sender: BURSTY,
            load: true,
        },
        Run {
            sender: FFMPEG_44K,
            load: false,
        },
        Run {
            sender: FFMPEG_44K,
            load: true,
        },
        Run {
            sender: PULSE,
            load: false,
        },
        Run {
            sender: PULSE,
            load: true,
        },
    ] {
        if label(&run).contains(only.as_str()) {
            measure(&run, seconds, json);
        }
    }
}

fn measure(run: &Run, seconds: f64, json: bool) {
    // Tributary: RTP source -> Scream sink -> `out`.
    let mut engine = Engine::start(EngineOptions {
        bind: LOCAL.into(),
        scream_ports: vec![0],
        tagged_port: None,
        rtp_ports: vec![],
        ..EngineOptions::default()
    })
    .expect("engine starts");
    let out = UdpSocket::bind((LOCAL, 0)).unwrap();
    let trib_port = free_udp_port();
    let path = PathSpec {
        rtp: Some(RtpSourceSpec {
            listen_ip: None,
            port: trib_port,
            format: RtpFormat::DEFAULT,
            payload_type: None,
        }),
        ..PathSpec::new("sender")
    };
    let sink = SinkSpec {
        ip: Some(LOCAL.into()),
        port: out.local_addr().unwrap().port(),
        paths: vec![path],
        ..SinkSpec::new(
            "out",
            SinkProtocol::Scream,
            48_000,
            16,
            ChannelLayout::STEREO,
        )
    };
    let problems = engine.apply(DesiredState { sinks: vec![sink] }).unwrap();
    assert!(problems.is_empty(), "{problems:?}");

    // GStreamer: its jitter buffer into a PulseAudio null sink, recorded.
    let pa = Pulse::start(
        "fidelity",
        "load-module module-null-sink sink_name=ref rate=48000",
    );
    let gst_port = free_udp_port();
    let recording = pa.dir.join("gst.raw");
    let mut gst = Command::new("gst-launch-1.0")
        .args(["-q", "udpsrc", &format!("port={gst_port}"), "address=127.0.0.1"])
        .arg({
            let (clock_rate, payload) = wire_format(run.sender);
            format!("caps=application/x-rtp,media=audio,clock-rate={clock_rate},encoding-name=L16,channels=2,payload={payload}")
        })
        .args(["!", "rtpjitterbuffer", &format!("latency={JITTERBUFFER_MS}")])
        .args(["!", "rtpL16depay", "!", "audioconvert", "!", "audioresample", "!", "pulsesink"])
        .arg(format!("server={}", pa.server()))
        .arg("device=ref")
        .env("HOME", &pa.dir)
        .stdout(Stdio::null())
        .spawn()
        .expect("gst-launch-1.0 runs");
    let mut parec = Command::new("parec")
        .args(["--server", &pa.server(), "-d", "ref.monitor", "--raw"])
        .args(["--format=s16le", "--rate=48000", "--channels=2"])
        .arg(&recording)
        .env("HOME", &pa.dir)
        .spawn()
        .expect("parec runs");

    // The sender, through a relay that copies every packet to both at once.
    let relay = UdpSocket::bind((LOCAL, 0)).unwrap();
    relay
        .set_read_timeout(Some(Duration::from_millis(100)))
        .unwrap();
    let relay_port = relay.local_addr().unwrap().port();
    let stop = Arc::new(AtomicBool::new(false));
    let relaying = {
        let stop = stop.clone();
        std::thread::spawn(move || {
            let mut buf = [0u8; 2048];
            // When each packet came and its RTP timestamp: the sender's own clock.
            let mut arrivals = Vec::with_capacity((seconds * 600.0) as usize);
            let start = Instant::now();
            while !stop.load(Relaxed) {
                if let Ok(n) = relay.recv(&mut buf) {
                    let _ = relay.send_to(&buf[..n], (LOCAL, trib_port));
                    let _ = relay.send_to(&buf[..n], (LOCAL, gst_port));
                    if n >= 12 {
                        let ts = u32::from_be_bytes([buf[4], buf[5], buf[6], buf[7]]);
                        arrivals.push((start.elapsed().as_secs_f64(), ts));
                    }
                }
            }
            arrivals
        })
    };
    let mut hog = run.load.then(|| {
        Command::new("stress-ng")
            .args(["--cpu", "2", "--quiet", "--timeout"])
            .arg(format!("{}s", seconds as u64 + 5))
            .stdout(Stdio::null())
            .spawn()
            .expect("stress-ng runs")
    });
    std::thread::sleep(Duration::from_millis(500));
    let mut sender = (run.sender != BURSTY).then(|| start_sender(run.sender, relay_port, seconds));
    let bursty = (run.sender == BURSTY).then(|| {
        let stop = stop.clone();
        std::thread::spawn(move || {
            let to = (LOCAL, relay_port).into();
            bursty::send(to, seconds, 1000.0, 0.125, (5.0, 20.0), 7, &stop)
        })
    });

    // Tributary's output, and its stats once a second.
    out.set_read_timeout(Some(Duration::from_millis(50)))
        .unwrap();
    let mut trib = Vec::new();
    let (mut queued, mut corrections) = (Vec::new(), Vec::new());
    let end = Instant::now() + Duration::from_secs_f64(seconds + 1.5);
    let mut next_stats = Instant::now() + Duration::from_secs(6);
    let mut buf = [0u8; 4096];
    while Instant::now() < end {
        if let Ok(n) = out.recv(&mut buf) {
            trib.extend_from_slice(&buf[5..n]);
        }
        if Instant::now() >= next_stats {
            next_stats += Duration::from_secs(1);
            if let Some(s) = engine.stats().sources.first() {
                if s.packets > 0 {
                    queued.push(s.buffer_ms);
                    corrections.push(s.correction_ppm);
                }
            }
        }
    }
    let stats = engine.stats();
    engine.stop();
    if let Some(s) = sender.as_mut() {
        s.stop();
    }
    for child in [hog.as_mut(), Some(&mut gst), Some(&mut parec)]
        .into_iter()
        .flatten()
    {
        let _ = child.kill();
        let _ = child.wait();
    }
    stop.store(true, Relaxed);
    let arrivals = relaying.join().unwrap_or_default();
    let sender_ppm = sender_clock::sender_ppm(&arrivals, wire_format(run.sender).0);
    let sent = bursty.and_then(|b| b.join().ok());
    if let Some(sent) = &sent {
        println!(
            "\n(bursty sender: {} packets, {} holds up to {:.1} ms, {:.1} ms late on average)",
            sent.packets, sent.bursts, sent.max_hold_ms, sent.mean_late_ms
        );
    }

    let label = label(run);
    // The true pitch is the sender's: 1 kHz on its clock. Against a sender whose clock runs
    // fast, a receiver that follows it plays sharp by as much, and one that does not (plays
    // 1 kHz on this machine's clock) must drop audio to keep up.
    let clock = sender_ppm.unwrap_or(0.0);
    let mut trib_heard = hear(&left(&trib), 48_000.0, 1000.0, 5.0);
    let mut gst_heard = hear(
        &left(&std::fs::read(&recording).unwrap_or_default()),
        48_000.0,
        1000.0,
        5.0,
    );
    for h in [&mut trib_heard, &mut gst_heard] {
        h.pitch_ppm
            .iter_mut()
            .for_each(|p| *p = ((1.0 + *p * 1e-6) / (1.0 + clock * 1e-6) - 1.0) * 1e6);
    }
    let src = stats.sources.first();
    let latency = queued.iter().sum::<f64>() / queued.len().max(1) as f64;
    let counted = stats
        .sinks
        .first()
        .map_or(0.0, |s| s.silence_ms + s.concealed_ms);
    let row = |name: &str, h: &hearing::Heard| {
        let (p50, p99, windows, gaps, gap_ms, seconds) = heard_figures(h);
        format!(
            "  {name:<10} pitch p50 {p50:7.1} p99 {p99:7.1} ppm ({windows} windows), gaps {gaps:3} ({gap_ms:7.1} ms) in {seconds:5.1} s"
        )
    };
    println!("\n{label}");
    match sender_ppm {
        Some(ppm) => println!(
            "  sender's clock {ppm:+.1} ppm against this machine's (from its RTP timestamps); pitch is against it"
        ),
        None => println!("  sender's clock not measured (too few packets)"),
    }
    println!(
        "{}, queued {latency:.1} ms, correction p50 {:.1} p99 {:.1} ppm, gaps counted {counted:.1} ms, late {}, lost {}",
        row("tributary", &trib_heard),
        quantile_abs(&corrections, 0.5),
        quantile_abs(&corrections, 0.99),
        src.map_or(0, |s| s.late),
        src.map_or(0, |s| s.lost),
    );
    if let Some(s) = src {
        println!(
            "  {:<10} moves: {} skips ({:.1} ms), {} repeats ({:.1} ms), each a 10 ms aligned crossfade",
            "",
            s.skips,
            s.skipped_ms,
            s.repeats,
            s.repeated_ms
        );
    }
    println!(
        "{}, rtpjitterbuffer latency={JITTERBUFFER_MS} ms + pulsesink buffer",
        row("gstreamer", &gst_heard)
    );
    if json {
        // Every figure printed above, for scripts/bench/bench-fidelity.mjs
        // (bench/results/fidelity.json).
        let moves = src.map_or((0, 0.0, 0, 0.0), |s| {
            (s.skips, s.skipped_ms, s.repeats, s.repeated_ms)
        });
        println!(
            "{{\"sender\":\"{}\",\"load\":{},\"seconds\":{seconds},\"sender_clock_ppm\":{},\"tributary\":{{{},\"counted_ms\":{counted:.1},\"queued_ms\":{latency:.1},\"correction_ppm_p50\":{:.1},\"correction_ppm_p99\":{:.1},\"late\":{},\"lost\":{},\"skips\":{},\"skipped_ms\":{:.1},\"repeats\":{},\"repeated_ms\":{:.1}}},\"gstreamer\":{{{}}},\"bursty\":{}}}",
            run.sender,
            run.load,
            sender_ppm.map_or("null".into(), |p| format!("{p:.1}")),
            heard_json(&trib_heard),
            quantile_abs(&corrections, 0.5),
            quantile_abs(&corrections, 0.99),
            src.map_or(0, |s| s.late),
            src.map_or(0, |s| s.lost),
            moves.0,
            moves.1,
            moves.2,
            moves.3,
            heard_json(&gst_heard),
            sent.map_or("null".into(), |b| format!(
                "{{\"packets\":{},\"holds\":{},\"max_hold_ms\":{:.1},\"mean_late_ms\":{:.1}}}",
                b.packets, b.bursts, b.max_hold_ms, b.mean_late_ms
            )),
        );
    }
}

/// What one receiver heard: pitch p50 and p99 (ppm), windows, gaps, gap ms, seconds heard.
fn heard_figures(h: &hearing::Heard) -> (f64, f64, usize, usize, f64, f64) {
    (
        quantile_abs(&h.pitch_ppm, 0.5),
        quantile_abs(&h.pitch_ppm, 0.99),
        h.pitch_ppm.len(),
        h.gaps.len(),
        h.gap_ms(),
        h.seconds,
    )
}

/// The figures `row` prints, as JSON fields.
fn heard_json(h: &hearing::Heard) -> String {
    let (p50, p99, windows, gaps, gap_ms, seconds) = heard_figures(h);
    format!(
        "\"pitch_ppm_p50\":{p50:.2},\"pitch_ppm_p99\":{p99:.2},\"windows\":{windows},\"gaps\":{gaps},\"gap_ms\":{gap_ms:.1},\"heard_s\":{seconds:.1}"
    )
}

/// `sender, load` as the bench prints it.
fn label(run: &Run) -> String {
    let load = if run.load {
        "stress-ng --cpu 2"
    } else {
        "idle"
    };
    format!("{}, {load}", run.sender)
}

/// The left channel of 16-bit little-endian stereo.
fn left(bytes: &[u8]) -> Vec<f64> {
    bytes
        .chunks_exact(4)
        .map(|f| f64::from(i16::from_le_bytes([f[0], f[1]])) / 32768.0)
        .collect()
}
