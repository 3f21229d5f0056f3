//! The sender from start to stop: resolve the server, open the input (PulseAudio, ALSA or JACK),
//! then on a thread of its own read one payload, frame it, send it, as fast as the source produces audio and no faster;
//! the main thread watches for SIGTERM/SIGINT (a clean stop), a capture that failed (an error)
//! and prints the `-v` report.

use crate::announce::{session_for, Announcer};
use crate::capture::CaptureSettings;
use crate::device_capture::DeviceStats;
use crate::input::Opened;
use crate::options::Options;
use crate::pacer::Pacer;
use crate::packetiser::{random_start, Packetiser, MAX_DATAGRAM};
use std::net::{SocketAddr, ToSocketAddrs, UdpSocket};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering::Relaxed};
use std::sync::{mpsc, Arc};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};
use tributary_engine::runtime::scheduling::raise_current_thread;
use tributary_receive::signals;

/// How often the main thread looks at the signals and the sending thread.
const POLL: Duration = Duration::from_millis(50);
/// The sending thread's real-time priority (SCHED_FIFO where allowed, else nice -10).
const PRIORITY: i32 = 20;
/// At most one line about failed sends this often (all are counted).
const SEND_ERROR_EVERY: Duration = Duration::from_secs(10);
/// How long a stop waits for a capture read that does not return (a stalled source).
const STOP_WAIT: Duration = Duration::from_secs(1);

/// What the sending thread counts.
#[derive(Default)]
pub struct SendStats {
    pub packets: AtomicU64,
    pub send_errors: AtomicU64,
    pub latency_us: AtomicU64,
}

/// Runs until SIGTERM or SIGINT (Ok) or until the capture fails (Err, in words).
pub fn run(o: &Options) -> Result<(), String> {
    signals::install();
    let dest = resolve(&o.host, o.port)?;
    let packetiser = Packetiser::new(o.protocol, o.rate, o.channels, random_start())?;
    let settings = CaptureSettings {
        server: std::env::var("PULSE_SERVER").ok().filter(|s| !s.is_empty()),
        device: o.device.clone(),
        stream_name: o.stream_name.clone(),
        format: packetiser.sample_format(),
        rate: o.rate,
        channels: o.channels,
        fragment: packetiser.payload_len(),
    };
    let bind: SocketAddr = if dest.is_ipv4() {
        "0.0.0.0:0".parse().unwrap()
    } else {
        "[::]:0".parse().unwrap()
    };
    let socket = UdpSocket::bind(bind).map_err(|e| format!("cannot open a UDP socket: {e}"))?;
    let packet_ms = packetiser.frames_per_packet() as f64 * 1000.0 / f64::from(o.rate);
    let what = match o.protocol {
        crate::packetiser::Protocol::Rtp => {
            format!("RTP L16 (payload type {})", packetiser.payload_type())
        }
        crate::packetiser::Protocol::Scream => "Scream 16-bit".to_owned(),
    };
    let line = format!(
        "sending {what} {} Hz {} ch to {dest}, {} bytes ({packet_ms:.2} ms) a packet",
        o.rate,
        o.channels,
        packetiser.payload_len(),
    );
    let announced = match (o.sap, o.protocol, dest) {
        (true, crate::packetiser::Protocol::Rtp, SocketAddr::V4(to)) => Some(session_for(
            to,
            &o.stream_name,
            packetiser.payload_type(),
            o.rate,
            o.channels,
            packet_ms,
        )),
        _ => None,
    };
    let stop = Arc::new(AtomicBool::new(false));
    let stats = Arc::new(SendStats::default());
    let (sender, capturing, device) = start(
        o.input,
        settings,
        packetiser,
        socket,
        dest,
        stop.clone(),
        stats.clone(),
    )?;
    eprintln!("send: capturing {capturing}, {line}");
    let announcer = match announced.map(|s| s.and_then(Announcer::start)) {
        Some(Ok(a)) => {
            eprintln!(
                "send: announcing the stream with SAP to {}:{} every {} s",
                crate::sap::SAP_GROUP,
                crate::sap::SAP_PORT,
                crate::sap::INTERVAL_S
            );
            Some(a)
        }
        Some(Err(e)) => {
            eprintln!("send: not announced with SAP: {e}");
            None
        }
        None => None,
    };
    let mut next_report = Instant::now() + Duration::from_secs(1);
    while !signals::stop_requested() && !sender.is_finished() {
        if o.verbose && Instant::now() >= next_report {
            next_report += Duration::from_secs(1);
            match &device {
                None => eprintln!(
                    "send: {} packets, {} send errors, PulseAudio latency {:.1} ms",
                    stats.packets.load(Relaxed),
                    stats.send_errors.load(Relaxed),
                    stats.latency_us.load(Relaxed) as f64 / 1000.0
                ),
                Some(d) => eprintln!(
                    "send: {} packets, {} send errors, {} frames captured, {} overruns ({} frames \
                     lost), {} device errors, device latency {:.1} ms",
                    stats.packets.load(Relaxed),
                    stats.send_errors.load(Relaxed),
                    d.frames.load(Relaxed),
                    d.overruns.load(Relaxed),
                    d.frames_lost.load(Relaxed),
                    d.device_errors.load(Relaxed),
                    d.latency_us.load(Relaxed) as f64 / 1000.0
                ),
            }
        }
        std::thread::sleep(POLL);
    }
    if let Some(a) = announcer {
        a.stop();
    }
    stop.store(true, Relaxed);
    let until = Instant::now() + STOP_WAIT;
    while !sender.is_finished() && Instant::now() < until {
        std::thread::sleep(Duration::from_millis(5));
    }
    if sender.is_finished() {
        sender
            .join()
            .map_err(|_| "the sending thread panicked".to_owned())??;
    }
    eprintln!("send: stopped");
    Ok(())
}

fn resolve(host: &str, port: u16) -> Result<SocketAddr, String> {
    (host, port)
        .to_socket_addrs()
        .map_err(|e| format!("cannot resolve {host}: {e}"))?
        .next()
        .ok_or_else(|| format!("cannot resolve {host}: no address"))
}

/// What [`start`] returns: the sending thread, what it captures (for the start line) and the
/// device's counters (ALSA, JACK).
type Started = (
    JoinHandle<Result<(), String>>,
    String,
    Option<Arc<DeviceStats>>,
);

/// Opens the input on the sending thread (the stream stays on the thread that made it) and
/// returns once it is open, or its error.
fn start(
    input: crate::options::Input,
    settings: CaptureSettings,
    packetiser: Packetiser,
    socket: UdpSocket,
    dest: SocketAddr,
    stop: Arc<AtomicBool>,
    stats: Arc<SendStats>,
) -> Result<Started, String> {
    let (opened, rx) = mpsc::channel();
    let thread = std::thread::Builder::new()
        .name("trib-send".into())
        .spawn(move || {
            raise_current_thread(PRIORITY);
            let mut capture = match Opened::open(input, &settings) {
                Ok(c) => {
                    let _ = opened.send(Ok((c.describe(&settings), c.device_stats())));
                    c
                }
                Err(e) => {
                    let _ = opened.send(Err(e));
                    return Ok(());
                }
            };
            send_loop(
                &mut capture,
                &settings,
                packetiser,
                &socket,
                dest,
                &stop,
                &stats,
            )
        })
        .map_err(|e| format!("cannot start the sending thread: {e}"))?;
    match rx.recv() {
        Ok(Ok((what, device))) => Ok((thread, what, device)),
        Ok(Err(e)) => Err(e),
        Err(_) => Err("the sending thread ended at once".into()),
    }
}

/// One packet per read: the read returns when the input has produced a payload's worth.
fn send_loop(
    capture: &mut Opened,
    settings: &CaptureSettings,
    mut packetiser: Packetiser,
    socket: &UdpSocket,
    dest: SocketAddr,
    stop: &AtomicBool,
    stats: &SendStats,
) -> Result<(), String> {
    let mut packet = [0u8; MAX_DATAGRAM];
    let mut last_error: Option<Instant> = None;
    let mut last_latency = Instant::now();
    let mut pacer = Pacer::new(packetiser.frames_per_packet(), settings.rate);
    while !stop.load(Relaxed) {
        if !capture.read(packetiser.payload_mut(&mut packet), settings, stop)? {
            break;
        }
        let len = packetiser.finish(&mut packet);
        // Several packets' worth handed over at once leave spread out, not in a burst.
        let wait = pacer.wait(Instant::now());
        if !wait.is_zero() {
            std::thread::sleep(wait);
        }
        pacer.sent(Instant::now());
        match socket.send_to(&packet[..len], dest) {
            Ok(_) => {
                stats.packets.fetch_add(1, Relaxed);
            }
            Err(e) => {
                let errors = stats.send_errors.fetch_add(1, Relaxed) + 1;
                if last_error.is_none_or(|t| t.elapsed() >= SEND_ERROR_EVERY) {
                    last_error = Some(Instant::now());
                    eprintln!("send: cannot send to {dest}: {e} ({errors} failed so far)");
                }
            }
        }
        if last_latency.elapsed() >= Duration::from_millis(250) {
            last_latency = Instant::now();
            if let Some(us) = capture.latency_us() {
                stats.latency_us.store(us, Relaxed);
            }
        }
    }
    Ok(())
}
