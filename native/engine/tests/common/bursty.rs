//! A sender with injected jitter: RTP L16 48 kHz stereo (dynamic payload type 96) carrying a
//! tone, 6 ms (288 frames) per packet, paced by this machine's clock (the engine's: no drift),
//! but sent the way a busy sender or a Wi-Fi link delivers: now and then it holds its packets
//! for 5 to 20 ms (drawn at random) and releases them together, then sends on time for a few
//! packets. Every packet leaves 0 to 20 ms after its due time; none is lost, none reordered.
//! Included by the fidelity tests and the fidelity bench (`#[path]`), so both inject the same.
#![allow(dead_code)]

use std::net::{SocketAddr, UdpSocket};
use std::sync::atomic::{AtomicBool, Ordering::Relaxed};
use std::time::{Duration, Instant};

/// Frames per packet: 6 ms at 48 kHz, 1152 bytes of L16 stereo.
pub const FRAMES: usize = 288;
const RATE: f64 = 48_000.0;

/// What the sender did.
#[derive(Debug, Default)]
pub struct Sent {
    pub packets: u64,
    /// Bursts of held packets released together, and the longest hold, ms.
    pub bursts: u64,
    pub max_hold_ms: f64,
    /// Mean lateness of a packet against its due time, ms.
    pub mean_late_ms: f64,
}

/// Sends a `freq` Hz tone at `amplitude` (0-1) to `to` for `seconds` with holds of
/// `hold_ms.0` to `hold_ms.1`, from a thread at real-time priority (so the jitter is the one
/// injected, not the machine's); stops early when `stop` is set. `seed` picks the holds.
pub fn send(
    to: SocketAddr,
    seconds: f64,
    freq: f64,
    amplitude: f64,
    hold_ms: (f64, f64),
    seed: u64,
    stop: &AtomicBool,
) -> Sent {
    let socket = UdpSocket::bind((to.ip(), 0)).expect("a socket beside the engine");
    tributary_engine::runtime::scheduling::raise_current_thread(30);
    let mut rng = seed | 1;
    let mut uniform = move || {
        // xorshift64*: enough to spread holds, and the same holds for the same seed.
        rng ^= rng >> 12;
        rng ^= rng << 25;
        rng ^= rng >> 27;
        (rng.wrapping_mul(0x2545_f491_4f6c_dd1d) >> 11) as f64 / (1u64 << 53) as f64
    };
    let period = FRAMES as f64 / RATE;
    let total = (seconds / period) as u64;
    let ssrc = 0x7a11_0001;
    let start = Instant::now();
    let due = |k: u64| start + Duration::from_secs_f64(k as f64 * period);
    let mut sent = Sent::default();
    let mut late_s = 0.0;
    let mut packet = [0u8; 12 + FRAMES * 4];
    let mut k = 0u64;
    // Packets sent on time before the next hold.
    let mut on_time = 0u32;
    while k < total && !stop.load(Relaxed) {
        let release = if on_time == 0 {
            let hold = hold_ms.0 + (hold_ms.1 - hold_ms.0) * uniform();
            on_time = 1 + (uniform() * 4.0) as u32;
            sent.bursts += 1;
            sent.max_hold_ms = sent.max_hold_ms.max(hold);
            due(k) + Duration::from_secs_f64(hold / 1000.0)
        } else {
            on_time -= 1;
            due(k)
        };
        std::thread::sleep(release.saturating_duration_since(Instant::now()));
        // Everything due by now goes out at once.
        let now = Instant::now();
        while k < total && due(k) <= now.max(release) {
            build(&mut packet, k, freq, amplitude, ssrc);
            let _ = socket.send_to(&packet, to);
            late_s += now.saturating_duration_since(due(k)).as_secs_f64();
            sent.packets += 1;
            k += 1;
        }
    }
    sent.mean_late_ms = late_s * 1000.0 / sent.packets.max(1) as f64;
    sent
}

/// Packet `k`: RTP header (payload type 96, marker on the first) and 288 frames of the tone,
/// the same sample on both channels, big-endian.
fn build(packet: &mut [u8; 12 + FRAMES * 4], k: u64, freq: f64, amplitude: f64, ssrc: u32) {
    let mut header = [0u8; 12];
    tributary_engine::wire::rtp::write_header(
        &mut header,
        k == 0,
        96,
        k as u16,
        (k * FRAMES as u64) as u32,
        ssrc,
    );
    packet[..12].copy_from_slice(&header);
    for (i, frame) in packet[12..].chunks_exact_mut(4).enumerate() {
        let n = (k * FRAMES as u64 + i as u64) as f64;
        let v = (amplitude * (2.0 * std::f64::consts::PI * freq * n / RATE).sin() * 32767.0) as i16;
        frame[..2].copy_from_slice(&v.to_be_bytes());
        frame[2..].copy_from_slice(&v.to_be_bytes());
    }
}
