//! A WebRTC listener for WHEP tests and benchmarks: str0m with a recvonly audio track on its own
//! UDP socket on 127.0.0.1 (as a browser's WHEP client offers), decoding Opus with libopus.
//! Included by `#[path]` (the engine's WHEP tests and `benches/whep.rs`).

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
    /// The server's answer (an ICE restart's answer is it with the new credentials).
    answer: String,
    /// The socket an ICE restart moves to (a network change), once the server answered.
    next_socket: Option<UdpSocket>,
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
            answer: String::new(),
            next_socket: None,
        };
        (listener, offer.to_sdp_string())
    }

    pub fn accept(&mut self, answer: &str) {
        self.answer = answer.to_string();
        let answer = str0m::change::SdpAnswer::from_sdp_string(answer).unwrap();
        let pending = self.pending.take().unwrap();
        self.rtc.sdp_api().accept_answer(pending, answer).unwrap();
    }

    /// Starts an ICE restart as a WHEP client does (RFC 9725 section 4.3.2), moving to a new
    /// socket (another port: a network change): the `trickle-ice-sdpfrag` to PATCH, with the
    /// new credentials and the new socket's candidate.
    #[allow(dead_code)]
    pub fn restart_ice(&mut self) -> String {
        let socket = UdpSocket::bind("127.0.0.1:0").unwrap();
        socket
            .set_read_timeout(Some(Duration::from_millis(2)))
            .unwrap();
        let candidate = Candidate::host(socket.local_addr().unwrap(), "udp").unwrap();
        let mut change = self.rtc.sdp_api();
        let creds = change.ice_restart(false);
        let (_offer, pending) = change.apply().unwrap();
        self.pending = Some(pending);
        self.next_socket = Some(socket);
        let mid = self.answer.lines().find(|l| l.starts_with("a=mid:"));
        format!(
            "a=ice-ufrag:{}\r\na=ice-pwd:{}\r\nm=audio 9 UDP/TLS/RTP/SAVPF 111\r\n{}\r\n\
             a={}\r\na=end-of-candidates\r\n",
            creds.ufrag,
            creds.pass,
            mid.unwrap_or("a=mid:0"),
            candidate.to_sdp_string()
        )
    }

    /// Completes the restart with the server's fragment: the first answer with the new
    /// credentials and candidates stands for the answer (nothing else is renegotiated).
    #[allow(dead_code)]
    pub fn accept_restart(&mut self, fragment: &str) {
        let line = |key: &str| fragment.lines().find(|l| l.starts_with(key)).unwrap();
        let mut answer = String::new();
        for l in self.answer.lines() {
            if l.starts_with("a=ice-ufrag:") {
                answer.push_str(line("a=ice-ufrag:"));
            } else if l.starts_with("a=ice-pwd:") {
                answer.push_str(line("a=ice-pwd:"));
            } else if l.starts_with("a=candidate:") || l.starts_with("a=end-of-candidates") {
                continue;
            } else {
                answer.push_str(l.trim_end());
            }
            answer.push_str("\r\n");
        }
        let sdp = str0m::change::SdpAnswer::from_sdp_string(&answer).unwrap();
        let pending = self.pending.take().unwrap();
        self.rtc.sdp_api().accept_answer(pending, sdp).unwrap();
        for l in fragment.lines().filter_map(|l| l.trim().strip_prefix("a=")) {
            if l.starts_with("candidate:") {
                let c = Candidate::from_sdp_string(l).unwrap();
                self.rtc.add_remote_candidate(c);
            }
        }
        let socket = self.next_socket.take().unwrap();
        let c = Candidate::host(socket.local_addr().unwrap(), "udp").unwrap();
        self.rtc.add_local_candidate(c);
        self.socket = socket;
        self.answer = answer;
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
