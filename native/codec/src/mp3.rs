//! MP3 (MPEG-1 Layer III) through LAME, built from source by `mp3lame-encoder`: constant bit
//! rate, stereo, whole frames out. LAME's default algorithm quality (the `lame` CLI's).
//!
//! Why 320 kbit/s is the top: MPEG-1 Layer III defines bit rates up to 320 kbit/s (a 4-bit
//! index, 15 values); there is no 384 kbit/s frame. LAME clamps `-b 384` to 320.

use crate::error::CodecError;
use crate::frames::{FrameHeader, FrameSplitter};
use mp3lame_encoder::{Bitrate, Builder, Encoder, FlushNoGap, InterleavedPcm, Mode};
use std::fmt;
use std::num::NonZeroU32;

/// Bit rates (kbit/s) a stream may use: MPEG-1 Layer III's, but 56 (which the binding does
/// not offer).
pub const MP3_BITRATES: [u32; 13] = [32, 40, 48, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320];
/// The highest MPEG-1 Layer III rate.
pub const MP3_DEFAULT_BITRATE: u32 = 320;
/// PCM frames per MPEG-1 Layer III frame.
const FRAME_SAMPLES: usize = 1152;

/// The MPEG-1 rate a stream of a sink at `input_rate` is encoded at: 32, 44.1 and 48 kHz as
/// they are; other multiples of 44.1 kHz at 44.1 kHz; everything else at 48 kHz (LAME
/// resamples).
pub fn mp3_output_rate(input_rate: u32) -> u32 {
    match input_rate {
        32_000 | 44_100 | 48_000 => input_rate,
        r if r % 11_025 == 0 => 44_100,
        _ => 48_000,
    }
}

fn bitrate(kbps: u32) -> Option<Bitrate> {
    Some(match kbps {
        32 => Bitrate::Kbps32,
        40 => Bitrate::Kbps40,
        48 => Bitrate::Kbps48,
        64 => Bitrate::Kbps64,
        80 => Bitrate::Kbps80,
        96 => Bitrate::Kbps96,
        112 => Bitrate::Kbps112,
        128 => Bitrate::Kbps128,
        160 => Bitrate::Kbps160,
        192 => Bitrate::Kbps192,
        224 => Bitrate::Kbps224,
        256 => Bitrate::Kbps256,
        320 => Bitrate::Kbps320,
        _ => return None,
    })
}

/// A CBR stereo MP3 encoder of interleaved f32 (-1..1) at one input rate. Buffers are sized at
/// construction for blocks of up to `max_block` frames; `encode` does not allocate then.
pub struct Mp3Encoder {
    lame: Encoder,
    out: Vec<u8>,
    splitter: FrameSplitter,
    max_block: usize,
    input_rate: u32,
    bitrate_kbps: u32,
}

impl Mp3Encoder {
    /// An encoder of stereo at `input_rate` into `bitrate_kbps` CBR (one of [`MP3_BITRATES`]),
    /// for blocks of at most `max_block` frames.
    pub fn new(input_rate: u32, bitrate_kbps: u32, max_block: usize) -> Result<Self, CodecError> {
        let rate = bitrate(bitrate_kbps).ok_or_else(|| {
            CodecError(format!(
                "bit rate {bitrate_kbps} kbit/s is not one of {MP3_BITRATES:?}"
            ))
        })?;
        let fail = |what: &str, e: &dyn fmt::Debug| CodecError(format!("LAME {what}: {e:?}"));
        let mut b = Builder::new().ok_or_else(|| CodecError("LAME could not start".into()))?;
        b.set_num_channels(2).map_err(|e| fail("channels", &e))?;
        b.set_sample_rate(input_rate)
            .map_err(|e| fail("sample rate", &e))?;
        b.set_output_sample_rate(NonZeroU32::new(mp3_output_rate(input_rate)))
            .map_err(|e| fail("output rate", &e))?;
        b.set_brate(rate).map_err(|e| fail("bit rate", &e))?;
        b.set_mode(Mode::JointStereo)
            .map_err(|e| fail("mode", &e))?;
        b.set_to_write_vbr_tag(false).map_err(|e| fail("tag", &e))?;
        let lame = b.build().map_err(|e| fail("parameters", &e))?;
        let out = mp3lame_encoder::max_required_buffer_size(max_block * 2);
        Ok(Self {
            lame,
            out: Vec::with_capacity(out),
            splitter: FrameSplitter::with_capacity(out + 2 * 1441),
            max_block,
            input_rate,
            bitrate_kbps,
        })
    }

    pub fn input_rate(&self) -> u32 {
        self.input_rate
    }

    pub fn bitrate_kbps(&self) -> u32 {
        self.bitrate_kbps
    }

    /// PCM frames (at the input rate) per MP3 frame, rounded up.
    pub fn input_frames_per_mp3_frame(&self) -> usize {
        let out = mp3_output_rate(self.input_rate) as usize;
        (FRAME_SAMPLES * self.input_rate as usize).div_ceil(out)
    }

    /// Encodes `interleaved` stereo (at most `max_block` frames per call; longer input is
    /// encoded in pieces) and calls `frame` with every MP3 frame completed.
    pub fn encode(
        &mut self,
        interleaved: &[f32],
        mut frame: impl FnMut(&[u8], &FrameHeader),
    ) -> Result<(), CodecError> {
        for block in interleaved.chunks(self.max_block * 2) {
            self.out.clear();
            self.lame
                .encode_to_vec(InterleavedPcm(block), &mut self.out)
                .map_err(|e| CodecError(format!("LAME encode: {e:?}")))?;
            self.splitter.push(&self.out, &mut frame);
        }
        Ok(())
    }

    /// Encodes what LAME still holds (the last frames) and calls `frame` with them.
    pub fn finish(&mut self, frame: impl FnMut(&[u8], &FrameHeader)) -> Result<(), CodecError> {
        self.out.clear();
        self.out.reserve(7200);
        self.lame
            .flush_to_vec::<FlushNoGap>(&mut self.out)
            .map_err(|e| CodecError(format!("LAME flush: {e:?}")))?;
        self.splitter.push(&self.out, frame);
        Ok(())
    }
}

#[cfg(test)]
mod tests;
