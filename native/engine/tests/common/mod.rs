//! The engine's one test and bench kit (this folder). `mod.rs`, the helpers of the loopback
//! tests (`mod common;`): an engine on ephemeral ports, a Scream sender, a UDP receiver, tone
//! analysis (frequency by zero crossings, RMS level) and `skip_for_environment`. The other files
//! are included by `#[path]` by the tests and benches that use them (only those build them):
//! the benches' command line and targets (`args.rs`, `topology.rs`, `targets.rs`), real senders
//! and daemons (`senders.rs`, `pulse.rs`, `pipewire.rs`, `bursty.rs`, `relay.rs`,
//! `rtp_sender.rs`, `whep_peer.rs`), and what a listener hears (`hearing.rs`, `listen.rs`,
//! `sender_clock.rs`, `arrival.rs`), the MP3 tests' fixture (`mp3.rs`) and one block of
//! `tributary render` (`render_job.rs`).
#![allow(dead_code)]

pub mod rtp_sender;
#[allow(unused_imports)]
pub use rtp_sender::{ffmpeg_tone, free_udp_port};

use std::net::{IpAddr, Ipv4Addr, SocketAddr, UdpSocket};
use std::time::{Duration, Instant};
use tributary_dsp::ChannelLayout;
use tributary_engine::wire::rtp::RtpFormat;
use tributary_engine::wire::scream::{self, ScreamFormat};
use tributary_engine::{
    DesiredState, Engine, EngineOptions, PathSpec, RtpSourceSpec, SinkProtocol, SinkSpec,
};

/// Real-time tests in one binary run one at a time: a flood or a peer process in one test
/// must not starve another test's paced sender on a small machine.
pub fn serial() -> std::sync::MutexGuard<'static, ()> {
    static LOCK: std::sync::Mutex<()> = std::sync::Mutex::new(());
    LOCK.lock().unwrap_or_else(|e| e.into_inner())
}

pub const LOCAL: IpAddr = IpAddr::V4(Ipv4Addr::LOCALHOST);

/// An engine bound to 127.0.0.1 on ephemeral ports (one Scream, one tagged, one RTP).
pub fn engine() -> Engine {
    Engine::start(EngineOptions {
        bind: LOCAL,
        scream_ports: vec![0],
        tagged_port: Some(0),
        rtp_ports: vec![],
        ..EngineOptions::default()
    })
    .expect("engine starts")
}

/// Applies `sinks`, every one of which must be playable; returns the address Scream senders
/// send to.
pub fn play(engine: &mut Engine, sinks: Vec<SinkSpec>) -> SocketAddr {
    let problems = engine.apply(DesiredState { sinks }).unwrap();
    assert!(problems.is_empty(), "{problems:?}");
    SocketAddr::new(LOCAL, engine.ports().scream[0])
}

/// A socket on 127.0.0.1 (ephemeral port) to receive what a sink sends, and its port.
pub fn receiver() -> (UdpSocket, u16) {
    let socket = UdpSocket::bind((LOCAL, 0)).unwrap();
    roomy(&socket);
    let port = socket.local_addr().unwrap().port();
    (socket, port)
}

/// Gives a test's receiving socket 8 MiB of kernel buffer (SO_RCVBUFFORCE as root, else as much
/// as SO_RCVBUF allows): a test thread descheduled for a few hundred milliseconds on a loaded
/// machine must not lose what the engine sent (5.1 channels of 24-bit audio fill the default
/// 208 KiB in a quarter of a second), or the test blames the engine for its own drops.
pub fn roomy(socket: &UdpSocket) {
    use std::os::fd::AsRawFd;
    let size: libc::c_int = 8 << 20;
    for option in [libc::SO_RCVBUFFORCE, libc::SO_RCVBUF] {
        // SAFETY: a valid socket and a c_int option value of the size given.
        let r = unsafe {
            libc::setsockopt(
                socket.as_raw_fd(),
                libc::SOL_SOCKET,
                option,
                (&size as *const libc::c_int).cast(),
                std::mem::size_of::<libc::c_int>() as libc::socklen_t,
            )
        };
        if r == 0 {
            return;
        }
    }
}

pub fn path(id: &str, ip: Option<IpAddr>, rtp: Option<RtpSourceSpec>) -> PathSpec {
    PathSpec {
        ip,
        rtp,
        ..PathSpec::new(id)
    }
}

pub fn rtp_source(port: u16, format: RtpFormat) -> RtpSourceSpec {
    RtpSourceSpec {
        listen_ip: None,
        port,
        format,
        payload_type: None,
    }
}

pub fn sink(
    id: &str,
    port: u16,
    protocol: SinkProtocol,
    rate: u32,
    bits: u8,
    paths: Vec<PathSpec>,
) -> SinkSpec {
    SinkSpec {
        ip: Some(LOCAL),
        port,
        paths,
        ..SinkSpec::new(id, protocol, rate, bits, ChannelLayout::STEREO)
    }
}

/// A Scream sink, 48 kHz 16-bit stereo, sending to 127.0.0.1:`port`.
pub fn scream_sink(id: &str, port: u16, paths: Vec<PathSpec>) -> SinkSpec {
    sink(id, port, SinkProtocol::Scream, 48_000, 16, paths)
}

/// The Scream source sending from 127.0.0.1, as most tests have it.
pub fn local_pc() -> PathSpec {
    path("pc", Some(LOCAL), None)
}

/// Sends Scream packets of a stereo tone (left `f_left` Hz at `amp_left`, right `f_right` at
/// `amp_right`) at the real rate for `seconds`, from a socket bound to `from`.
pub fn send_scream_tone(to: SocketAddr, seconds: f64, tones: [(f64, f64); 2]) {
    send_scream(to, seconds, 3, &tones);
}

/// Sends 48 kHz 16-bit Scream with one tone per channel (`tones.len()` channels, `mask` as the
/// channel mask) at the real rate for `seconds`. Frames straddle packets when 1152 bytes is
/// not a whole number of them, as real Scream senders do.
pub fn send_scream(to: SocketAddr, seconds: f64, mask: u16, tones: &[(f64, f64)]) {
    send_scream_from(LOCAL, to, seconds, mask, tones);
}

/// [`send_scream`] from a socket bound to `from` (another loopback address: another sender).
pub fn send_scream_from(
    from: IpAddr,
    to: SocketAddr,
    seconds: f64,
    mask: u16,
    tones: &[(f64, f64)],
) {
    send_scream_paced(from, to, seconds, mask, tones, 0.0);
}

/// [`send_scream_from`] by a sender whose clock runs `ppm` fast (positive) or slow against this
/// machine's: its 48 kHz of audio leave in 1 / (1 + ppm / 10^6) seconds.
pub fn send_scream_paced(
    from: IpAddr,
    to: SocketAddr,
    seconds: f64,
    mask: u16,
    tones: &[(f64, f64)],
    ppm: f64,
) {
    let socket = UdpSocket::bind((from, 0)).unwrap();
    let channels = tones.len();
    let format = ScreamFormat {
        sample_rate: 48_000,
        bit_depth: 16,
        channels: channels as u8,
        channel_mask: mask,
    };
    let total_frames = (seconds * 48_000.0) as usize;
    let mut pcm = Vec::with_capacity(total_frames * channels * 2);
    for n in 0..total_frames {
        for (f, a) in tones {
            let v =
                (a * (2.0 * std::f64::consts::PI * f * n as f64 / 48_000.0).sin() * 32767.0) as i16;
            pcm.extend_from_slice(&v.to_le_bytes());
        }
    }
    // A real sender's audio thread runs at real-time priority too; without it a loaded test
    // machine delays this thread by more than any jitter buffer.
    tributary_engine::runtime::scheduling::raise_current_thread(30);
    let start = Instant::now();
    let bytes_per_second = 48_000.0 * channels as f64 * 2.0 * (1.0 + ppm * 1e-6);
    let mut out = [0u8; 1200];
    for (k, payload) in pcm.chunks_exact(scream::PAYLOAD_LEN).enumerate() {
        let len = scream::build(&format, payload, &mut out).unwrap();
        socket.send_to(&out[..len], to).unwrap();
        let due = start
            + Duration::from_secs_f64(
                (k + 1) as f64 * scream::PAYLOAD_LEN as f64 / bytes_per_second,
            );
        std::thread::sleep(due.saturating_duration_since(Instant::now()));
    }
}

/// Collects datagrams on `socket` for `seconds` (each with its arrival time).
pub fn collect(socket: &UdpSocket, seconds: f64) -> Vec<(Instant, Vec<u8>)> {
    socket
        .set_read_timeout(Some(Duration::from_millis(50)))
        .unwrap();
    let end = Instant::now() + Duration::from_secs_f64(seconds);
    let mut out = Vec::new();
    let mut buf = [0u8; 4096];
    while Instant::now() < end {
        if let Ok((n, _)) = socket.recv_from(&mut buf) {
            out.push((Instant::now(), buf[..n].to_vec()));
        }
    }
    out
}

/// Reads away every datagram already queued on `socket` and returns how many there were: after
/// [`tributary_engine::Engine::stop`] (which joins the engine's threads) these were all sent
/// before the stop, however late the test got to read them.
pub fn drain(socket: &UdpSocket) -> usize {
    socket.set_nonblocking(true).unwrap();
    let mut buf = [0u8; 4096];
    let mut n = 0;
    while socket.recv_from(&mut buf).is_ok() {
        n += 1;
    }
    socket.set_nonblocking(false).unwrap();
    n
}

/// De-interleaves little- or big-endian 16-bit stereo into two channels of f64.
pub fn split_s16(bytes: &[u8], big_endian: bool) -> [Vec<f64>; 2] {
    let mut l = Vec::new();
    let mut r = Vec::new();
    for f in bytes.chunks_exact(4) {
        let s = |b: &[u8]| {
            let v = if big_endian {
                i16::from_be_bytes([b[0], b[1]])
            } else {
                i16::from_le_bytes([b[0], b[1]])
            };
            f64::from(v) / 32768.0
        };
        l.push(s(&f[0..2]));
        r.push(s(&f[2..4]));
    }
    [l, r]
}

/// (frequency by rising zero crossings, RMS) of a signal at `rate`.
pub fn tone(samples: &[f64], rate: f64) -> (f64, f64) {
    let rms = (samples.iter().map(|x| x * x).sum::<f64>() / samples.len().max(1) as f64).sqrt();
    let crossings: Vec<usize> = (1..samples.len())
        .filter(|&i| samples[i - 1] < 0.0 && samples[i] >= 0.0)
        .collect();
    let freq = if crossings.len() > 2 {
        (crossings.len() - 1) as f64 * rate / (crossings[crossings.len() - 1] - crossings[0]) as f64
    } else {
        0.0
    };
    (freq, rms)
}

/// The longest stretch (samples) of near-silence in a signal (a gap or dropout).
pub fn longest_silence(samples: &[f64]) -> usize {
    let (mut best, mut run) = (0, 0);
    for s in samples {
        if s.abs() < 1e-3 {
            run += 1;
            best = best.max(run);
        } else {
            run = 0;
        }
    }
    best
}

/// (start, length) of the longest stretch without a run of 8 near-silent samples.
pub fn longest_sound(samples: &[f64]) -> (usize, usize) {
    let (mut best, mut start, mut quiet) = ((0, 0), 0, 0);
    for (i, s) in samples.iter().enumerate() {
        if s.abs() < 1e-3 {
            quiet += 1;
            if quiet == 8 {
                let end = i + 1 - 8;
                if end > start && end - start > best.1 {
                    best = (start, end - start);
                }
            }
        } else {
            if quiet >= 8 {
                start = i;
            }
            quiet = 0;
        }
    }
    if quiet < 8 && samples.len() - start > best.1 {
        best = (start, samples.len() - start);
    }
    best
}

/// Asserts that a 16-bit stereo Scream sink played a `freq` Hz tone throughout what it sent in
/// `packets`: over 2 s of it, no near-silence of `max_gap` samples or more in between. Returns
/// the longest near-silence (samples).
#[track_caller]
pub fn assert_tone_throughout(packets: &[(Instant, Vec<u8>)], freq: f64, max_gap: usize) -> usize {
    let left = left_channel(packets, None);
    let played = sounding(&left);
    assert!(played.len() > 48_000 * 2, "played {} frames", played.len());
    let gap = longest_silence(played);
    assert!(gap < max_gap, "a {gap}-sample dropout");
    let (f, _) = tone(played, 48_000.0);
    assert!((f - freq).abs() < 5.0, "{f} Hz");
    gap
}

/// Runs the test `name` of this test binary again in a network namespace of its own
/// (`unshare -n`, root only) whose loopback carries multicast (up, multicast on, 224.0.0.0/4
/// routed to it), with `inside` set in its environment; fails with the run's output unless its
/// one test passed. Returns that output.
pub fn rerun_in_netns(name: &str, inside: &str) -> String {
    let exe = std::env::current_exe().expect("test binary path");
    let script = format!(
        "ip link set lo up && ip link set lo multicast on && ip route add 224.0.0.0/4 dev lo && \
         exec '{}' --exact {name} --nocapture --test-threads=1",
        exe.display()
    );
    let out = std::process::Command::new("unshare")
        .args(["-n", "sh", "-c", &script])
        .env(inside, "1")
        .output()
        .expect("unshare (util-linux) and ip (iproute2) are installed");
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(out.status.success(), "inside the namespace:\n{text}");
    assert!(text.contains("1 passed"), "the inner test ran:\n{text}");
    text
}

/// Whether `tool` is on the PATH (a peer program a test runs).
pub fn have_tool(tool: &str) -> bool {
    std::process::Command::new("sh")
        .args(["-c", &format!("command -v {tool}")])
        .stdout(std::process::Stdio::null())
        .status()
        .is_ok_and(|s| s.success())
}

/// Ends a test that cannot run on this machine (not root, a tool missing). Outside CI it writes
/// `ENV-SKIP <test>: <reason>` straight to stderr, past the test harness's output capture, and
/// `npm test` counts the test as skipped instead of passed. Under CI=true, where every tool is
/// installed and tests run as root, it panics: the test fails rather than passing unseen.
pub fn skip_for_environment(test: &str, reason: &str) {
    use std::io::Write;
    let ci = std::env::var("CI")
        .is_ok_and(|v| matches!(v.to_ascii_lowercase().as_str(), "1" | "true" | "yes"));
    assert!(
        !ci,
        "{test} cannot run here ({reason}); CI=true, where a test skipped for want of something \
         is a failure"
    );
    let _ = writeln!(std::io::stderr(), "ENV-SKIP {test}: {reason}");
}

/// A deterministic pseudo-random sequence (an LCG), for floods that replay the same bytes.
pub struct Lcg(pub u64);

impl Lcg {
    pub fn next(&mut self) -> u64 {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        self.0 >> 33
    }
}

/// The left channel of what a 16-bit stereo Scream sink sent, packets after `after` only.
pub fn left_channel(packets: &[(Instant, Vec<u8>)], after: Option<Instant>) -> Vec<f64> {
    let audio: Vec<u8> = packets
        .iter()
        .filter(|(at, _)| after.is_none_or(|t| *at > t))
        .flat_map(|(_, p)| p[5..].to_vec())
        .collect();
    let [left, _] = split_s16(&audio, false);
    left
}

/// The part of `samples` from the first to the last sample that is not near silence.
pub fn sounding(samples: &[f64]) -> &[f64] {
    let start = samples.iter().position(|s| s.abs() > 0.01);
    let end = samples.iter().rposition(|s| s.abs() > 0.01);
    match (start, end) {
        (Some(s), Some(e)) => &samples[s..e],
        _ => &[],
    }
}
