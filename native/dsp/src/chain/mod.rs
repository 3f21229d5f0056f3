//! The route pipeline: input format -> channel matrix -> resample -> EQ -> volume -> delay ->
//! normalisation -> output format.
//!
//! A [`Chain`] is built once with its [`ChainConfig`] and then fed bytes of any length
//! ([`Chain::process_into`]); partial frames are carried to the next call. Stages that would
//! do nothing are skipped, and when every stage is neutral and the input and output formats
//! are identical the bytes are copied unchanged (bit-exact passthrough, even for 32-bit
//! samples, which f32 could not carry exactly). Real-time calls never allocate.

use crate::buffer::AudioBuffer;
use crate::delay::DelayLine;
use crate::denormal::FlushDenormals;
use crate::eq::{validate_gains, Equalizer, BANDS, FLAT};
use crate::error::{invalid, DspError};
use crate::format::StreamFormat;
use crate::matrix::MixMatrix;
use crate::normalize::Normalizer;
use crate::resampler::Resampler;
use crate::sample_format::{decode_into, Encoder};
use crate::volume::Volume;

/// Internal block size when none is given (frames of input per pass).
pub const DEFAULT_MAX_BLOCK: usize = 1024;

/// Everything a path needs to know. Build with [`ChainConfig::new`] and adjust the fields.
#[derive(Clone, Debug, PartialEq)]
pub struct ChainConfig {
    pub input: StreamFormat,
    pub output: StreamFormat,
    /// 0.0-1.0.
    pub volume: f32,
    /// 18 band gains, 0.0-2.0, 1.0 flat (see [`crate::eq::gain_to_db`]).
    pub eq: [f32; BANDS],
    /// 0-5000 ms.
    pub delay_ms: f64,
    /// Channel matrix; `None` uses [`MixMatrix::default_for`] the two layouts.
    pub matrix: Option<MixMatrix>,
    /// Loudness normalisation (see [`crate::normalize`]).
    pub normalize: bool,
    /// TPDF dither when the output has fewer bits than the input.
    pub dither: bool,
    /// Keep the resampler in the path even at equal rates so [`Chain::set_ratio_adjust`] can
    /// correct clock drift (costs the resampler's latency and CPU).
    pub drift_correction: bool,
    /// Largest number of input frames processed per internal pass (sizes scratch buffers).
    pub max_block_frames: usize,
}

impl ChainConfig {
    /// Neutral settings between two formats.
    pub fn new(input: StreamFormat, output: StreamFormat) -> Self {
        ChainConfig {
            input,
            output,
            volume: 1.0,
            eq: FLAT,
            delay_ms: 0.0,
            matrix: None,
            normalize: false,
            dither: true,
            drift_correction: false,
            max_block_frames: DEFAULT_MAX_BLOCK,
        }
    }
}

/// One route's processing. Allocates in [`Chain::new`] and in setters that must grow memory
/// ([`Chain::set_delay_ms`]); never in the `process_*` calls.
#[derive(Clone, Debug)]
pub struct Chain {
    config: ChainConfig,
    matrix: MixMatrix,
    matrix_identity: bool,
    resampler: Option<Resampler>,
    eq: Equalizer,
    volume: Volume,
    delay: DelayLine,
    normalizer: Normalizer,
    encoder: Encoder,
    decoded: AudioBuffer,
    mixed: AudioBuffer,
    resampled: AudioBuffer,
    pending: [u8; 32],
    pending_len: usize,
    /// Bytes of a frame already passed through unchanged, to skip when processing resumes.
    skip: usize,
}

impl Chain {
    pub fn new(config: &ChainConfig) -> Result<Self, DspError> {
        let (input, output) = (config.input, config.output);
        if !(0.0..=1.0).contains(&config.volume) {
            return Err(invalid(format!(
                "volume must be 0.0-1.0, got {}",
                config.volume
            )));
        }
        validate_gains(&config.eq)?;
        if config.max_block_frames == 0 || config.max_block_frames > 1 << 20 {
            return Err(invalid("max_block_frames must be 1-1048576"));
        }
        let matrix = match config.matrix {
            Some(m) => {
                if m.inputs() != input.channels() || m.outputs() != output.channels() {
                    return Err(invalid(format!(
                        "matrix is {}x{} (outputs x inputs) but the path is {} -> {} channels",
                        m.outputs(),
                        m.inputs(),
                        input.channels(),
                        output.channels()
                    )));
                }
                m
            }
            None => MixMatrix::default_for(input.layout, output.layout),
        };
        let block = config.max_block_frames;
        let out_ch = output.channels();
        let resampler = if input.rate != output.rate || config.drift_correction {
            Some(Resampler::new(input.rate, output.rate, out_ch, block)?)
        } else {
            None
        };
        let rs_frames = resampler.as_ref().map_or(0, |r| r.max_output_frames(block));
        let dither =
            config.dither && output.sample_format.bit_depth() < input.sample_format.bit_depth();
        Ok(Chain {
            matrix_identity: matrix.is_identity(),
            matrix,
            resampler,
            eq: Equalizer::new(output.rate, out_ch, &config.eq)?,
            volume: Volume::new(output.rate, config.volume)?,
            delay: DelayLine::new(output.rate, out_ch, config.delay_ms)?,
            normalizer: Normalizer::new(output.rate),
            encoder: Encoder::new(output.sample_format, dither),
            decoded: AudioBuffer::new(input.channels(), block),
            mixed: AudioBuffer::new(out_ch, block),
            resampled: AudioBuffer::new(out_ch, rs_frames),
            pending: [0; 32],
            pending_len: 0,
            skip: 0,
            config: config.clone(),
        })
    }

    /// The current settings (setters update them).
    pub fn config(&self) -> &ChainConfig {
        &self.config
    }

    /// True when the next call copies bytes unchanged: same format in and out, identity matrix,
    /// no resampler, and volume, EQ, delay and normalisation all neutral and settled.
    pub fn is_passthrough(&self) -> bool {
        self.config.input == self.config.output
            && self.matrix_identity
            && self.resampler.is_none()
            && self.volume.is_unity()
            && self.eq.is_flat()
            && self.delay.is_bypass()
            && !self.config.normalize
    }

    /// The most output bytes a call with `input_len` bytes can produce.
    pub fn max_output_bytes(&self, input_len: usize) -> usize {
        self.max_output_frames(input_len) * self.config.output.frame_bytes()
    }

    /// The most output frames a call with `input_len` bytes can produce.
    pub fn max_output_frames(&self, input_len: usize) -> usize {
        let frames = (input_len + self.pending_len) / self.config.input.frame_bytes() + 1;
        match &self.resampler {
            Some(r) => r.max_output_frames(frames) + 1,
            None => frames,
        }
    }

    /// Processes interleaved input bytes into interleaved output bytes; returns the bytes
    /// written. `output` must hold [`Chain::max_output_bytes`] of `input.len()`.
    pub fn process_into(&mut self, input: &[u8], output: &mut [u8]) -> Result<usize, DspError> {
        let needed = self.max_output_bytes(input.len());
        if output.len() < needed {
            return Err(DspError::OutputTooSmall {
                needed,
                available: output.len(),
            });
        }
        if self.is_passthrough() && self.pending_len == 0 {
            output[..input.len()].copy_from_slice(input);
            let fb = self.config.input.frame_bytes();
            self.skip = (self.skip + input.len()) % fb;
            return Ok(input.len());
        }
        let mut written = 0;
        let mut input = input;
        if self.skip > 0 {
            // Passthrough stopped mid-frame: finish that frame unchanged so the output stays
            // frame-aligned, then process from the next frame boundary.
            let fb = self.config.input.frame_bytes();
            let n = (fb - self.skip).min(input.len());
            output[..n].copy_from_slice(&input[..n]);
            written = n;
            self.skip = (self.skip + n) % fb;
            input = &input[n..];
        }
        self.run(input, &mut |chain, buf| {
            let n = chain.encoder.encode_into(buf, &mut output[written..])?;
            written += n;
            Ok(())
        })?;
        Ok(written)
    }

    /// Like [`Chain::process_into`] but stops before the output format: planar f32 for a mixer.
    /// `output` needs capacity for [`Chain::max_output_frames`]; its frame count is set.
    pub fn process_to_planar(
        &mut self,
        input: &[u8],
        output: &mut AudioBuffer,
    ) -> Result<usize, DspError> {
        if output.channels() != self.config.output.channels() {
            return Err(DspError::ChannelMismatch {
                expected: self.config.output.channels(),
                actual: output.channels(),
            });
        }
        let needed = self.max_output_frames(input.len());
        if output.capacity() < needed {
            return Err(DspError::OutputTooSmall {
                needed,
                available: output.capacity(),
            });
        }
        let mut frames = 0;
        self.run(input, &mut |_, buf| {
            for c in 0..buf.channels() {
                output.channel_storage_mut(c)[frames..frames + buf.frames()]
                    .copy_from_slice(buf.channel(c));
            }
            frames += buf.frames();
            Ok(())
        })?;
        output.set_frames(frames);
        Ok(frames)
    }

    /// Splits the input into whole frames (carrying partial ones) and runs each block.
    fn run(
        &mut self,
        mut input: &[u8],
        sink: &mut dyn FnMut(&mut Chain, &AudioBuffer) -> Result<(), DspError>,
    ) -> Result<(), DspError> {
        let _ftz = FlushDenormals::new();
        let fb = self.config.input.frame_bytes();
        if self.skip > 0 {
            let n = (fb - self.skip).min(input.len());
            input = &input[n..];
            self.skip = (self.skip + n) % fb;
        }
        if self.pending_len > 0 {
            let n = (fb - self.pending_len).min(input.len());
            self.pending[self.pending_len..self.pending_len + n].copy_from_slice(&input[..n]);
            self.pending_len += n;
            input = &input[n..];
            if self.pending_len < fb {
                return Ok(());
            }
            let frame = self.pending;
            self.pending_len = 0;
            self.block(&frame[..fb], sink)?;
        }
        let block_bytes = self.config.max_block_frames * fb;
        let whole = input.len() / fb * fb;
        for chunk in input[..whole].chunks(block_bytes) {
            self.block(chunk, sink)?;
        }
        let rest = &input[whole..];
        self.pending[..rest.len()].copy_from_slice(rest);
        self.pending_len = rest.len();
        Ok(())
    }

    fn block(
        &mut self,
        bytes: &[u8],
        sink: &mut dyn FnMut(&mut Chain, &AudioBuffer) -> Result<(), DspError>,
    ) -> Result<(), DspError> {
        decode_into(self.config.input.sample_format, bytes, &mut self.decoded)?;
        let mut stage = Stage::Decoded;
        if !self.matrix_identity {
            self.matrix.apply_into(&self.decoded, &mut self.mixed)?;
            stage = Stage::Mixed;
        }
        if let Some(r) = &mut self.resampler {
            let src = if stage == Stage::Mixed {
                &self.mixed
            } else {
                &self.decoded
            };
            r.process_into(src, &mut self.resampled)?;
            stage = Stage::Resampled;
        }
        let mut buf = match stage {
            Stage::Decoded => std::mem::replace(&mut self.decoded, AudioBuffer::new(0, 0)),
            Stage::Mixed => std::mem::replace(&mut self.mixed, AudioBuffer::new(0, 0)),
            Stage::Resampled => std::mem::replace(&mut self.resampled, AudioBuffer::new(0, 0)),
        };
        let result = self.post(&mut buf).and_then(|_| sink(self, &buf));
        match stage {
            Stage::Decoded => self.decoded = buf,
            Stage::Mixed => self.mixed = buf,
            Stage::Resampled => self.resampled = buf,
        }
        result
    }

    fn post(&mut self, buf: &mut AudioBuffer) -> Result<(), DspError> {
        self.eq.process(buf)?;
        self.volume.process(buf);
        self.delay.process(buf)?;
        if self.config.normalize {
            self.normalizer.process(buf);
        }
        Ok(())
    }

    /// Ramps the volume (0.0-1.0) over [`crate::volume::VOLUME_RAMP_MS`].
    pub fn set_volume(&mut self, volume: f32) -> Result<(), DspError> {
        if !(0.0..=1.0).contains(&volume) {
            return Err(invalid(format!("volume must be 0.0-1.0, got {volume}")));
        }
        self.volume.set(volume)?;
        self.config.volume = volume;
        Ok(())
    }

    /// Ramps the EQ to new band gains over [`crate::eq::RAMP_MS`].
    pub fn set_eq(&mut self, gains: &[f32]) -> Result<(), DspError> {
        let gains = validate_gains(gains)?;
        self.eq.set_gains(&gains)?;
        self.config.eq = gains;
        Ok(())
    }

    /// Changes the delay with a crossfade (may allocate when the delay grows).
    pub fn set_delay_ms(&mut self, ms: f64) -> Result<(), DspError> {
        self.delay.set_delay_ms(ms)?;
        self.config.delay_ms = ms;
        Ok(())
    }

    pub fn set_normalize(&mut self, on: bool) {
        if on && !self.config.normalize {
            self.normalizer.reset();
        }
        self.config.normalize = on;
    }

    /// Replaces the matrix (`None`: the default for the layouts). Takes effect at the next block.
    pub fn set_matrix(&mut self, matrix: Option<MixMatrix>) -> Result<(), DspError> {
        let (i, o) = (self.config.input, self.config.output);
        let m = match matrix {
            Some(m) if m.inputs() != i.channels() || m.outputs() != o.channels() => {
                return Err(invalid(format!(
                    "matrix must be {}x{} (outputs x inputs) for this path",
                    o.channels(),
                    i.channels()
                )))
            }
            Some(m) => m,
            None => MixMatrix::default_for(i.layout, o.layout),
        };
        self.matrix = m;
        self.matrix_identity = m.is_identity();
        self.config.matrix = matrix;
        Ok(())
    }

    pub fn set_dither(&mut self, on: bool) {
        let (i, o) = (self.config.input, self.config.output);
        self.encoder
            .set_dither(on && o.sample_format.bit_depth() < i.sample_format.bit_depth());
        self.config.dither = on;
    }

    /// Nudges the resampling ratio for clock-drift correction (see
    /// [`Resampler::set_ratio_adjust`]). Needs a resampler: different rates or
    /// `drift_correction: true`.
    pub fn set_ratio_adjust(&mut self, adjust: f64) -> Result<(), DspError> {
        match &mut self.resampler {
            Some(r) => r.set_ratio_adjust(adjust),
            None => Err(invalid(
                "this path has no resampler: create it with drift_correction to adjust the ratio",
            )),
        }
    }

    /// The resampler's applied ratio adjustment (0 without a resampler).
    pub fn ratio_adjust(&self) -> f64 {
        self.resampler.as_ref().map_or(0.0, |r| r.ratio_adjust())
    }

    /// Delay the processing adds, in output frames (the resampler's filter), excluding the
    /// configured delay.
    pub fn latency_frames(&self) -> usize {
        self.resampler.as_ref().map_or(0, |r| {
            (r.latency_frames() as u64 * self.config.output.rate as u64
                / self.config.input.rate as u64) as usize
        })
    }
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Stage {
    Decoded,
    Mixed,
    Resampled,
}

#[cfg(test)]
mod tests;
