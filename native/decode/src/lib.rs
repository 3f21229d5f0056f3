//! Tributary's decoder for URL playback (issue 29): a byte stream arriving in chunks (an HTTP
//! body: never seeked; an internet radio stream never ends) to interleaved f32 frames at the
//! stream's own rate and channel count (the engine resamples per path; nothing is resampled
//! here). Containers and codecs through `symphonia` (MP3, AAC in M4A/MP4 or ADTS, FLAC, WAV/PCM,
//! Ogg Vorbis); Ogg Opus through libopus (the `opus` crate). Pure: no engine, no napi.
//!
//! - [`Decoder`]: probe and decode one stream read from any `Read`, block by block.
//! - [`DecodeThread`]: a thread per stream with a bounded input queue its producer never waits
//!   on, writing to a [`FrameOutput`] (the binding's: an engine memory source) opened once the
//!   format is known, with a [`Status`] to poll.
//!
//! Errors are values ([`DecodeError`]) with a reason a person can act on; a packet that fails
//! to decode is skipped and counted, never fatal unless [`decoder::MAX_FAILED_IN_A_ROW`] fail
//! in a row.

pub mod decoder;
pub mod error;
pub mod input;
pub mod mp4;
pub mod opus;
mod probe;
pub mod run;

pub use decoder::{DecodeOptions, Decoder, StreamInfo};
pub use error::DecodeError;
pub use run::{DecodeState, DecodeThread, FrameOutput, Status};
