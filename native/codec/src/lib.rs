//! Tributary's encoders for listening outputs, free of the engine and of Node: MP3 for the
//! HTTP streams ([`mp3`]) and the MPEG audio frame parser that cuts LAME's output into whole
//! frames ([`frames`]), so a listener can join the stream at any frame; Opus ([`opus`]) for
//! WebRTC listening (the engine's WHEP sessions, `sink/listen/whep/`).

pub mod error;
pub mod frames;
pub mod mp3;
pub mod opus;

pub use error::CodecError;
pub use frames::{FrameHeader, FrameSplitter};
pub use mp3::{mp3_output_rate, Mp3Encoder, MP3_BITRATES, MP3_DEFAULT_BITRATE};
pub use opus::{OpusEncoder, OpusProfile, OPUS_FRAME, OPUS_PROFILES, OPUS_RATE};
