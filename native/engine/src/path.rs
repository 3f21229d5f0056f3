//! One path (a source playing on a sink) on the engine thread: the source read at the path's
//! delay with drift-corrected rate conversion ([`PathReader`]), then the DSP core's channel
//! matrix, 18-band EQ, volume ramp and optional normalisation, ready for the sink's mixer.

use crate::config::{PathSpec, SinkSpec};
use crate::jitter::SourceBuffer;
use crate::reader::PathReader;
use tributary_dsp::{
    AudioBuffer, ChannelLayout, DspError, Equalizer, MixMatrix, Normalizer, Volume,
};

/// A path's processing state. Built off the real-time thread; `render` never allocates.
pub struct PathRt {
    pub spec: PathSpec,
    /// Index of the source in the engine's table (resolved on apply).
    pub source: usize,
    /// The source format generation this path was built for.
    pub source_generation: u64,
    reader: PathReader,
    interleaved: Vec<f32>,
    src_buf: AudioBuffer,
    out_buf: AudioBuffer,
    matrix: MixMatrix,
    identity: bool,
    eq: Equalizer,
    volume: Volume,
    normalizer: Option<Normalizer>,
    sink_rate: u32,
    source_rate: u32,
    max_frames: usize,
    /// Underruns already reported to the sink's counters.
    pub reported_underruns: u64,
}

impl PathRt {
    /// Builds a path from a source (`src_rate`, `src_layout`) to `sink`, rendering at most
    /// `max_frames` per tick.
    pub fn new(
        spec: &PathSpec,
        src_rate: u32,
        src_layout: ChannelLayout,
        sink: &SinkSpec,
        max_frames: usize,
        generation: u64,
    ) -> Result<Self, DspError> {
        let src_ch = src_layout.channels();
        let out_ch = sink.layout.channels();
        let matrix = MixMatrix::default_for(src_layout, sink.layout);
        let eq = Equalizer::new(sink.sample_rate, out_ch, &spec.eq)?;
        Ok(Self {
            spec: spec.clone(),
            source: usize::MAX,
            source_generation: generation,
            reader: PathReader::new(
                src_ch,
                src_rate,
                sink.sample_rate,
                max_frames,
                spec.delay_ms / 1000.0,
            ),
            interleaved: vec![0.0; max_frames * src_ch],
            src_buf: AudioBuffer::new(src_ch, max_frames),
            out_buf: AudioBuffer::new(out_ch, max_frames),
            identity: matrix.is_identity(),
            matrix,
            eq,
            volume: Volume::new(sink.sample_rate, spec.volume)?,
            normalizer: sink.normalize.then(|| Normalizer::new(sink.sample_rate)),
            sink_rate: sink.sample_rate,
            source_rate: src_rate,
            max_frames,
            reported_underruns: 0,
        })
    }

    /// Rebuilds the source side after the source changed format (allocates; rare).
    pub fn rebuild_for_source(
        &mut self,
        src_rate: u32,
        src_layout: ChannelLayout,
        out_layout: ChannelLayout,
        generation: u64,
    ) {
        let src_ch = src_layout.channels();
        let delay_s = self.spec.delay_ms / 1000.0;
        self.reader = PathReader::new(src_ch, src_rate, self.sink_rate, self.max_frames, delay_s);
        self.interleaved = vec![0.0; self.max_frames * src_ch];
        self.src_buf = AudioBuffer::new(src_ch, self.max_frames);
        self.matrix = MixMatrix::default_for(src_layout, out_layout);
        self.identity = self.matrix.is_identity();
        self.source_rate = src_rate;
        self.source_generation = generation;
    }

    /// Applies changed levels: volume and EQ ramp, delay fades out, moves and fades in.
    pub fn update(&mut self, spec: &PathSpec, source_rate: u32) {
        if spec.volume != self.spec.volume {
            let _ = self.volume.set(spec.volume);
        }
        if spec.eq != self.spec.eq {
            let _ = self.eq.set_gains(&spec.eq);
        }
        if spec.delay_ms != self.spec.delay_ms {
            self.reader
                .set_delay_frames((spec.delay_ms / 1000.0 * f64::from(source_rate)) as u64);
        }
        self.spec = spec.clone();
    }

    /// The source (rate, channels) the path was built for.
    pub fn source_format(&self) -> (u32, usize) {
        (self.source_rate, self.src_buf.channels())
    }

    /// Total underruns of the reader.
    pub fn underruns(&self) -> u64 {
        self.reader.underruns
    }

    pub fn concealed(&self) -> u64 {
        self.reader.concealed
    }

    /// The zero-delay source position this path plays.
    pub fn play_position(&self) -> Option<u64> {
        self.reader.is_locked().then(|| self.reader.play_position())
    }

    /// Renders `frames` frames at the sink rate and layout into the path's output buffer.
    pub fn render(&mut self, src: &SourceBuffer, now_s: f64, frames: usize) -> &AudioBuffer {
        let frames = frames.min(self.max_frames);
        let c = self.src_buf.channels();
        let inter = &mut self.interleaved[..frames * c];
        self.reader.render(src, now_s, inter);
        self.src_buf.set_frames(frames);
        for ch in 0..c {
            let dst = self.src_buf.channel_mut(ch);
            for (d, frame) in dst.iter_mut().zip(inter.chunks_exact(c)) {
                *d = frame[ch];
            }
        }
        self.out_buf.set_frames(frames);
        if self.identity {
            let _ = self.out_buf.copy_from(&self.src_buf);
        } else {
            let _ = self.matrix.apply_into(&self.src_buf, &mut self.out_buf);
        }
        if !self.eq.is_flat() {
            let _ = self.eq.process(&mut self.out_buf);
        }
        self.volume.process(&mut self.out_buf);
        if let Some(n) = self.normalizer.as_mut() {
            n.process(&mut self.out_buf);
        }
        &self.out_buf
    }
}
