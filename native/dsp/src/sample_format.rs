//! Wire sample formats Tributary reads and writes.

use std::fmt;
use std::str::FromStr;

use crate::buffer::AudioBuffer;
use crate::dither::Tpdf;
use crate::encode_s16::{self, quantize};
use crate::error::DspError;
use crate::simd::Isa;

/// A PCM sample encoding on the wire.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum SampleFormat {
    S16Le,
    S16Be,
    S24Le,
    S24Be,
    S32Le,
}

impl SampleFormat {
    /// Bytes one sample of one channel occupies (24-bit is packed, three bytes).
    pub const fn bytes_per_sample(self) -> usize {
        match self {
            SampleFormat::S16Le | SampleFormat::S16Be => 2,
            SampleFormat::S24Le | SampleFormat::S24Be => 3,
            SampleFormat::S32Le => 4,
        }
    }

    /// Significant bits per sample.
    pub const fn bit_depth(self) -> u32 {
        (self.bytes_per_sample() * 8) as u32
    }
}

/// Error for a sample format name that is not one Tributary knows.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UnknownSampleFormat(pub String);

impl fmt::Display for UnknownSampleFormat {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "unknown sample format '{}' (expected s16le, s16be, l16, s24le, s24be, l24 or s32le)",
            self.0
        )
    }
}

impl std::error::Error for UnknownSampleFormat {}

impl FromStr for SampleFormat {
    type Err = UnknownSampleFormat;

    /// Parses the names users write: `s16le`, `s16be`/`l16`, `s24le`, `s24be`/`l24`, `s32le`,
    /// in any letter case.
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s.to_ascii_lowercase().as_str() {
            "s16le" => Ok(SampleFormat::S16Le),
            "s16be" | "l16" => Ok(SampleFormat::S16Be),
            "s24le" => Ok(SampleFormat::S24Le),
            "s24be" | "l24" => Ok(SampleFormat::S24Be),
            "s32le" => Ok(SampleFormat::S32Le),
            _ => Err(UnknownSampleFormat(s.to_owned())),
        }
    }
}

impl fmt::Display for SampleFormat {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            SampleFormat::S16Le => "s16le",
            SampleFormat::S16Be => "s16be",
            SampleFormat::S24Le => "s24le",
            SampleFormat::S24Be => "s24be",
            SampleFormat::S32Le => "s32le",
        })
    }
}

/// Every sample format, for iteration in tests and docs.
pub const ALL_SAMPLE_FORMATS: [SampleFormat; 5] = [
    SampleFormat::S16Le,
    SampleFormat::S16Be,
    SampleFormat::S24Le,
    SampleFormat::S24Be,
    SampleFormat::S32Le,
];

impl SampleFormat {
    /// The full-scale value: a float of 1.0 maps to this integer (exclusive).
    const fn scale(self) -> f32 {
        match self {
            SampleFormat::S16Le | SampleFormat::S16Be => 32_768.0,
            SampleFormat::S24Le | SampleFormat::S24Be => 8_388_608.0,
            SampleFormat::S32Le => 2_147_483_648.0,
        }
    }

    #[inline(always)]
    fn read(self, b: &[u8]) -> i32 {
        match self {
            SampleFormat::S16Le => i16::from_le_bytes([b[0], b[1]]) as i32,
            SampleFormat::S16Be => i16::from_be_bytes([b[0], b[1]]) as i32,
            // Sign-extend the packed 24-bit value through the top byte of an i32.
            SampleFormat::S24Le => i32::from_le_bytes([0, b[0], b[1], b[2]]) >> 8,
            SampleFormat::S24Be => i32::from_be_bytes([b[0], b[1], b[2], 0]) >> 8,
            SampleFormat::S32Le => i32::from_le_bytes([b[0], b[1], b[2], b[3]]),
        }
    }

    #[inline(always)]
    fn write(self, v: i32, b: &mut [u8]) {
        match self {
            SampleFormat::S16Le => b[..2].copy_from_slice(&(v as i16).to_le_bytes()),
            SampleFormat::S16Be => b[..2].copy_from_slice(&(v as i16).to_be_bytes()),
            SampleFormat::S24Le => b[..3].copy_from_slice(&v.to_le_bytes()[..3]),
            SampleFormat::S24Be => b[..3].copy_from_slice(&v.to_be_bytes()[1..]),
            SampleFormat::S32Le => b[..4].copy_from_slice(&v.to_le_bytes()),
        }
    }
}

/// Decodes interleaved PCM bytes into planar f32 in [-1, 1). Only whole frames are decoded
/// (`input.len() / (channels * bytes_per_sample)`); returns that frame count and sets
/// `out.frames()`. Lossless for 16- and 24-bit formats.
pub fn decode_into(
    format: SampleFormat,
    input: &[u8],
    out: &mut AudioBuffer,
) -> Result<usize, DspError> {
    let channels = out.channels();
    let frame_bytes = channels * format.bytes_per_sample();
    if frame_bytes == 0 {
        out.set_frames(0);
        return Ok(0);
    }
    let frames = input.len() / frame_bytes;
    if frames > out.capacity() {
        return Err(DspError::OutputTooSmall {
            needed: frames,
            available: out.capacity(),
        });
    }
    let inv = 1.0 / format.scale();
    match (format, channels) {
        (SampleFormat::S16Le | SampleFormat::S16Be, 1 | 2) => {
            decode_s16_fast(format == SampleFormat::S16Be, input, out, frames, inv)
        }
        _ => decode_reference(format, input, out, frames),
    }
    out.set_frames(frames);
    Ok(frames)
}

/// The general decoder: every format and channel count, sample by sample. It is also the
/// reference the fast paths are tested against.
pub(crate) fn decode_reference(
    format: SampleFormat,
    input: &[u8],
    out: &mut AudioBuffer,
    frames: usize,
) {
    match format {
        SampleFormat::S16Le => decode_with(SampleFormat::S16Le, input, out, frames),
        SampleFormat::S16Be => decode_with(SampleFormat::S16Be, input, out, frames),
        SampleFormat::S24Le => decode_with(SampleFormat::S24Le, input, out, frames),
        SampleFormat::S24Be => decode_with(SampleFormat::S24Be, input, out, frames),
        SampleFormat::S32Le => decode_with(SampleFormat::S32Le, input, out, frames),
    }
}

/// 16-bit mono and stereo, the common stream formats, in loops the compiler vectorises.
fn decode_s16_fast(big_endian: bool, input: &[u8], out: &mut AudioBuffer, frames: usize, inv: f32) {
    let cap = out.capacity();
    let read = |b: &[u8]| {
        let v = if big_endian {
            i16::from_be_bytes([b[0], b[1]])
        } else {
            i16::from_le_bytes([b[0], b[1]])
        };
        v as f32 * inv
    };
    if out.channels() == 1 {
        for (x, b) in out.raw_mut()[..frames]
            .iter_mut()
            .zip(input.chunks_exact(2))
        {
            *x = read(b);
        }
    } else {
        let (left, right) = out.raw_mut().split_at_mut(cap);
        for ((l, r), b) in left[..frames]
            .iter_mut()
            .zip(&mut right[..frames])
            .zip(input.chunks_exact(4))
        {
            *l = read(&b[..2]);
            *r = read(&b[2..]);
        }
    }
}

#[inline(always)]
fn decode_with(format: SampleFormat, input: &[u8], out: &mut AudioBuffer, frames: usize) {
    let channels = out.channels();
    let bps = format.bytes_per_sample();
    let cap = out.capacity();
    let inv = 1.0 / format.scale();
    let raw = out.raw_mut();
    for (f, frame) in input.chunks_exact(channels * bps).take(frames).enumerate() {
        for (c, sample) in frame.chunks_exact(bps).enumerate() {
            raw[c * cap + f] = format.read(sample) as f32 * inv;
        }
    }
}

/// Encodes planar f32 into interleaved PCM. Values are clamped to the format's range (so
/// overload saturates and never wraps; NaN becomes 0) and rounded to nearest. With `dither`,
/// TPDF noise of +-1 LSB is added before rounding. Returns the bytes written.
pub fn encode_into(
    format: SampleFormat,
    input: &AudioBuffer,
    out: &mut [u8],
    dither: Option<&mut Tpdf>,
) -> Result<usize, DspError> {
    encode_into_with(Isa::detect(), format, input, out, dither)
}

/// [`encode_into`] with a chosen kernel (tests compare them).
pub(crate) fn encode_into_with(
    isa: Isa,
    format: SampleFormat,
    input: &AudioBuffer,
    out: &mut [u8],
    dither: Option<&mut Tpdf>,
) -> Result<usize, DspError> {
    let channels = input.channels();
    let frames = input.frames();
    let needed = frames * channels * format.bytes_per_sample();
    if needed > out.len() {
        return Err(DspError::OutputTooSmall {
            needed,
            available: out.len(),
        });
    }
    match (format, channels) {
        (SampleFormat::S16Le | SampleFormat::S16Be, 1 | 2) => {
            encode_s16::encode(isa, format == SampleFormat::S16Be, input, out, dither)
        }
        _ => encode_reference(format, input, out, dither),
    }
    Ok(needed)
}

/// The general encoder: every format, channel count and dither setting, sample by sample; the
/// reference for the fast paths.
pub(crate) fn encode_reference(
    format: SampleFormat,
    input: &AudioBuffer,
    out: &mut [u8],
    dither: Option<&mut Tpdf>,
) {
    match (format, dither) {
        (SampleFormat::S16Le, None) => encode_with(SampleFormat::S16Le, input, out, None),
        (SampleFormat::S16Be, None) => encode_with(SampleFormat::S16Be, input, out, None),
        (SampleFormat::S24Le, None) => encode_with(SampleFormat::S24Le, input, out, None),
        (SampleFormat::S24Be, None) => encode_with(SampleFormat::S24Be, input, out, None),
        (SampleFormat::S32Le, None) => encode_with(SampleFormat::S32Le, input, out, None),
        (f, Some(d)) => encode_with(f, input, out, Some(d)),
    }
}

#[inline(always)]
fn encode_with(
    format: SampleFormat,
    input: &AudioBuffer,
    out: &mut [u8],
    dither: Option<&mut Tpdf>,
) {
    let channels = input.channels();
    let bps = format.bytes_per_sample();
    let cap = input.capacity();
    let scale = format.scale();
    let max = scale - 1.0;
    let min = -scale;
    let raw = input.raw();
    let frames = input.frames();
    let out = &mut out[..frames * channels * bps];
    match dither {
        None => {
            for (f, frame) in out.chunks_exact_mut(channels * bps).enumerate() {
                for (c, sample) in frame.chunks_exact_mut(bps).enumerate() {
                    format.write(quantize(raw[c * cap + f] * scale, min, max), sample);
                }
            }
        }
        Some(d) => {
            for (f, frame) in out.chunks_exact_mut(channels * bps).enumerate() {
                for (c, sample) in frame.chunks_exact_mut(bps).enumerate() {
                    let v = raw[c * cap + f] * scale + d.next_lsb();
                    format.write(quantize(v, min, max), sample);
                }
            }
        }
    }
}

/// A stateful encoder: the format plus its dither noise source, for streams.
#[derive(Clone, Debug)]
pub struct Encoder {
    format: SampleFormat,
    dither: Option<Tpdf>,
}

impl Encoder {
    /// `dither`: add TPDF dither (use it when the signal has more resolution than `format`).
    pub fn new(format: SampleFormat, dither: bool) -> Self {
        Encoder {
            format,
            dither: dither.then(Tpdf::default),
        }
    }

    pub fn format(&self) -> SampleFormat {
        self.format
    }

    pub fn dither(&self) -> bool {
        self.dither.is_some()
    }

    pub fn set_dither(&mut self, on: bool) {
        if on != self.dither.is_some() {
            self.dither = on.then(Tpdf::default);
        }
    }

    /// See [`encode_into`].
    pub fn encode_into(&mut self, input: &AudioBuffer, out: &mut [u8]) -> Result<usize, DspError> {
        encode_into(self.format, input, out, self.dither.as_mut())
    }
}

#[cfg(test)]
mod tests;
