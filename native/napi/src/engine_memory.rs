//! `engine.addMemorySource(id, format)` -> `MemorySource`: an in-process source (see
//! `tributary_engine::source::memory`). JavaScript (tests, or anything that decodes in JS)
//! writes PCM into its lock-free ring; a path whose `source_config_id` is `id` plays it like a
//! network source. A write never waits: it takes the whole frames that fit and says how many.

use crate::convert::invalid;
use crate::engine::Engine;
use napi::bindgen_prelude::{Float32ArraySlice, Uint8ArraySlice};
use napi_derive::napi;
use tributary_dsp::SampleFormat;
use tributary_engine::{MemoryFormat, MemoryWriter};

/// The format a memory source's writer sends, and its ring's length.
#[napi(object)]
pub struct MemorySourceFormat {
    /// 8 000 - 384 000 Hz.
    pub sample_rate: u32,
    /// 1 - 8.
    pub channels: u32,
    /// `s16le`, `s16be`, `s24le`, `s24be` or `s32le` (what `write` takes; `writeSamples` takes
    /// f32 whatever this says).
    pub sample_format: String,
    /// Audio the ring holds, 10 - 10 000 ms (default 200): what a writer may write ahead.
    pub ring_ms: Option<u32>,
}

/// The writing end of an in-process source.
#[napi]
pub struct MemorySource {
    id: String,
    writer: MemoryWriter,
}

#[napi]
impl Engine {
    /// Creates the in-process source `id`; a path naming it (`source_config_id`) plays it.
    /// Throws (InvalidArg, naming the field) for a format out of bounds or an `id` that exists.
    #[napi(catch_unwind)]
    pub fn add_memory_source(
        &mut self,
        id: String,
        format: MemorySourceFormat,
    ) -> napi::Result<MemorySource> {
        let sample_format = format
            .sample_format
            .parse::<SampleFormat>()
            .map_err(|e| invalid(format!("sample_format: {e}")))?;
        let channels =
            u8::try_from(format.channels).map_err(|_| invalid("channels: is outside 1-8"))?;
        let core_format = MemoryFormat {
            sample_rate: format.sample_rate,
            channels,
            sample_format,
            float: false,
        };
        if self.decoders.contains(&id) {
            return Err(invalid(format!("id: memory source '{id}' exists already")));
        }
        let writer = self
            .core()?
            .add_memory_source(&id, core_format, format.ring_ms.unwrap_or(200))
            .map_err(|e| invalid(e.0))?;
        Ok(MemorySource { id, writer })
    }

    /// Removes the in-process source `id` (its paths stop; its writer's frames go nowhere);
    /// a decoded source's decoder thread stops first. False when there is none.
    #[napi(catch_unwind)]
    pub fn remove_memory_source(&mut self, id: String) -> napi::Result<bool> {
        let decoding = self.decoders.stop(&id);
        let removed = self
            .core()?
            .remove_memory_source(&id)
            .map_err(|e| invalid(e.0))?;
        Ok(removed || decoding)
    }
}

#[napi]
impl MemorySource {
    /// The source's id.
    #[napi(getter)]
    pub fn id(&self) -> String {
        self.id.clone()
    }

    /// Writes the whole frames of `pcm` (interleaved, in the source's sample format) that fit
    /// in the ring; returns how many frames it took (write the rest later).
    #[napi(catch_unwind, ts_args_type = "pcm: Buffer | Uint8Array")]
    pub fn write(&mut self, pcm: Uint8ArraySlice) -> u32 {
        self.writer.write(&pcm) as u32
    }

    /// Writes whole frames of interleaved f32 samples that fit; returns how many.
    #[napi(catch_unwind)]
    pub fn write_samples(&mut self, samples: Float32ArraySlice) -> u32 {
        self.writer.write_samples(&samples) as u32
    }

    /// Frames the ring has room for now.
    #[napi(getter)]
    pub fn free_frames(&self) -> u32 {
        self.writer.free_frames() as u32
    }

    /// Frames written that the engine has not taken yet.
    #[napi(getter)]
    pub fn queued_frames(&self) -> u32 {
        self.writer.queued_frames() as u32
    }
}
