//! RTP (RFC 3550) packets and the PCM payload formats Tributary plays: L16/S16BE, S16LE and
//! L24/S24BE, 1-8 channels, at any rate.

use crate::limits::{CHANNELS_MAX, SAMPLE_RATE_MAX, SAMPLE_RATE_MIN};
use crate::wire::packet::DropReason;
use tributary_dsp::sample_format::SampleFormat;

/// Fixed RTP header length (no CSRC, no extension).
pub const HEADER_LEN: usize = 12;
/// Largest RTP payload Tributary sends: the product's "MTU" of 1152 bytes.
pub const MAX_SEND_PAYLOAD: usize = 1152;

/// A parsed RTP packet borrowing from the datagram.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RtpPacket<'a> {
    pub marker: bool,
    pub payload_type: u8,
    pub sequence: u16,
    pub timestamp: u32,
    pub ssrc: u32,
    /// Contributing sources (0-15), as raw big-endian words.
    pub csrc: &'a [u8],
    /// Header extension: profile-defined id and its data (a multiple of 4 bytes).
    pub extension: Option<(u16, &'a [u8])>,
    /// Payload with any padding removed.
    pub payload: &'a [u8],
}

impl RtpPacket<'_> {
    /// Number of contributing sources.
    pub fn csrc_count(&self) -> usize {
        self.csrc.len() / 4
    }
}

/// Parses an RTP datagram. RTCP packets (payload types 72-76 with the marker bit, i.e. second
/// byte 200-204) are rejected as malformed so a shared port cannot confuse them.
pub fn parse(packet: &[u8]) -> Result<RtpPacket<'_>, DropReason> {
    let h = packet.get(..HEADER_LEN).ok_or(DropReason::Truncated)?;
    if h[0] >> 6 != 2 {
        return Err(DropReason::Malformed);
    }
    if (200..=204).contains(&h[1]) {
        return Err(DropReason::Malformed);
    }
    let padding = h[0] & 0x20 != 0;
    let has_extension = h[0] & 0x10 != 0;
    let cc = usize::from(h[0] & 0x0f);
    let mut at = HEADER_LEN;
    let csrc = packet.get(at..at + 4 * cc).ok_or(DropReason::Truncated)?;
    at += 4 * cc;
    let extension = if has_extension {
        let e = packet.get(at..at + 4).ok_or(DropReason::Truncated)?;
        let profile = u16::from_be_bytes([e[0], e[1]]);
        let words = usize::from(u16::from_be_bytes([e[2], e[3]]));
        at += 4;
        let data = packet
            .get(at..at + 4 * words)
            .ok_or(DropReason::Truncated)?;
        at += 4 * words;
        Some((profile, data))
    } else {
        None
    };
    let mut end = packet.len();
    if padding {
        let pad = usize::from(*packet.last().ok_or(DropReason::Truncated)?);
        if pad == 0 || pad > end - at {
            return Err(DropReason::Malformed);
        }
        end -= pad;
    }
    Ok(RtpPacket {
        marker: h[1] & 0x80 != 0,
        payload_type: h[1] & 0x7f,
        sequence: u16::from_be_bytes([h[2], h[3]]),
        timestamp: u32::from_be_bytes([h[4], h[5], h[6], h[7]]),
        ssrc: u32::from_be_bytes([h[8], h[9], h[10], h[11]]),
        csrc,
        extension,
        payload: &packet[at..end],
    })
}

/// Writes a 12-byte header (no CSRC, extension or padding) into `out[..12]`.
pub fn write_header(
    out: &mut [u8; HEADER_LEN],
    marker: bool,
    payload_type: u8,
    sequence: u16,
    timestamp: u32,
    ssrc: u32,
) {
    out[0] = 0x80;
    out[1] = (payload_type & 0x7f) | if marker { 0x80 } else { 0 };
    out[2..4].copy_from_slice(&sequence.to_be_bytes());
    out[4..8].copy_from_slice(&timestamp.to_be_bytes());
    out[8..12].copy_from_slice(&ssrc.to_be_bytes());
}

/// The payload type Tributary sends for PCM of this depth, rate and channels: the static type
/// where RFC 3551 has one (10: L16 44.1 kHz stereo, 11: mono), else 127 for L16 and 97 for L24.
/// 127 because PulseAudio's `module-rtp-recv` (GStreamer backend, 16.1) plays an L16 stream only
/// under the type it derives from the format (10, 11, else 127), whatever the announcement says:
/// anything else it drops ("No clock-rate in caps!"). L24 keeps 97: PulseAudio refuses its
/// announcement, where 127 would have it play L24 as noise. RTP sinks and `tributary send` use it.
pub fn usual_payload_type(bit_depth: u8, sample_rate: u32, channels: u8) -> u8 {
    match (bit_depth, sample_rate, channels) {
        (16, 44_100, 2) => 10,
        (16, 44_100, 1) => 11,
        (24, _, _) => 97,
        _ => 127,
    }
}

/// The PCM layout of an RTP stream.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct RtpFormat {
    pub encoding: SampleFormat,
    pub sample_rate: u32,
    pub channels: u8,
}

impl RtpFormat {
    /// L16 stereo at 48 kHz: what most senders (PipeWire, ffmpeg, GStreamer) use.
    pub const DEFAULT: RtpFormat = RtpFormat {
        encoding: SampleFormat::S16Be,
        sample_rate: 48_000,
        channels: 2,
    };

    /// Validates a format: an RTP encoding Tributary plays, 1-8 channels, 8-384 kHz.
    pub fn new(encoding: SampleFormat, sample_rate: u32, channels: u8) -> Option<Self> {
        let playable = matches!(
            encoding,
            SampleFormat::S16Be | SampleFormat::S16Le | SampleFormat::S24Be
        );
        (playable
            && (1..=CHANNELS_MAX).contains(&channels)
            && (SAMPLE_RATE_MIN..=SAMPLE_RATE_MAX).contains(&sample_rate))
        .then_some(Self {
            encoding,
            sample_rate,
            channels,
        })
    }

    /// The RFC 3551 static payload types: 10 is L16 stereo 44.1 kHz, 11 L16 mono 44.1 kHz.
    pub fn from_static_payload_type(pt: u8) -> Option<Self> {
        match pt {
            10 => Some(Self {
                encoding: SampleFormat::S16Be,
                sample_rate: 44_100,
                channels: 2,
            }),
            11 => Some(Self {
                encoding: SampleFormat::S16Be,
                sample_rate: 44_100,
                channels: 1,
            }),
            _ => None,
        }
    }

    /// Bytes per interleaved frame.
    pub fn frame_bytes(&self) -> usize {
        self.encoding.bytes_per_sample() * usize::from(self.channels)
    }

    /// The most whole frames that fit in `max_payload` bytes (at least 1).
    pub fn frames_per_packet(&self, max_payload: usize) -> usize {
        (max_payload / self.frame_bytes()).max(1)
    }

    /// The SDP encoding name (`L16`, `L24`, or `S16LE` for the non-standard little-endian one).
    pub fn encoding_name(&self) -> &'static str {
        match self.encoding {
            SampleFormat::S16Le => "S16LE",
            SampleFormat::S24Be => "L24",
            _ => "L16",
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn packet(first: u8, tail: &[u8]) -> Vec<u8> {
        let mut p = vec![first, 96, 0x12, 0x34, 0, 0, 0x10, 0, 0xde, 0xad, 0xbe, 0xef];
        p.extend_from_slice(tail);
        p
    }

    #[test]
    fn parses_the_fixed_header() {
        let mut h = [0u8; HEADER_LEN];
        write_header(&mut h, true, 97, 65_535, 4_000_000_000, 42);
        let mut p = h.to_vec();
        p.extend_from_slice(&[1, 2, 3, 4]);
        let r = parse(&p).unwrap();
        assert!(r.marker);
        assert_eq!(
            (r.payload_type, r.sequence, r.timestamp, r.ssrc),
            (97, 65_535, 4_000_000_000, 42)
        );
        assert_eq!(r.payload, &[1, 2, 3, 4]);
        assert_eq!(r.csrc_count(), 0);
        assert_eq!(r.extension, None);
    }

    #[test]
    fn skips_csrc_and_extension_and_strips_padding() {
        let mut tail = vec![0, 0, 0, 1, 0, 0, 0, 2]; // two CSRCs
        tail.extend_from_slice(&[0xbe, 0xde, 0, 1, 9, 9, 9, 9]); // one-word extension
        tail.extend_from_slice(&[0xaa, 0xbb, 0, 0, 3]); // payload + 3 bytes padding
        let p = packet(0x80 | 0x20 | 0x10 | 2, &tail);
        let r = parse(&p).unwrap();
        assert_eq!(r.csrc_count(), 2);
        assert_eq!(r.extension, Some((0xbede, &[9u8, 9, 9, 9][..])));
        assert_eq!(r.payload, &[0xaa, 0xbb]);
        assert_eq!(r.timestamp, 0x1000);
    }

    #[test]
    fn rejects_bad_versions_padding_truncation_and_rtcp() {
        assert_eq!(parse(&packet(0x40, &[1])), Err(DropReason::Malformed));
        assert_eq!(parse(&packet(0xa0, &[1, 0])), Err(DropReason::Malformed));
        assert_eq!(parse(&packet(0xa0, &[1, 9])), Err(DropReason::Malformed));
        assert_eq!(parse(&packet(0x83, &[0; 8])), Err(DropReason::Truncated));
        assert_eq!(
            parse(&packet(0x90, &[0, 0, 0, 2, 1])),
            Err(DropReason::Truncated)
        );
        assert_eq!(parse(&[0x80; 11]), Err(DropReason::Truncated));
        let mut sr = packet(0x80, &[]);
        sr[1] = 200;
        assert_eq!(parse(&sr), Err(DropReason::Malformed));
    }

    #[test]
    fn formats_validate_and_size_packets() {
        assert_eq!(RtpFormat::new(SampleFormat::S32Le, 48_000, 2), None);
        assert_eq!(RtpFormat::new(SampleFormat::S16Be, 48_000, 9), None);
        let l24 = RtpFormat::new(SampleFormat::S24Be, 96_000, 6).unwrap();
        assert_eq!(l24.frame_bytes(), 18);
        assert_eq!(l24.frames_per_packet(MAX_SEND_PAYLOAD), 64);
        assert_eq!(RtpFormat::DEFAULT.frames_per_packet(MAX_SEND_PAYLOAD), 288);
        let l16_5 = RtpFormat::new(SampleFormat::S16Be, 48_000, 5).unwrap();
        assert_eq!(l16_5.frames_per_packet(MAX_SEND_PAYLOAD) * 10, 1150);
        assert_eq!(
            RtpFormat::from_static_payload_type(10).unwrap().sample_rate,
            44_100
        );
        assert_eq!(l24.encoding_name(), "L24");
    }

    proptest! {
        #[test]
        fn no_input_panics(bytes in proptest::collection::vec(any::<u8>(), 0..1500)) {
            if let Ok(p) = parse(&bytes) {
                prop_assert!(p.payload.len() + HEADER_LEN <= bytes.len());
                prop_assert!(p.csrc_count() <= 15);
            }
        }

        #[test]
        fn version_two_garbage_never_panics(
            first in 0x80u8..0xc0,
            tail in proptest::collection::vec(any::<u8>(), 0..200),
        ) {
            let _ = parse(&packet(first, &tail));
        }
    }
}
