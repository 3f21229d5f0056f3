//! A path of the engine run offline over a file (`tributary render`): the same code and order
//! as a live path, minus what only a network stream needs.
//!
//! What a sink gets from a path: the source read at the path's delay (the delay is source
//! frames the tap reads behind, here silence before the file) and converted to the sink rate by
//! the tap's converter ([`crate::graph::reader::converter`]) on the source's channels, then the
//! path's [`PathStages`] (channel matrix, EQ, volume, normalisation), and the volume as the
//! mixer applies it. The preview runs exactly that. It leaves out the live stream's machinery:
//! the jitter buffer's prebuffering, the 5 ms fades where a path joins a tap or a stream
//! starts, concealment of lost packets, and drift correction, which nudges the conversion ratio
//! by the sender's clock error (a file has no clock to correct). It also stops before the
//! sink's mixer, whose soft limiter touches only peaks above -1 dBFS.
//!
//! So a preview is sample for sample what the path hands its sink's mixer while the ratio is
//! nominal (`tests.rs` runs the engine on a simulated clock and compares).

use crate::desired::{ConfigError, PathSpec, SinkSpec};
use crate::graph::reader::{converter, delay_frames};
use crate::graph::stages::PathStages;
use tributary_dsp::{AudioBuffer, ChannelLayout, DspError, Resampler};

/// Source frames converted at once.
const BLOCK: usize = 1024;

/// The offline path. Allocates in [`Preview::new`] only.
pub struct Preview {
    /// Silent source frames still to play before the file (the delay).
    lead_in: u64,
    converter: Resampler,
    /// The source frames of one block.
    staged: AudioBuffer,
    converted: AudioBuffer,
    stages: PathStages,
    /// What the stages produce, at the sink's channels.
    out: AudioBuffer,
}

impl Preview {
    /// The path `spec` from a source sending `source_layout` at `source_rate` to `sink` (its
    /// rate, layout and normalisation; the transport plays no part).
    pub fn new(
        spec: &PathSpec,
        source_rate: u32,
        source_layout: ChannelLayout,
        sink: &SinkSpec,
    ) -> Result<Self, ConfigError> {
        let problem = |e: DspError| ConfigError(e.to_string());
        let channels = source_layout.channels();
        // The engine's bounds for the path (volume, EQ, delay) and the sink (rate, layout).
        let mut checked = sink.clone();
        checked.paths = vec![spec.clone()];
        checked.validate(0)?;
        let converter = converter(source_rate, sink.sample_rate, channels, BLOCK);
        let max_out = converter.max_output_frames(BLOCK);
        Ok(Self {
            lead_in: delay_frames(spec.delay_ms / 1000.0, source_rate),
            staged: AudioBuffer::new(channels, BLOCK),
            converted: AudioBuffer::new(channels, max_out),
            stages: PathStages::new(spec, source_layout, sink, max_out).map_err(problem)?,
            out: PathStages::buffer(sink, max_out),
            converter,
        })
    }

    /// The most output frames [`Preview::process_into`] writes for `input_frames` source
    /// frames (the delay's silence included while it plays). The output is time-aligned with
    /// the input (output frame k is at input time k); the conversion holds back the last few
    /// frames of its input until more comes: silence after the end of a file flushes them.
    pub fn max_output_frames(&self, input_frames: usize) -> usize {
        let frames = input_frames + self.lead_in as usize;
        let blocks = frames.div_ceil(BLOCK) + 1;
        blocks * self.converter.max_output_frames(BLOCK)
    }

    /// Runs `input` (interleaved samples of the source's channels, whole frames, as
    /// `tributary_dsp::decode_into` writes them; the delay's silence first, on the first calls)
    /// through the path into `output` (sink channels), whose frame count is set; returns it.
    pub fn process_into(
        &mut self,
        input: &[f32],
        output: &mut AudioBuffer,
    ) -> Result<usize, DspError> {
        let channels = self.staged.channels();
        let frames = input.len() / channels;
        let needed = self.max_output_frames(frames);
        if output.capacity() < needed {
            return Err(DspError::OutputTooSmall {
                needed,
                available: output.capacity(),
            });
        }
        let mut written = 0;
        while self.lead_in > 0 {
            let n = (self.lead_in as usize).min(BLOCK);
            self.lead_in -= n as u64;
            self.staged.set_frames(n);
            self.staged.clear();
            self.block(output, &mut written)?;
        }
        for block in input[..frames * channels].chunks(BLOCK * channels) {
            self.staged.load_interleaved(block);
            self.block(output, &mut written)?;
        }
        output.set_frames(written);
        Ok(written)
    }

    /// The staged source frames: converted, through the stages, with the mixer's gain,
    /// appended to `output` at `*written`.
    fn block(&mut self, output: &mut AudioBuffer, written: &mut usize) -> Result<(), DspError> {
        let frames = self
            .converter
            .process_into(&self.staged, &mut self.converted)?;
        let converted = &self.converted;
        self.stages.load(
            frames,
            |ch, into| {
                into.copy_from_slice(&converted.channel(ch)[..into.len()]);
            },
            &mut self.out,
        );
        let out = self.stages.finish(&mut self.out);
        for c in 0..out.audio.channels() {
            let dst = &mut output.channel_storage_mut(c)[*written..*written + frames];
            let src = &out.audio.channel(c)[..frames];
            // As the mixer adds a path to its (silent) sum: the same product, rounded once.
            if out.gain == 1.0 {
                dst.copy_from_slice(src);
            } else {
                dst.iter_mut().zip(src).for_each(|(d, s)| *d = out.gain * s);
            }
        }
        *written += frames;
        Ok(())
    }
}

#[cfg(test)]
mod tests;
