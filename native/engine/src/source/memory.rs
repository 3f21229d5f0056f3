//! In-process sources (door 1 of issue 28): audio that does not come over the network (a URL
//! decoded in-process, a plugin's stream, a test) enters the engine through a lock-free
//! single-producer single-consumer ring of PCM frames ([`crate::ring::PcmRing`]), in a format
//! given once: rate, channels, sample format.
//!
//! The writer ([`MemoryWriter`]: a decoder thread, or JavaScript through the binding) decodes
//! its PCM with the one decoder (`tributary_dsp::decode_into`) into the ring and never waits: a
//! write takes the whole frames that fit and says how many. The engine thread ([`MemoryFeed`])
//! never waits either: on each wake-up it moves from the ring into the source's buffer what a
//! sender at the source's rate on the router's clock would have sent since the last one, and
//! no more, so a writer faster than real time fills the ring and is held back there (the ring
//! is its latency), and one slower than real time (stalled) leaves the buffer short: the
//! readers run dry and count underruns exactly as for a network sender. From the buffer on it
//! is a source like any other: taps, paths (matrix, EQ, volume), resampling, mix, stats.

use crate::desired::ConfigError;
use crate::limits::{CHANNELS_MAX, SAMPLE_RATE_MAX, SAMPLE_RATE_MIN};
use crate::ring::PcmRing;
use crate::source::buffer::SourceBuffer;
use crate::source::counters::DetectedFormat;
use crate::wire::SenderKind;
use std::sync::Arc;
use tributary_dsp::sample_format::{decode_into, SampleFormat};

/// Bounds of the ring, milliseconds of audio.
pub const RING_MS_MIN: u32 = 10;
pub const RING_MS_MAX: u32 = 10_000;
/// Longest the engine thread moves in one step (more is moved in several).
const STEP_S: f64 = 0.02;
/// Samples the writer decodes at a time.
const WRITE_CHUNK: usize = 4096;

/// What a memory source's writer sends.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MemoryFormat {
    pub sample_rate: u32,
    pub channels: u8,
    /// What [`MemoryWriter::write`] takes, and what stats show.
    pub sample_format: SampleFormat,
    /// The writer writes decoded f32 samples ([`MemoryWriter::write_samples`]) of a codec with
    /// no bit depth (MP3, AAC, Vorbis, Opus): stats show `f32` instead of `sample_format`.
    pub float: bool,
}

impl MemoryFormat {
    /// Bytes of one frame.
    pub fn frame_bytes(&self) -> usize {
        self.sample_format.bytes_per_sample() * usize::from(self.channels)
    }

    /// Checks the format and the ring length against the engine's bounds; the error names the
    /// field.
    pub fn validate(&self, ring_ms: u32) -> Result<(), ConfigError> {
        if !(SAMPLE_RATE_MIN..=SAMPLE_RATE_MAX).contains(&self.sample_rate) {
            return Err(ConfigError(format!(
                "sample_rate: {} Hz is outside {SAMPLE_RATE_MIN}-{SAMPLE_RATE_MAX}",
                self.sample_rate
            )));
        }
        if !(1..=CHANNELS_MAX).contains(&self.channels) {
            return Err(ConfigError(format!(
                "channels: {} is outside 1-{CHANNELS_MAX}",
                self.channels
            )));
        }
        if !(RING_MS_MIN..=RING_MS_MAX).contains(&ring_ms) {
            return Err(ConfigError(format!(
                "ring_ms: {ring_ms} is outside {RING_MS_MIN}-{RING_MS_MAX}"
            )));
        }
        Ok(())
    }

    fn detected(&self) -> DetectedFormat {
        DetectedFormat {
            kind: SenderKind::Memory,
            bit_depth: if self.float {
                32
            } else {
                (self.sample_format.bytes_per_sample() * 8) as u8
            },
            float: self.float,
            channels: self.channels,
            big_endian: !self.float
                && matches!(
                    self.sample_format,
                    SampleFormat::S16Be | SampleFormat::S24Be
                ),
            sample_rate: self.sample_rate,
        }
    }
}

/// The ring and its format, shared by the writer and the engine.
#[derive(Debug)]
pub struct MemoryShared {
    pub format: MemoryFormat,
    ring: PcmRing,
}

/// Creates a memory source's ring of `ring_ms` of audio: the writer's end and the shared part
/// the engine reads (registered under the source's id). Allocates; never on the engine thread.
pub fn memory_source(
    format: MemoryFormat,
    ring_ms: u32,
) -> Result<(MemoryWriter, Arc<MemoryShared>), ConfigError> {
    format.validate(ring_ms)?;
    let frames = (u64::from(format.sample_rate) * u64::from(ring_ms)).div_ceil(1000) as usize;
    let shared = Arc::new(MemoryShared {
        format,
        ring: PcmRing::new(frames * usize::from(format.channels)),
    });
    let channels = usize::from(format.channels);
    let writer = MemoryWriter {
        shared: shared.clone(),
        scratch: vec![0.0; WRITE_CHUNK / channels * channels],
    };
    Ok((writer, shared))
}

/// The writing end of a memory source (one writer: it is not `Clone`). Never blocks.
pub struct MemoryWriter {
    shared: Arc<MemoryShared>,
    scratch: Vec<f32>,
}

impl MemoryWriter {
    pub fn format(&self) -> MemoryFormat {
        self.shared.format
    }

    /// Frames the ring has room for now.
    pub fn free_frames(&self) -> usize {
        self.shared.ring.free() / usize::from(self.shared.format.channels)
    }

    /// Frames written and not yet taken by the engine.
    pub fn queued_frames(&self) -> usize {
        self.shared.ring.available() / usize::from(self.shared.format.channels)
    }

    /// Writes the whole frames of `pcm` (interleaved, in the source's sample format) that fit;
    /// returns how many frames it took (the rest is the caller's to write again later). A
    /// partial frame at the end is never taken.
    pub fn write(&mut self, pcm: &[u8]) -> usize {
        let format = self.shared.format;
        let frame_bytes = format.frame_bytes();
        let frames = (pcm.len() / frame_bytes).min(self.free_frames());
        let chunk_bytes = self.scratch.len() / usize::from(format.channels) * frame_bytes;
        for chunk in pcm[..frames * frame_bytes].chunks(chunk_bytes) {
            let n = decode_into(format.sample_format, chunk, &mut self.scratch);
            let scratch = &self.scratch;
            // Fits: only this writer adds to the ring, and it had room for every frame.
            let written = self.shared.ring.write_with(n, |i| scratch[i]);
            debug_assert!(written);
        }
        frames
    }

    /// Writes whole frames of interleaved f32 samples (a decoder's output), as [`Self::write`].
    pub fn write_samples(&mut self, samples: &[f32]) -> usize {
        let channels = usize::from(self.shared.format.channels);
        let frames = (samples.len() / channels).min(self.free_frames());
        let n = frames * channels;
        let written = self.shared.ring.write_with(n, |i| samples[i]);
        debug_assert!(written);
        frames
    }
}

/// The engine thread's end of a memory source: moves frames from the ring into the source's
/// buffer at the source's rate on the router's clock. Built off the real-time thread; `pull`
/// never allocates, locks or waits.
pub struct MemoryFeed {
    pub shared: Arc<MemoryShared>,
    scratch: Vec<f32>,
    /// Router time the current run of frames started, and the frames moved since then.
    started_s: Option<f64>,
    moved: u64,
}

impl MemoryFeed {
    pub fn new(shared: Arc<MemoryShared>) -> Self {
        let f = shared.format;
        let frames = (f64::from(f.sample_rate) * STEP_S).ceil() as usize;
        Self {
            scratch: vec![0.0; frames * usize::from(f.channels)],
            shared,
            started_s: None,
            moved: 0,
        }
    }

    /// The format as stats describe it (kind [`SenderKind::Memory`]).
    pub fn detected(&self) -> DetectedFormat {
        self.shared.format.detected()
    }

    /// Moves what is due at router time `now_s` into `buffer`, each step as a packet arriving
    /// now (counted, and placed as a byte stream's frames are). When the ring holds less than is
    /// due, everything it holds is moved and the clock starts again with the next frames, so
    /// the writer is never owed a catch-up burst. Returns the frames moved.
    pub fn pull(&mut self, buffer: &mut SourceBuffer, now_s: f64) -> u64 {
        let f = self.shared.format;
        let channels = usize::from(f.channels);
        let rate = f64::from(f.sample_rate);
        let available = (self.shared.ring.available() / channels) as u64;
        let started = match self.started_s {
            Some(s) => s,
            None if available == 0 => return 0,
            None => {
                // The first frames of a run go at once (one step), like a sender's first packet.
                self.moved = 0;
                *self.started_s.insert(now_s - STEP_S)
            }
        };
        let due = (((now_s - started) * rate).round() as u64).saturating_sub(self.moved);
        let take = due.min(available);
        let mut left = take as usize;
        while left > 0 {
            let frames = left.min(self.scratch.len() / channels);
            let n = self
                .shared
                .ring
                .read_into(&mut self.scratch[..frames * channels]);
            buffer.push_frames(&self.scratch[..n], n / channels * f.frame_bytes(), now_s);
            left -= n / channels;
            if n == 0 {
                break;
            }
        }
        self.moved += take;
        if take < due {
            self.started_s = None;
        }
        take
    }
}

#[cfg(test)]
mod tests;
