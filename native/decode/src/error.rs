//! Why a stream cannot be decoded: a value with a reason a person can act on, never a panic.

use std::fmt;

/// Why decoding failed (or never started). `Display` gives the reason the daemon shows (the 422
/// body of URL playback, the status's `error`).
#[derive(Clone, Debug, PartialEq)]
pub enum DecodeError {
    /// The input ended before a single byte arrived.
    Empty,
    /// No container or stream format was recognised in the first `probed` bytes (HTML, text,
    /// an image, ...). `hint` is what the caller said it should be.
    NotAudio { probed: u64, hint: Option<String> },
    /// A codec this decoder does not have (the message names it).
    UnsupportedCodec(String),
    /// Something else this decoder does not play (the message says what).
    Unsupported(String),
    /// More channels than the engine mixes.
    TooManyChannels { channels: usize, max: usize },
    /// A sample rate outside what the engine plays.
    SampleRate { rate: u32, min: u32, max: u32 },
    /// The input ended inside the headers, before any audio (`at` bytes in).
    Truncated { at: u64, what: String },
    /// The input ended before the length its header declares: what there was has been decoded.
    EndedEarly { decoded_s: f64, declared_s: f64 },
    /// The stream is damaged beyond skipping a packet (the message says where).
    Corrupt(String),
    /// Where the frames go refused them (the engine: its reason).
    Output(String),
    /// Decoding was stopped from outside (the source was removed).
    Stopped,
}

impl fmt::Display for DecodeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            DecodeError::Empty => write!(f, "not audio: the input is empty"),
            DecodeError::NotAudio { probed, hint } => {
                write!(f, "not audio: no known format found in the first {probed} bytes")?;
                match hint {
                    Some(h) => write!(f, " (expected {h})"),
                    None => Ok(()),
                }
            }
            DecodeError::UnsupportedCodec(what) => write!(f, "unsupported codec: {what}"),
            DecodeError::Unsupported(what) => write!(f, "unsupported: {what}"),
            DecodeError::TooManyChannels { channels, max } => {
                write!(f, "unsupported: {channels} channels (at most {max})")
            }
            DecodeError::SampleRate { rate, min, max } => {
                write!(f, "unsupported: sample rate {rate} Hz (outside {min}-{max})")
            }
            DecodeError::Truncated { at, what } => {
                write!(f, "truncated: the input ended after {at} bytes, {what}")
            }
            DecodeError::EndedEarly {
                decoded_s,
                declared_s,
            } => write!(
                f,
                "truncated: the input ended after {decoded_s:.2} s of the {declared_s:.2} s its header declares"
            ),
            DecodeError::Corrupt(what) => write!(f, "corrupt: {what}"),
            DecodeError::Output(why) => write!(f, "{why}"),
            DecodeError::Stopped => write!(f, "stopped"),
        }
    }
}

impl std::error::Error for DecodeError {}
