//! `engine.addDecodedSource(id, options)` -> `DecodedSource`: an in-process source fed by a
//! decoder thread (`tributary_decode`) from bytes JavaScript pushes as they arrive (an HTTP
//! body, a radio stream). The thread creates the engine's memory source once the probe knows
//! the format; `engine.removeMemorySource(id)` stops the thread and removes the source.

use crate::convert::invalid;
use crate::decoders::Decoders;
use crate::engine::Engine;
use napi::bindgen_prelude::{Either, Null, Uint8ArraySlice};
use napi::{Error, Status};
use napi_derive::napi;
use std::sync::{Arc, Mutex, MutexGuard};
use tributary_decode::{DecodeOptions, DecodeState, DecodeThread, FrameOutput, StreamInfo};
use tributary_dsp::SampleFormat;
use tributary_engine::source::memory::{RING_MS_MAX, RING_MS_MIN};
use tributary_engine::{MemoryFormat, MemorySources, MemoryWriter};

/// The input queue's default size, bytes.
const INPUT_BYTES: u32 = 1 << 20;
/// The ring's default length: what the thread decodes ahead of playback.
const RING_MS: u32 = 500;

/// The frames' way into the engine: a memory source created when the format is known.
struct EngineOutput {
    sources: MemorySources,
    id: String,
    ring_ms: u32,
    writer: Mutex<Option<MemoryWriter>>,
}

impl EngineOutput {
    fn writer(&self) -> MutexGuard<'_, Option<MemoryWriter>> {
        self.writer.lock().unwrap_or_else(|e| e.into_inner())
    }
}

impl FrameOutput for EngineOutput {
    fn open(&self, info: &StreamInfo) -> Result<(), String> {
        // What stats show: the codec's bit depth, or f32 for a lossy (or float PCM) codec.
        let float = info.bit_depth.is_none() || info.codec.starts_with("pcm_f");
        let sample_format = match info.bit_depth {
            Some(b) if b > 24 => SampleFormat::S32Le,
            Some(b) if b > 16 => SampleFormat::S24Le,
            _ => SampleFormat::S16Le,
        };
        let format = MemoryFormat {
            sample_rate: info.sample_rate,
            channels: info.channels as u8,
            sample_format,
            float,
        };
        let writer = self
            .sources
            .add(&self.id, format, self.ring_ms)
            .map_err(|e| e.0)?;
        *self.writer() = Some(writer);
        Ok(())
    }

    fn write(&self, samples: &[f32]) -> usize {
        self.writer()
            .as_mut()
            .map_or(0, |w| w.write_samples(samples))
    }

    fn queued_frames(&self) -> usize {
        self.writer().as_ref().map_or(0, |w| w.queued_frames())
    }
}

/// How a decoded source reads its input.
#[napi(object)]
pub struct DecodedSourceOptions {
    /// Decoded audio the engine's ring holds ahead of playback, 10 - 10 000 ms (default 500).
    pub ring_ms: Option<u32>,
    /// A file extension (`mp3`) or MIME type (`audio/mpeg`); named in the "not audio" error.
    pub hint: Option<String>,
    /// Decode at most this many seconds, then end as if the input had.
    pub max_seconds: Option<f64>,
    /// Bytes of input queued at most (default 1 MiB): `push` refuses a chunk beyond it.
    pub input_bytes: Option<u32>,
}

/// Where a decoded source is.
#[napi(string_enum = "lowercase")]
pub enum DecodedState {
    /// Waiting for or reading the first bytes to find the format (nothing plays yet).
    Probing,
    /// Decoding into the engine.
    Playing,
    /// Input finished, everything decoded and played: remove it (after a short tail).
    Drained,
    /// Stopped with `error`.
    Failed,
}

/// A snapshot of a decoded source.
#[napi(object)]
pub struct DecodedStatus {
    pub state: DecodedState,
    /// Why it failed: `not audio: ...`, `unsupported codec: ...`, `truncated: ...`.
    pub error: Either<String, Null>,
    /// `mp3`, `aac`, `flac`, `vorbis`, `opus`, `pcm_s16le`, ... once probed.
    pub codec: Either<String, Null>,
    #[napi(js_name = "sample_rate")]
    pub sample_rate: Either<u32, Null>,
    pub channels: Either<u32, Null>,
    /// Of a lossless codec; null for a lossy one.
    #[napi(js_name = "bit_depth")]
    pub bit_depth: Either<u32, Null>,
    #[napi(js_name = "decoded_frames")]
    pub decoded_frames: f64,
    /// Packets that failed to decode and were skipped.
    #[napi(js_name = "skipped_packets")]
    pub skipped_packets: f64,
    /// Frames decoded that the engine has not played yet.
    #[napi(js_name = "queued_frames")]
    pub queued_frames: f64,
    /// Input bytes pushed and not yet decoded.
    #[napi(js_name = "input_queued_bytes")]
    pub input_queued_bytes: f64,
}

fn nullable<T>(v: Option<T>) -> Either<T, Null> {
    v.map_or(Either::B(Null), Either::A)
}

/// An in-process source decoding pushed bytes.
#[napi]
pub struct DecodedSource {
    id: String,
    thread: Arc<DecodeThread>,
    decoders: Decoders,
    sources: MemorySources,
}

#[napi]
impl Engine {
    /// Starts decoding into the in-process source `id` (thread `decode-{id}`); a path naming it
    /// (`source_config_id`) plays it once the format is known. Throws (InvalidArg, naming the
    /// field) for options out of bounds or an `id` that is taken.
    #[napi(catch_unwind)]
    pub fn add_decoded_source(
        &mut self,
        id: String,
        options: Option<DecodedSourceOptions>,
    ) -> napi::Result<DecodedSource> {
        let o = options.unwrap_or(DecodedSourceOptions {
            ring_ms: None,
            hint: None,
            max_seconds: None,
            input_bytes: None,
        });
        let ring_ms = o.ring_ms.unwrap_or(RING_MS);
        if !(RING_MS_MIN..=RING_MS_MAX).contains(&ring_ms) {
            return Err(invalid(format!(
                "ringMs: {ring_ms} is outside {RING_MS_MIN}-{RING_MS_MAX}"
            )));
        }
        if o.max_seconds.is_some_and(|s| !s.is_finite() || s <= 0.0) {
            return Err(invalid("maxSeconds: must be a number above 0"));
        }
        let input_bytes = o.input_bytes.unwrap_or(INPUT_BYTES);
        if input_bytes == 0 {
            return Err(invalid("inputBytes: must be at least 1"));
        }
        let sources = self.core()?.memory_sources();
        let decoders = self.decoders.clone();
        let mut map = decoders.lock();
        if map.contains_key(&id) {
            return Err(invalid(format!("id: memory source '{id}' exists already")));
        }
        let output = EngineOutput {
            sources: sources.clone(),
            id: id.clone(),
            ring_ms,
            writer: Mutex::new(None),
        };
        let options = DecodeOptions {
            hint: o.hint,
            max_seconds: o.max_seconds,
            ..Default::default()
        };
        let thread = DecodeThread::spawn(
            format!("decode-{id}"),
            options,
            input_bytes as usize,
            Arc::new(output),
        )
        .map(Arc::new)
        .map_err(|e| Error::new(Status::GenericFailure, e.to_string()))?;
        map.insert(id.clone(), thread.clone());
        drop(map);
        Ok(DecodedSource {
            id,
            thread,
            decoders,
            sources,
        })
    }
}

#[napi]
impl DecodedSource {
    /// The source's id.
    #[napi(getter)]
    pub fn id(&self) -> String {
        self.id.clone()
    }

    /// Queues a chunk for the decoder; false (taking nothing) when the input queue is full:
    /// wait and push it again. Never blocks. After the decoding ended (drained, failed,
    /// removed) chunks are dropped and true returned.
    #[napi(catch_unwind, ts_args_type = "chunk: Buffer | Uint8Array")]
    pub fn push(&self, chunk: Uint8ArraySlice) -> bool {
        self.thread.push(&chunk)
    }

    /// No more input: the file or stream ended.
    #[napi(catch_unwind)]
    pub fn finish(&self) {
        self.thread.finish();
    }

    /// Where decoding is, what it found and its counters.
    #[napi(getter)]
    pub fn status(&self) -> DecodedStatus {
        let s = self.thread.status();
        let info = s.info.as_ref();
        DecodedStatus {
            state: match s.state {
                DecodeState::Probing => DecodedState::Probing,
                DecodeState::Playing => DecodedState::Playing,
                DecodeState::Drained => DecodedState::Drained,
                DecodeState::Failed => DecodedState::Failed,
            },
            error: nullable(s.error),
            codec: nullable(info.map(|i| i.codec.clone())),
            sample_rate: nullable(info.map(|i| i.sample_rate)),
            channels: nullable(info.map(|i| i.channels as u32)),
            bit_depth: nullable(info.and_then(|i| i.bit_depth)),
            decoded_frames: s.decoded_frames as f64,
            skipped_packets: s.skipped_packets as f64,
            queued_frames: s.queued_frames as f64,
            input_queued_bytes: s.input_queued_bytes as f64,
        }
    }
}

impl Drop for DecodedSource {
    /// Garbage collected without `removeMemorySource`: the thread stops and the source it
    /// created goes (unless the id was removed, and perhaps reused, before).
    fn drop(&mut self) {
        let mut map = self.decoders.lock();
        let ours = map
            .get(&self.id)
            .is_some_and(|t| Arc::ptr_eq(t, &self.thread));
        if ours {
            map.remove(&self.id);
        }
        drop(map);
        self.thread.stop();
        if ours && self.thread.opened() {
            let _ = self.sources.remove(&self.id);
        }
    }
}
