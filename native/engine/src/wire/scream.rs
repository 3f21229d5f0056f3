//! The Scream wire format: a 5-byte header, then interleaved little-endian PCM.
//!
//! | byte | meaning |
//! |---|---|
//! | 0 | bit 7: base rate 44.1 kHz (1) or 48 kHz (0); bits 0-6: multiplier (1 = base rate) |
//! | 1 | bit depth (16, 24 or 32) |
//! | 2 | channels (1-8) |
//! | 3-4 | channel mask (WAVEFORMATEXTENSIBLE `dwChannelMask`), low byte first |
//!
//! The standard payload is 1152 bytes. Frames are not required to align with packets (five
//! channels of 16-bit audio do not divide 1152), so receivers treat the payload as a byte stream.

use crate::wire::packet::DropReason;
use tributary_dsp::sample_format::SampleFormat;

/// Length of the Scream header.
pub const HEADER_LEN: usize = 5;
/// The payload length every Scream sender uses.
pub const PAYLOAD_LEN: usize = 1152;

/// The audio format a Scream header announces.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct ScreamFormat {
    pub sample_rate: u32,
    pub bit_depth: u8,
    pub channels: u8,
    pub channel_mask: u16,
}

impl ScreamFormat {
    /// Reads and validates a header. Rates are any multiple (1-127) of 44.1 or 48 kHz that fits
    /// 384 kHz; bit depth 16/24/32; 1-8 channels.
    pub fn parse(header: &[u8]) -> Result<Self, DropReason> {
        let h: &[u8; HEADER_LEN] = header
            .get(..HEADER_LEN)
            .and_then(|h| h.try_into().ok())
            .ok_or(DropReason::Truncated)?;
        let base = if h[0] & 0x80 != 0 { 44_100 } else { 48_000 };
        let multiplier = u32::from(h[0] & 0x7f);
        let sample_rate = base * multiplier;
        if multiplier == 0 || sample_rate > 384_000 {
            return Err(DropReason::Malformed);
        }
        if !matches!(h[1], 16 | 24 | 32) || !(1..=8).contains(&h[2]) {
            return Err(DropReason::Malformed);
        }
        Ok(Self {
            sample_rate,
            bit_depth: h[1],
            channels: h[2],
            channel_mask: u16::from_le_bytes([h[3], h[4]]),
        })
    }

    /// The header bytes for this format, or `None` if the rate is not a multiple of 44.1 or
    /// 48 kHz that Scream can express.
    pub fn header(&self) -> Option<[u8; HEADER_LEN]> {
        let (flag, multiplier) = if self.sample_rate.is_multiple_of(48_000) {
            (0u8, self.sample_rate / 48_000)
        } else if self.sample_rate.is_multiple_of(44_100) {
            (0x80u8, self.sample_rate / 44_100)
        } else {
            return None;
        };
        if !(1..=0x7f).contains(&multiplier) {
            return None;
        }
        let rate_byte = flag | multiplier as u8;
        let mask = self.channel_mask.to_le_bytes();
        Some([rate_byte, self.bit_depth, self.channels, mask[0], mask[1]])
    }

    /// The PCM encoding of the payload (Scream is always little-endian).
    pub fn sample_format(&self) -> SampleFormat {
        match self.bit_depth {
            16 => SampleFormat::S16Le,
            24 => SampleFormat::S24Le,
            _ => SampleFormat::S32Le,
        }
    }

    /// Bytes per interleaved frame.
    pub fn frame_bytes(&self) -> usize {
        usize::from(self.bit_depth / 8) * usize::from(self.channels)
    }

    /// The usual WAVEFORMATEXTENSIBLE mask for a channel count (mono FC; stereo FL FR; 5.1 and
    /// 7.1 with LFE), used when a sink does not say otherwise.
    pub fn default_mask(channels: u8) -> u16 {
        match channels {
            1 => 0x4,
            2 => 0x3,
            3 => 0x7,
            4 => 0x33,
            5 => 0x37,
            6 => 0x3f,
            7 => 0x13f,
            8 => 0x63f,
            _ => 0,
        }
    }
}

/// A parsed Scream packet borrowing its payload.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ScreamPacket<'a> {
    pub format: ScreamFormat,
    pub payload: &'a [u8],
}

/// Parses a plain Scream datagram: header plus 1-1152 payload bytes.
pub fn parse(packet: &[u8]) -> Result<ScreamPacket<'_>, DropReason> {
    let format = ScreamFormat::parse(packet)?;
    let payload = &packet[HEADER_LEN..];
    if payload.is_empty() {
        return Err(DropReason::Truncated);
    }
    if payload.len() > PAYLOAD_LEN {
        return Err(DropReason::Oversized);
    }
    Ok(ScreamPacket { format, payload })
}

/// Writes header + payload into `out` and returns the datagram length.
pub fn build(format: &ScreamFormat, payload: &[u8], out: &mut [u8]) -> Option<usize> {
    let header = format.header()?;
    let len = HEADER_LEN + payload.len();
    let dst = out.get_mut(..len)?;
    dst[..HEADER_LEN].copy_from_slice(&header);
    dst[HEADER_LEN..].copy_from_slice(payload);
    Some(len)
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn rate_byte_is_a_multiplier_of_the_base() {
        for (byte, rate) in [
            (0x01, 48_000),
            (0x81, 44_100),
            (0x02, 96_000),
            (0x82, 88_200),
            (0x04, 192_000),
        ] {
            let f = ScreamFormat::parse(&[byte, 16, 2, 3, 0]).unwrap();
            assert_eq!(f.sample_rate, rate);
            assert_eq!(f.header().unwrap()[0], byte);
        }
    }

    #[test]
    fn header_fields_and_mask_are_little_endian() {
        let f = ScreamFormat::parse(&[0x01, 24, 6, 0x3f, 0x01]).unwrap();
        assert_eq!(f.bit_depth, 24);
        assert_eq!(f.channels, 6);
        assert_eq!(f.channel_mask, 0x013f);
        assert_eq!(f.sample_format(), SampleFormat::S24Le);
        assert_eq!(f.frame_bytes(), 18);
        assert_eq!(f.header().unwrap(), [0x01, 24, 6, 0x3f, 0x01]);
    }

    #[test]
    fn bad_headers_are_rejected_with_a_reason() {
        assert_eq!(ScreamFormat::parse(&[1, 16]), Err(DropReason::Truncated));
        assert_eq!(
            ScreamFormat::parse(&[0, 16, 2, 3, 0]),
            Err(DropReason::Malformed)
        );
        assert_eq!(
            ScreamFormat::parse(&[1, 8, 2, 3, 0]),
            Err(DropReason::Malformed)
        );
        assert_eq!(
            ScreamFormat::parse(&[1, 16, 0, 3, 0]),
            Err(DropReason::Malformed)
        );
        assert_eq!(
            ScreamFormat::parse(&[1, 16, 9, 3, 0]),
            Err(DropReason::Malformed)
        );
        assert_eq!(
            ScreamFormat::parse(&[0x7f, 16, 2, 3, 0]),
            Err(DropReason::Malformed)
        );
        assert_eq!(parse(&[1, 16, 2, 3, 0]), Err(DropReason::Truncated));
        let big = [0u8; HEADER_LEN + PAYLOAD_LEN + 1];
        let mut big = big;
        big[..5].copy_from_slice(&[1, 16, 2, 3, 0]);
        assert_eq!(parse(&big), Err(DropReason::Oversized));
    }

    #[test]
    fn build_then_parse_round_trips() {
        let f = ScreamFormat {
            sample_rate: 44_100,
            bit_depth: 16,
            channels: 2,
            channel_mask: 3,
        };
        let payload: Vec<u8> = (0..PAYLOAD_LEN).map(|i| i as u8).collect();
        let mut out = [0u8; 2048];
        let n = build(&f, &payload, &mut out).unwrap();
        assert_eq!(n, 1157);
        let p = parse(&out[..n]).unwrap();
        assert_eq!(p.format, f);
        assert_eq!(p.payload, &payload[..]);
        let odd = ScreamFormat {
            sample_rate: 22_050,
            ..f
        };
        assert_eq!(odd.header(), None);
    }

    proptest! {
        #[test]
        fn no_input_panics(bytes in proptest::collection::vec(any::<u8>(), 0..1400)) {
            if let Ok(p) = parse(&bytes) {
                prop_assert!(!p.payload.is_empty() && p.payload.len() <= PAYLOAD_LEN);
                prop_assert_eq!(p.format.header().map(|h| h[1..]== bytes[1..5]), Some(true));
            }
        }
    }
}
