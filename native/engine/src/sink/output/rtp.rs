//! RTP over UDP: L16 (payload type 127, or 10/11 at 44.1 kHz) or L24 (97), big-endian, frame-aligned payloads of at
//! most 1152 bytes, one packet per tick; an RTCP sender report every 5 s on port + 1. Multicast
//! destinations get the engine's multicast TTL (set on its socket).

use crate::desired::{ConfigError, SinkSpec};
use crate::sink::mix::Mixed;
use crate::sink::output::pcm::PcmEncoder;
use crate::sink::output::transport::{destination, send_datagram, SendContext, Transport};
use crate::wire::rtcp::{self, SenderInfo};
use crate::wire::rtp::{self, HEADER_LEN, MAX_SEND_PAYLOAD};
use std::net::SocketAddr;
use std::time::{Duration, Instant, SystemTime};

const SR_INTERVAL: Duration = Duration::from_secs(5);

/// The stream's identity and position (kept when the sink is rebuilt for the same receiver).
struct RtpState {
    ssrc: u32,
    sequence: u16,
    timestamp: u32,
    packets: u32,
    octets: u32,
    next_sr: Option<Instant>,
}

pub struct RtpOutput {
    pcm: PcmEncoder,
    frames_per_tick: usize,
    period: Duration,
    payload_type: u8,
    dest: Option<SocketAddr>,
    /// Bytes encoded for the packet due now (`None` until rendered).
    pending: Option<usize>,
    packet: [u8; HEADER_LEN + MAX_SEND_PAYLOAD],
    state: RtpState,
}

impl Transport for RtpOutput {
    fn new(spec: &SinkSpec, seed: u64) -> Result<Self, ConfigError> {
        let frames_per_tick = Self::max_frames(spec);
        let pcm = PcmEncoder::new(spec, frames_per_tick)?;
        let now_wall = SystemTime::now()
            .duration_since(SystemTime::UNIX_EPOCH)
            .unwrap_or_default();
        let seed = seed ^ now_wall.as_nanos() as u64;
        Ok(Self {
            period: Duration::from_secs_f64(frames_per_tick as f64 / f64::from(spec.sample_rate)),
            frames_per_tick,
            payload_type: spec.rtp_payload_type(),
            pcm,
            dest: destination(spec),
            pending: None,
            packet: [0; HEADER_LEN + MAX_SEND_PAYLOAD],
            state: RtpState {
                ssrc: (seed >> 32) as u32 ^ seed as u32,
                sequence: (seed >> 16) as u16,
                timestamp: (seed >> 8) as u32,
                packets: 0,
                octets: 0,
                next_sr: None,
            },
        })
    }

    fn max_frames(spec: &SinkSpec) -> usize {
        (MAX_SEND_PAYLOAD / PcmEncoder::frame_bytes_of(spec)).max(1)
    }

    fn period(&self) -> Duration {
        self.period
    }

    fn next_render(&self) -> Option<(usize, f64)> {
        self.pending
            .is_none()
            .then_some((self.frames_per_tick, 0.0))
    }

    fn take(&mut self, mixed: Mixed<'_>) {
        let bytes = self.pcm.encode(mixed);
        let n = bytes.len();
        self.packet[HEADER_LEN..HEADER_LEN + n].copy_from_slice(bytes);
        self.pending = Some(n);
    }

    fn send(&mut self, context: &SendContext<'_>) {
        let bytes = self.pending.take().unwrap_or(0);
        let frames = (bytes / self.pcm.frame_bytes) as u32;
        let Some(dest) = self.dest else { return };
        let s = &mut self.state;
        let header: &mut [u8; HEADER_LEN] = (&mut self.packet[..HEADER_LEN])
            .try_into()
            .expect("header slice");
        rtp::write_header(
            header,
            false,
            self.payload_type,
            s.sequence,
            s.timestamp,
            s.ssrc,
        );
        s.sequence = s.sequence.wrapping_add(1);
        s.timestamp = s.timestamp.wrapping_add(frames);
        send_datagram(context, &self.packet[..HEADER_LEN + bytes], dest);
        s.packets = s.packets.wrapping_add(1);
        s.octets = s.octets.wrapping_add(bytes as u32);
        if s.next_sr.is_none_or(|due| context.now >= due) {
            s.next_sr = Some(context.now + SR_INTERVAL);
            let since_epoch = SystemTime::now()
                .duration_since(SystemTime::UNIX_EPOCH)
                .unwrap_or_default();
            let info = SenderInfo {
                ntp_timestamp: rtcp::ntp_timestamp(since_epoch),
                rtp_timestamp: s.timestamp,
                packet_count: s.packets,
                octet_count: s.octets,
            };
            let mut buf = [0u8; 64];
            if let Some(n) = rtcp::build_sender_report(s.ssrc, &info, b"tributary", &mut buf) {
                let rtcp_dest = SocketAddr::new(dest.ip(), dest.port().wrapping_add(1));
                let _ = context.socket.send_to(&buf[..n], rtcp_dest);
            }
        }
    }

    fn continue_from(&mut self, previous: &Self) {
        if previous.dest == self.dest {
            self.state.ssrc = previous.state.ssrc;
            self.state.sequence = previous.state.sequence;
            self.state.timestamp = previous.state.timestamp;
        }
    }
}
