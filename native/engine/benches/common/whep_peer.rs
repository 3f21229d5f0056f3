//! A WebRTC listener for WHEP tests and benchmarks: str0m with a recvonly audio track on its own
//! UDP socket on 127.0.0.1 (as a browser's WHEP client offers), decoding Opus with libopus.
//! Shared by `#[path]` (the engine's WHEP tests and `benches/whep.rs`).

use opus::{Channels, Decoder};
use std::net::UdpSocket;
use std::time::{Duration, Instant};
use str0m::media::{Direction, MediaKind};
use str0m::net::{Protocol, Receive};
use str0m::{Candidate, Event, Input, Output, Rtc};

/// A listener: str0m with a recvonly audio track, as a browser's WHEP client would offer.
pub struct Listener {
    rtc: Rtc,
    pub socket: UdpSocket,
    pending: Option<str0m::change::SdpPendingOffer>,
}

impl Listener {
    /// The listener and its offer.
    pub fn new() -> (Self, String) {
        let mut rtc = Rtc::new(Instant::now());
        let socket = UdpSocket::bind("127.0.0.1:0").unwrap();
        socket
            .set_read_timeout(Some(Duration::from_millis(2)))
            .unwrap();
        let c = Candidate::host(socket.local_addr().unwrap(), "udp").unwrap();
        rtc.add_local_candidate(c);
        let mut change = rtc.sdp_api();
        change.add_media(MediaKind::Audio, Direction::RecvOnly, None, None, None);
        let (offer, pending) = change.apply().unwrap();
        let listener = Self {
            rtc,
            socket,
            pending: Some(pending),
        };
        (listener, offer.to_sdp_string())
    }

    pub fn accept(&mut self, answer: &str) {
        let answer = str0m::change::SdpAnswer::from_sdp_string(answer).unwrap();
        let pending = self.pending.take().unwrap();
        self.rtc.sdp_api().accept_answer(pending, answer).unwrap();
    }

    /// Runs the peer for `limit` at most, decoding each Opus packet and handing it to
    /// `heard(arrival, interleaved stereo)` until that returns false.
    pub fn listen(&mut self, limit: Duration, mut heard: impl FnMut(Instant, &[f32]) -> bool) {
        let mut dec = Decoder::new(48_000, Channels::Stereo).unwrap();
        let mut pcm = vec![0f32; 5760 * 2];
        let mut buf = vec![0u8; 2000];
        let end = Instant::now() + limit;
        let mut more = true;
        while Instant::now() < end && more {
            loop {
                match self.rtc.poll_output().unwrap() {
                    Output::Timeout(_) => break,
                    Output::Transmit(t) => {
                        let _ = self.socket.send_to(&t.contents, t.destination);
                    }
                    Output::Event(Event::MediaData(m)) => {
                        let n = dec.decode_float(&m.data, &mut pcm, false).unwrap();
                        more = more && heard(Instant::now(), &pcm[..n * 2]);
                    }
                    Output::Event(_) => {}
                }
            }
            let now = Instant::now();
            let input = match self.socket.recv_from(&mut buf) {
                Ok((n, source)) => {
                    let local = self.socket.local_addr().unwrap();
                    Input::Receive(
                        now,
                        Receive::new(Protocol::Udp, source, local, &buf[..n]).unwrap(),
                    )
                }
                Err(_) => Input::Timeout(now),
            };
            self.rtc.handle_input(input).unwrap();
        }
    }
}
