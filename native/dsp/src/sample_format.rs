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

/// Decodes whole samples of interleaved PCM `bytes` into interleaved f32 `out` (full scale
/// +-1.0); returns how many samples were written (`min(bytes / bytes_per_sample, out.len())`).
/// Lossless for 16- and 24-bit formats; 32-bit keeps 24 significant bits. The one PCM decoder:
/// the engine's sources decode their packets with it, `tributary render` its input.
pub fn decode_into(format: SampleFormat, bytes: &[u8], out: &mut [f32]) -> usize {
    match format {
        SampleFormat::S16Le => {
            decode_with::<2>(bytes, out, |b| f32::from(i16::from_le_bytes(*b)) / 32_768.0)
        }
        SampleFormat::S16Be => {
            decode_with::<2>(bytes, out, |b| f32::from(i16::from_be_bytes(*b)) / 32_768.0)
        }
        SampleFormat::S24Le => decode_with::<3>(bytes, out, |b| {
            // Sign-extend the packed 24-bit value through the top byte of an i32.
            (i32::from_le_bytes([0, b[0], b[1], b[2]]) >> 8) as f32 / 8_388_608.0
        }),
        SampleFormat::S24Be => decode_with::<3>(bytes, out, |b| {
            (i32::from_be_bytes([b[0], b[1], b[2], 0]) >> 8) as f32 / 8_388_608.0
        }),
        SampleFormat::S32Le => decode_with::<4>(bytes, out, |b| {
            (f64::from(i32::from_le_bytes(*b)) / 2_147_483_648.0) as f32
        }),
    }
}

/// One loop per format, so the per-sample work has no branch on it.
#[inline(always)]
fn decode_with<const W: usize>(
    bytes: &[u8],
    out: &mut [f32],
    read: impl Fn(&[u8; W]) -> f32,
) -> usize {
    let n = (bytes.len() / W).min(out.len());
    for (dst, b) in out[..n].iter_mut().zip(bytes.chunks_exact(W)) {
        *dst = read(b.try_into().expect("chunks of W bytes"));
    }
    n
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
