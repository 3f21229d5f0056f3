//! Tributary's DSP core. Pure functions and pre-allocated processors: no sockets, no threads,
//! no napi. Everything on the real-time path writes into caller-provided buffers.

// DSP kernels index several parallel arrays with one counter, as the maths is written.
#![allow(clippy::needless_range_loop)]

pub mod buffer;
pub mod denormal;
pub mod dither;
mod encode_s16;
pub mod eq;
pub mod error;
pub mod format;
pub mod layout;
pub mod limiter;
pub mod matrix;
pub mod mixer;
pub mod normalize;
pub mod resampler;
pub mod sample_format;
pub mod simd;
pub mod spectrum;
pub mod volume;

#[cfg(test)]
mod testutil;

pub use buffer::{AudioBuffer, MAX_CHANNELS};
pub use eq::Equalizer;
pub use error::DspError;
pub use format::StreamFormat;
pub use layout::{ChannelLayout, Speaker};
pub use limiter::SoftLimiter;
pub use matrix::MixMatrix;
pub use mixer::Mixer;
pub use normalize::Normalizer;
pub use resampler::Resampler;
pub use sample_format::{decode_into, encode_into, Encoder, SampleFormat};
pub use spectrum::SpectrumAnalyzer;
pub use volume::Volume;
