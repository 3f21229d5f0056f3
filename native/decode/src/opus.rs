//! Ogg Opus packets to f32 through libopus (the `opus` crate): symphonia demuxes Ogg and hands
//! over Opus packets, but has no Opus decoder. Opus always decodes at 48 kHz.

use crate::error::DecodeError;
use opus::{Channels, Decoder};

/// Opus decodes at this rate whatever the encoder was fed.
pub const OPUS_RATE: u32 = 48_000;
/// The longest Opus packet: 120 ms at 48 kHz.
const MAX_PACKET_FRAMES: usize = 5760;

/// The fields of the Opus identification header (RFC 7845, 5.1) the decoder needs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct OpusHead {
    pub channels: u8,
    /// Frames at 48 kHz to drop from the start (the encoder's look-ahead).
    pub pre_skip: u16,
    /// Gain to apply, Q7.8 dB.
    pub output_gain: i16,
    pub mapping_family: u8,
}

impl OpusHead {
    /// Reads an `OpusHead` packet (what symphonia's Ogg reader gives as the track's extra data).
    pub fn parse(head: &[u8]) -> Result<OpusHead, DecodeError> {
        if head.len() < 19 || &head[..8] != b"OpusHead" {
            return Err(DecodeError::Corrupt(
                "opus: the identification header is missing or short".into(),
            ));
        }
        Ok(OpusHead {
            channels: head[9],
            pre_skip: u16::from_le_bytes([head[10], head[11]]),
            output_gain: i16::from_le_bytes([head[16], head[17]]),
            mapping_family: head[18],
        })
    }
}

/// One Opus stream's decoder (mono or stereo).
pub struct OpusStream {
    decoder: Decoder,
    channels: usize,
    /// Frames still to drop from the start.
    skip: usize,
    out: Vec<f32>,
}

impl OpusStream {
    /// A decoder for the stream `head` describes. Multistream Opus (more than two channels, or
    /// a channel mapping family other than 0) is not supported: the `opus` crate decodes one
    /// stream.
    pub fn new(head: OpusHead) -> Result<OpusStream, DecodeError> {
        let channels = match (head.mapping_family, head.channels) {
            (0, 1) => Channels::Mono,
            (0, 2) => Channels::Stereo,
            (family, n) => {
                return Err(DecodeError::UnsupportedCodec(format!(
                    "opus with {n} channels in channel mapping family {family} (multistream; mono and stereo are supported)"
                )))
            }
        };
        let opus_err = |e: opus::Error| DecodeError::Corrupt(format!("opus: {e}"));
        let mut decoder = Decoder::new(OPUS_RATE, channels).map_err(opus_err)?;
        if head.output_gain != 0 {
            decoder
                .set_gain(i32::from(head.output_gain))
                .map_err(opus_err)?;
        }
        let channels = usize::from(head.channels);
        Ok(OpusStream {
            decoder,
            channels,
            skip: usize::from(head.pre_skip),
            out: vec![0.0; MAX_PACKET_FRAMES * channels],
        })
    }

    pub fn channels(&self) -> usize {
        self.channels
    }

    /// Decodes one packet to interleaved f32, minus the pre-skip at the start; an error for a
    /// packet libopus refuses (the caller skips it).
    pub fn decode(&mut self, packet: &[u8]) -> Result<&[f32], String> {
        let frames = self
            .decoder
            .decode_float(packet, &mut self.out, false)
            .map_err(|e| format!("opus: {e}"))?;
        let skip = self.skip.min(frames);
        self.skip -= skip;
        Ok(&self.out[skip * self.channels..frames * self.channels])
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_the_head_and_refuses_multistream() {
        let mut head = b"OpusHead\x01\x02\x38\x01\x80\xbb\0\0\0\0\0".to_vec();
        let h = OpusHead::parse(&head).unwrap();
        assert_eq!((h.channels, h.pre_skip, h.mapping_family), (2, 312, 0));
        assert!(OpusStream::new(h).is_ok());
        head[9] = 6;
        head[18] = 1;
        let err = OpusStream::new(OpusHead::parse(&head).unwrap())
            .err()
            .unwrap();
        assert!(err.to_string().contains("6 channels"), "{err}");
        assert!(OpusHead::parse(b"OpusTags").is_err());
    }
}
