//! Opus through libopus (built from source by the `opus` crate): 48 kHz stereo, 20 ms frames,
//! the three listening profiles of the product spec. The encoder of WebRTC (WHEP) listening;
//! the WebRTC transport is `tributary_engine::sink::listen::whep`.

use crate::error::CodecError;
use opus::{Application, Bitrate, Channels, Encoder};

/// Opus runs at 48 kHz here (WebRTC's clock for Opus).
pub const OPUS_RATE: u32 = 48_000;
/// Stereo frames per 20 ms packet.
pub const OPUS_FRAME: usize = 960;
/// The largest packet libopus writes for one frame (RFC 6716: 1275 bytes per frame).
pub const OPUS_MAX_PACKET: usize = 1275;

/// A listening profile: bit rate and encoder complexity.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct OpusProfile {
    pub name: &'static str,
    pub bitrate: i32,
    pub complexity: i32,
}

/// Low Latency, Balanced and High Quality, as the product spec names them.
pub const OPUS_PROFILES: [OpusProfile; 3] = [
    OpusProfile {
        name: "low_latency",
        bitrate: 64_000,
        complexity: 5,
    },
    OpusProfile {
        name: "balanced",
        bitrate: 128_000,
        complexity: 8,
    },
    OpusProfile {
        name: "high_quality",
        bitrate: 256_000,
        complexity: 10,
    },
];

/// An Opus encoder of 48 kHz interleaved stereo f32 into 20 ms packets.
pub struct OpusEncoder {
    encoder: Encoder,
    pending: Vec<f32>,
    packet: [u8; OPUS_MAX_PACKET],
}

impl OpusEncoder {
    pub fn new(profile: OpusProfile) -> Result<Self, CodecError> {
        let fail = |what: &str, e: opus::Error| CodecError(format!("libopus {what}: {e}"));
        let mut encoder = Encoder::new(OPUS_RATE, Channels::Stereo, Application::Audio)
            .map_err(|e| fail("init", e))?;
        encoder
            .set_bitrate(Bitrate::Bits(profile.bitrate))
            .map_err(|e| fail("bitrate", e))?;
        encoder
            .set_complexity(profile.complexity)
            .map_err(|e| fail("complexity", e))?;
        Ok(Self {
            encoder,
            pending: Vec::with_capacity(OPUS_FRAME * 2 * 4),
            packet: [0; OPUS_MAX_PACKET],
        })
    }

    /// Adds interleaved stereo and calls `packet` with each 20 ms packet completed.
    pub fn encode(
        &mut self,
        interleaved: &[f32],
        mut packet: impl FnMut(&[u8]),
    ) -> Result<(), CodecError> {
        self.pending.extend_from_slice(interleaved);
        let frame = OPUS_FRAME * 2;
        let mut at = 0;
        while self.pending.len() - at >= frame {
            let n = self
                .encoder
                .encode_float(&self.pending[at..at + frame], &mut self.packet)
                .map_err(|e| CodecError(format!("libopus encode: {e}")))?;
            packet(&self.packet[..n]);
            at += frame;
        }
        self.pending.drain(..at);
        Ok(())
    }
}

#[cfg(test)]
mod tests;
