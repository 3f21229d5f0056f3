//! A path's processing, in the order the engine plays it: the source's frames (already at the
//! sink rate, see [`crate::graph::tap`]) -> channel matrix (when the layouts differ) -> 18-band
//! EQ -> volume -> optional normalisation. A steady volume is not a pass of its own: it is the
//! gain the sink's mixer applies ([`Output::gain`]).
//!
//! The engine's paths ([`crate::graph::path`]) and the offline preview
//! ([`crate::graph::preview`], `tributary render`) both run these stages, so a preview is what
//! a sink's mixer receives from the path with the same settings.

use crate::desired::{PathSpec, SinkSpec};
use tributary_dsp::eq::Design;
use tributary_dsp::{
    AudioBuffer, ChannelLayout, DspError, Equalizer, MixMatrix, Normalizer, Volume,
};

/// What the stages produced: the buffer, and the gain the mixer applies to it (the volume,
/// when it is steady and there is no normaliser; otherwise 1.0, the volume already applied).
pub struct Output<'a> {
    pub audio: &'a AudioBuffer,
    pub gain: f32,
}

/// Matrix, EQ, volume and normaliser of one path. Built off the real-time thread; `load` and
/// `finish` never allocate. The frames go through a buffer the caller lends (at the sink's
/// channels, [`PathStages::max_frames`] long): a sink renders its paths one after another
/// through one buffer, which stays in the cache, instead of one buffer per path.
pub struct PathStages {
    sink_layout: ChannelLayout,
    matrix: MixMatrix,
    identity: bool,
    src_buf: AudioBuffer,
    eq: Equalizer,
    volume: Volume,
    normalizer: Option<Normalizer>,
    max_frames: usize,
}

impl PathStages {
    /// The stages of `spec` from a source with `src_layout` to `sink`, at most `max_frames`
    /// frames per call.
    pub fn new(
        spec: &PathSpec,
        src_layout: ChannelLayout,
        sink: &SinkSpec,
        max_frames: usize,
    ) -> Result<Self, DspError> {
        let out_ch = sink.layout.channels();
        let matrix = MixMatrix::default_for(src_layout, sink.layout);
        Ok(Self {
            sink_layout: sink.layout,
            identity: matrix.is_identity(),
            matrix,
            src_buf: AudioBuffer::new(src_layout.channels(), max_frames),
            eq: Equalizer::new(sink.sample_rate, out_ch, &spec.eq)?,
            volume: Volume::new(sink.sample_rate, spec.volume)?,
            normalizer: sink.normalize.then(|| Normalizer::new(sink.sample_rate)),
            max_frames,
        })
    }

    /// Most frames per call.
    pub fn max_frames(&self) -> usize {
        self.max_frames
    }

    /// Ramps to new levels: the volume (20 ms) and the EQ (50 ms, to `design` when one was
    /// made elsewhere, else designed here).
    pub fn update(&mut self, old: &PathSpec, new: &PathSpec, design: Option<&Design>) {
        if new.volume != old.volume {
            let _ = self.volume.set(new.volume);
        }
        if new.eq != old.eq {
            let _ = match design {
                Some(design) => self.eq.set_design(design),
                None => self.eq.set_gains(&new.eq),
            };
        }
    }

    /// Rebuilds the matrix for a source that changed layout (allocates when its channel count
    /// changed; only when a sender changes its format).
    pub fn follow_source_layout(&mut self, layout: ChannelLayout) {
        if layout.channels() != self.src_buf.channels() {
            self.src_buf = AudioBuffer::new(layout.channels(), self.max_frames);
        }
        self.matrix = MixMatrix::default_for(layout, self.sink_layout);
        self.identity = self.matrix.is_identity();
    }

    /// Whether the volume is (and stays) 0: nothing to render.
    pub fn is_muted(&self) -> bool {
        self.volume.target() == 0.0 && self.volume.current() == 0.0
    }

    /// Forgets the EQ's state (the path went silent; it resumes from silence).
    pub fn reset(&mut self) {
        self.eq.reset();
    }

    /// A buffer for [`PathStages::load`] of a path to `sink`, at most `max_frames` per call.
    pub fn buffer(sink: &SinkSpec, max_frames: usize) -> AudioBuffer {
        AudioBuffer::new(sink.layout.channels(), max_frames)
    }

    /// Takes `frames` frames of the source (`read(channel, into)` fills one channel) through
    /// the channel matrix into `out` (see [`PathStages::buffer`]); returns it at the sink's
    /// layout, for a fade before [`PathStages::finish`].
    pub fn load<'a>(
        &mut self,
        frames: usize,
        mut read: impl FnMut(usize, &mut [f32]),
        out: &'a mut AudioBuffer,
    ) -> &'a mut AudioBuffer {
        let frames = frames.min(self.max_frames).min(out.capacity());
        out.set_frames(frames);
        if self.identity {
            for ch in 0..out.channels() {
                read(ch, out.channel_mut(ch));
            }
        } else {
            self.src_buf.set_frames(frames);
            for ch in 0..self.src_buf.channels() {
                read(ch, self.src_buf.channel_mut(ch));
            }
            let _ = self.matrix.apply_into(&self.src_buf, out);
        }
        out
    }

    /// Runs the EQ, the volume and the normaliser over what [`PathStages::load`] took into
    /// `out`.
    pub fn finish<'a>(&mut self, out: &'a mut AudioBuffer) -> Output<'a> {
        // A no-op while every band is flat.
        let _ = self.eq.process(out);
        let steady = self.volume.current() == self.volume.target();
        let gain = match self.normalizer.as_mut() {
            None if steady => self.volume.current(),
            normalizer => {
                self.volume.process(out);
                if let Some(n) = normalizer {
                    n.process(out);
                }
                1.0
            }
        };
        Output { audio: out, gain }
    }
}
