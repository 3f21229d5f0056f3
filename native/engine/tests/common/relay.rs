//! A relay between a sender and the engine's RTP port, so a test knows what the engine was
//! given: it forwards every datagram at once (RTP, and RTCP on the next port) from a thread at
//! real-time priority, and notes when each RTP packet left for the engine, with its timestamp.
//! A stall of the sender itself (ffmpeg is not a real-time process: on a busy machine it can
//! stop for longer than any buffer holds) shows there, apart from anything the engine did.
#![allow(dead_code)]

use std::net::{SocketAddr, UdpSocket};
use std::sync::atomic::{AtomicBool, Ordering::Relaxed};
use std::sync::Arc;
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use crate::common::{free_udp_port, LOCAL};

/// What the engine was given.
#[derive(Debug, Default)]
pub struct Delivery {
    pub packets: usize,
    /// Longest time between two packets reaching the engine, ms.
    pub longest_gap_ms: f64,
    /// The latest a packet reached the engine behind the sender's own earliest pace (the
    /// lower envelope of arrival less timestamp / rate), ms, and when (s after the first).
    pub latest_ms: f64,
    pub latest_at_s: f64,
}

pub struct Relay {
    /// The even port a sender sends RTP to (RTCP to the next one).
    pub port: u16,
    stop: Arc<AtomicBool>,
    rtp: JoinHandle<Vec<(Instant, u32)>>,
    rtcp: JoinHandle<Vec<(Instant, u32)>>,
}

impl Relay {
    /// A relay to 127.0.0.1:`to` (RTP) and `to` + 1 (RTCP).
    pub fn start(to: u16) -> Self {
        let port = free_udp_port();
        let stop = Arc::new(AtomicBool::new(false));
        let forward = |from: u16, to: u16| {
            let socket = UdpSocket::bind((LOCAL, from)).expect("the relay's port is free");
            socket
                .set_read_timeout(Some(Duration::from_millis(20)))
                .unwrap();
            let stop = stop.clone();
            std::thread::spawn(move || {
                tributary_engine::runtime::scheduling::raise_current_thread(30);
                let to = SocketAddr::new(LOCAL, to);
                let mut sent = Vec::with_capacity(8192);
                let mut buf = [0u8; 2048];
                while !stop.load(Relaxed) {
                    if let Ok((n, _)) = socket.recv_from(&mut buf) {
                        let _ = socket.send_to(&buf[..n], to);
                        let ts = buf[4..8].try_into().map_or(0, u32::from_be_bytes);
                        sent.push((Instant::now(), ts));
                    }
                }
                sent
            })
        };
        let rtp = forward(port, to);
        let rtcp = forward(port + 1, to + 1);
        Self {
            port,
            stop,
            rtp,
            rtcp,
        }
    }

    /// Stops relaying; what the engine was given of a stream at `rate` Hz (its RTP clock).
    pub fn finish(self, rate: u32) -> Delivery {
        self.stop.store(true, Relaxed);
        let sent = self.rtp.join().unwrap();
        let _ = self.rtcp.join();
        let mut d = Delivery {
            packets: sent.len(),
            ..Delivery::default()
        };
        let Some(&(t0, ts0)) = sent.first() else {
            return d;
        };
        for w in sent.windows(2) {
            d.longest_gap_ms = d
                .longest_gap_ms
                .max((w[1].0 - w[0].0).as_secs_f64() * 1000.0);
        }
        // Behind its own pace: arrival less the stream time of the packet's timestamp (an
        // L16 packet's timestamp is its first frame), against the earliest of those.
        let behind: Vec<(f64, f64)> = sent
            .iter()
            .map(|&(t, ts)| {
                let at = (t - t0).as_secs_f64();
                (at, at - f64::from(ts.wrapping_sub(ts0)) / f64::from(rate))
            })
            .collect();
        let earliest = behind.iter().map(|b| b.1).fold(f64::INFINITY, f64::min);
        for &(at, b) in &behind {
            if (b - earliest) * 1000.0 > d.latest_ms {
                d.latest_ms = (b - earliest) * 1000.0;
                d.latest_at_s = at;
            }
        }
        d
    }
}
