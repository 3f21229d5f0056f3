//! The PCM encoding every current transport sends: the mix in the sink's sample format, no
//! dither (silence must stay digital silence on the wire).

use crate::desired::{ConfigError, SinkSpec};
use crate::sink::mix::Mixed;
use tributary_dsp::Encoder;

/// Encodes a sink's renders into interleaved PCM.
pub struct PcmEncoder {
    pub frame_bytes: usize,
    encoder: Encoder,
    encoded: Vec<u8>,
}

impl PcmEncoder {
    /// An encoder for `spec`'s format, for renders of at most `max_frames` frames.
    pub fn new(spec: &SinkSpec, max_frames: usize) -> Result<Self, ConfigError> {
        let format = spec.sample_format()?;
        let frame_bytes = format.bytes_per_sample() * spec.layout.channels();
        Ok(Self {
            frame_bytes,
            encoder: Encoder::new(format, false),
            encoded: vec![0; max_frames * frame_bytes],
        })
    }

    /// Bytes per frame of `spec`'s format (2 per sample when the format is not playable).
    pub fn frame_bytes_of(spec: &SinkSpec) -> usize {
        let bytes = spec.sample_format().map_or(2, |f| f.bytes_per_sample());
        bytes * spec.layout.channels().max(1)
    }

    /// Encodes `mixed`; returns the bytes (digital silence encodes as zero bytes in every
    /// format, without running the encoder).
    pub fn encode(&mut self, mixed: Mixed<'_>) -> &[u8] {
        let n = match mixed {
            Mixed::Audio(buf) => self
                .encoder
                .encode_into(buf, &mut self.encoded)
                .unwrap_or(0),
            Mixed::Silence(frames) => {
                let bytes = (frames * self.frame_bytes).min(self.encoded.len());
                self.encoded[..bytes].fill(0);
                bytes
            }
        };
        &self.encoded[..n]
    }
}
