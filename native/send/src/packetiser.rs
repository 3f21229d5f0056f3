//! PCM frames to datagrams, with no I/O and no allocation per packet: the caller captures one
//! payload of PCM straight into `packet[header_len..]` of a buffer of its own
//! ([`Packetiser::payload_mut`]) and [`Packetiser::finish`] writes the header in front of it.
//! The headers are the engine's own (`tributary_engine::wire`): RTP ([`rtp::write_header`], the
//! payload type its RTP sinks send for the format) and Scream ([`ScreamFormat::header`]).
//!
//! Payloads hold whole frames, at most the product's 1152 bytes: 288 frames (6 ms) of 48 kHz
//! 16-bit stereo, in RTP as L16 (big-endian) and in Scream as little-endian PCM.

use tributary_dsp::sample_format::SampleFormat;
use tributary_engine::limits::CHANNELS_MAX;
use tributary_engine::wire::rtp::{self, RtpFormat, MAX_SEND_PAYLOAD};
use tributary_engine::wire::scream::{self, ScreamFormat};

/// The most bytes of PCM in one packet (the product's 1152-byte rule).
pub const MAX_PAYLOAD: usize = MAX_SEND_PAYLOAD;
/// The longest datagram: an RTP header and 1152 bytes (Scream's header is shorter).
pub const MAX_DATAGRAM: usize = rtp::HEADER_LEN + MAX_PAYLOAD;
/// Bits per sample sent (16-bit only in this slice).
pub const BIT_DEPTH: u8 = 16;

/// The wire protocol.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Protocol {
    /// RTP, L16 (big-endian).
    Rtp,
    /// Scream, 16-bit little-endian.
    Scream,
}

impl Protocol {
    pub fn name(self) -> &'static str {
        match self {
            Protocol::Rtp => "RTP",
            Protocol::Scream => "Scream",
        }
    }
}

/// Where an RTP stream starts: random for each run (RFC 3550 section 5.1).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RtpStart {
    pub ssrc: u32,
    pub sequence: u16,
    pub timestamp: u32,
}

/// Frames each packet and numbers the RTP stream.
#[derive(Debug)]
pub struct Packetiser {
    protocol: Protocol,
    header_len: usize,
    payload_len: usize,
    frame_bytes: usize,
    sample_format: SampleFormat,
    scream_header: [u8; scream::HEADER_LEN],
    payload_type: u8,
    next: RtpStart,
    first: bool,
}

impl Packetiser {
    /// A packetiser for 16-bit PCM at `rate` Hz with `channels` channels; an error (in words,
    /// naming the rule) when the protocol cannot carry that format.
    pub fn new(
        protocol: Protocol,
        rate: u32,
        channels: u8,
        start: RtpStart,
    ) -> Result<Self, String> {
        if !(1..=CHANNELS_MAX).contains(&channels) {
            return Err(format!("{channels} channels: 1 to {CHANNELS_MAX}"));
        }
        let (header_len, sample_format, scream_header) = match protocol {
            Protocol::Rtp => {
                RtpFormat::new(SampleFormat::S16Be, rate, channels)
                    .ok_or_else(|| format!("{rate} Hz: RTP carries 8000 to 384000 Hz"))?;
                (
                    rtp::HEADER_LEN,
                    SampleFormat::S16Be,
                    [0; scream::HEADER_LEN],
                )
            }
            Protocol::Scream => {
                let format = ScreamFormat {
                    sample_rate: rate,
                    bit_depth: BIT_DEPTH,
                    channels,
                    channel_mask: ScreamFormat::default_mask(channels),
                };
                let header = format.header().ok_or_else(|| {
                    format!("{rate} Hz: Scream carries 44100 or 48000 Hz times 1 to 8")
                })?;
                (scream::HEADER_LEN, SampleFormat::S16Le, header)
            }
        };
        let frame_bytes = usize::from(BIT_DEPTH / 8) * usize::from(channels);
        Ok(Self {
            protocol,
            header_len,
            payload_len: MAX_PAYLOAD / frame_bytes * frame_bytes,
            frame_bytes,
            sample_format,
            scream_header,
            payload_type: rtp::usual_payload_type(BIT_DEPTH, rate, channels),
            next: start,
            first: true,
        })
    }

    pub fn protocol(&self) -> Protocol {
        self.protocol
    }

    /// The PCM encoding the payload holds (what to capture in).
    pub fn sample_format(&self) -> SampleFormat {
        self.sample_format
    }

    /// Bytes of PCM in every packet (whole frames, at most 1152).
    pub fn payload_len(&self) -> usize {
        self.payload_len
    }

    /// Frames in every packet.
    pub fn frames_per_packet(&self) -> usize {
        self.payload_len / self.frame_bytes
    }

    /// The RTP payload type sent (what Tributary's RTP sinks send for the format).
    pub fn payload_type(&self) -> u8 {
        self.payload_type
    }

    /// Where the next packet's payload goes in `packet` (at least [`MAX_DATAGRAM`] long).
    pub fn payload_mut<'a>(&self, packet: &'a mut [u8]) -> &'a mut [u8] {
        &mut packet[self.header_len..self.header_len + self.payload_len]
    }

    /// Writes the header in front of the payload already in [`Self::payload_mut`] and returns
    /// the datagram's length; advances the RTP sequence (by 1) and timestamp (by the frames).
    /// The first RTP packet carries the marker bit (the start of a talkspurt, RFC 3551).
    pub fn finish(&mut self, packet: &mut [u8]) -> usize {
        match self.protocol {
            Protocol::Rtp => {
                let header: &mut [u8; rtp::HEADER_LEN] = (&mut packet[..rtp::HEADER_LEN])
                    .try_into()
                    .expect("a packet buffer of MAX_DATAGRAM bytes");
                let frames = self.frames_per_packet() as u32;
                let n = &mut self.next;
                rtp::write_header(
                    header,
                    self.first,
                    self.payload_type,
                    n.sequence,
                    n.timestamp,
                    n.ssrc,
                );
                n.sequence = n.sequence.wrapping_add(1);
                n.timestamp = n.timestamp.wrapping_add(frames);
            }
            Protocol::Scream => packet[..scream::HEADER_LEN].copy_from_slice(&self.scream_header),
        }
        self.first = false;
        self.header_len + self.payload_len
    }
}

/// A random RTP start from the kernel (`getrandom`); the clock's nanoseconds if it fails.
pub fn random_start() -> RtpStart {
    let mut bytes = [0u8; 10];
    // SAFETY: the kernel writes at most `bytes.len()` bytes into the buffer.
    let got = unsafe { libc::getrandom(bytes.as_mut_ptr().cast(), bytes.len(), 0) };
    if got != bytes.len() as isize {
        let nanos = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .unwrap_or_default()
            .as_nanos();
        bytes.copy_from_slice(&nanos.to_le_bytes()[..10]);
    }
    RtpStart {
        ssrc: u32::from_le_bytes(bytes[..4].try_into().unwrap()),
        sequence: u16::from_le_bytes(bytes[4..6].try_into().unwrap()),
        timestamp: u32::from_le_bytes(bytes[6..].try_into().unwrap()),
    }
}

#[cfg(test)]
mod tests;
