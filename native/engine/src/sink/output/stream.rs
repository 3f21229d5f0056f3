//! A byte stream cut into equal chunks (Scream payloads, TCP writes): frames are rendered until
//! a chunk is full, and carried across chunks when a frame does not divide it. A transport of
//! this kind only says how a chunk leaves ([`ChunkSender`]); [`Chunked`] does the rest.

use crate::desired::{ConfigError, SinkSpec};
use crate::sink::counters::SinkCounters;
use crate::sink::mix::Mixed;
use crate::sink::output::pcm::PcmEncoder;
use crate::sink::output::transport::{SendContext, Transport};
use crate::wire::scream;
use std::sync::atomic::Ordering::Relaxed;
use std::time::Duration;

/// Bytes per chunk: one Scream payload (and one TCP write).
pub const CHUNK: usize = scream::PAYLOAD_LEN;

/// The PCM queued for the next chunks.
pub struct ChunkStream {
    pcm: PcmEncoder,
    frames_per_tick: usize,
    period: Duration,
    /// Seconds one byte of the stream lasts.
    byte_s: f64,
    fifo: Vec<u8>,
    fifo_len: usize,
}

impl ChunkStream {
    pub fn new(spec: &SinkSpec) -> Result<Self, ConfigError> {
        let frames_per_tick = Self::max_frames(spec);
        let pcm = PcmEncoder::new(spec, frames_per_tick)?;
        let byte_s = 1.0 / (pcm.frame_bytes as f64 * f64::from(spec.sample_rate));
        Ok(Self {
            frames_per_tick,
            period: Duration::from_secs_f64(CHUNK as f64 * byte_s),
            byte_s,
            fifo: vec![0; CHUNK * 2 + frames_per_tick * pcm.frame_bytes],
            fifo_len: 0,
            pcm,
        })
    }

    /// Frames that fill one chunk (rounded up: the rest is carried).
    pub fn max_frames(spec: &SinkSpec) -> usize {
        CHUNK.div_ceil(PcmEncoder::frame_bytes_of(spec))
    }

    pub fn period(&self) -> Duration {
        self.period
    }

    /// The frames still missing from the next chunk; the bytes queued go out first, so these
    /// frames leave after them.
    pub fn next_render(&self) -> Option<(usize, f64)> {
        (self.fifo_len < CHUNK).then(|| {
            let frames = (CHUNK - self.fifo_len)
                .div_ceil(self.pcm.frame_bytes)
                .min(self.frames_per_tick);
            (frames, self.fifo_len as f64 * self.byte_s)
        })
    }

    pub fn take(&mut self, mixed: Mixed<'_>) {
        let bytes = self.pcm.encode(mixed);
        let n = bytes.len();
        self.fifo[self.fifo_len..self.fifo_len + n].copy_from_slice(bytes);
        self.fifo_len += n;
    }

    /// The chunk due now.
    pub fn chunk(&self) -> &[u8] {
        &self.fifo[..CHUNK]
    }

    /// Drops the chunk just sent (or not sent); publishes what stays queued.
    pub fn consume(&mut self, counters: &SinkCounters) {
        self.fifo.copy_within(CHUNK..self.fifo_len, 0);
        self.fifo_len -= CHUNK;
        counters.queue_bytes.store(self.fifo_len as u64, Relaxed);
    }
}

/// How one chunk of a stream leaves.
pub trait ChunkSender: Sized {
    fn new(spec: &SinkSpec) -> Result<Self, ConfigError>;
    /// Sends the chunk due now (counting it in `context.counters`).
    fn send(&mut self, chunk: &[u8], context: &SendContext<'_>);
}

/// A chunked PCM stream and how its chunks leave.
pub struct Chunked<S: ChunkSender> {
    stream: ChunkStream,
    sender: S,
}

impl<S: ChunkSender> Transport for Chunked<S> {
    fn new(spec: &SinkSpec, _seed: u64) -> Result<Self, ConfigError> {
        Ok(Self {
            stream: ChunkStream::new(spec)?,
            sender: S::new(spec)?,
        })
    }

    fn max_frames(spec: &SinkSpec) -> usize {
        ChunkStream::max_frames(spec)
    }

    fn period(&self) -> Duration {
        self.stream.period()
    }

    fn next_render(&self) -> Option<(usize, f64)> {
        self.stream.next_render()
    }

    fn take(&mut self, mixed: Mixed<'_>) {
        self.stream.take(mixed);
    }

    fn send(&mut self, context: &SendContext<'_>) {
        self.sender.send(self.stream.chunk(), context);
        self.stream.consume(context.counters);
    }

    fn continue_from(&mut self, _previous: &Self) {}
}
