//! Format and layout parsing for JavaScript, so callers use the DSP core's rules instead of
//! copies of them.

use napi_derive::napi;
use tributary_dsp::{ChannelLayout, SampleFormat};

use crate::convert::{invalid, stream_format};

/// Number of equalizer bands (b1..b18).
#[napi]
pub const EQ_BAND_COUNT: u32 = tributary_dsp::eq::BANDS as u32;

/// A sample format's canonical name.
#[napi(string_enum = "lowercase")]
pub enum SampleFormatName {
    S16le,
    S16be,
    S24le,
    S24be,
    S32le,
}

/// A parsed `FORMAT:RATE:CHANNELS[:LAYOUT]` stream format.
#[napi(object)]
pub struct FormatInfo {
    /// Canonical sample format name.
    pub sample_format: SampleFormatName,
    pub rate: u32,
    pub channels: u32,
    /// Layout name (e.g. `5.1`) or mask (e.g. `0x3F`) for unnamed masks.
    pub layout: String,
    /// WAVE_FORMAT_EXTENSIBLE channel mask.
    pub mask: u32,
    /// Bits per sample (16, 24 or 32).
    pub bits: u32,
    /// Bytes of one interleaved frame.
    pub frame_bytes: u32,
    /// The normalised text, e.g. `s16le:48000:2:stereo`.
    pub text: String,
}

/// Parses a stream format; throws with the rule that failed.
#[napi]
pub fn parse_format(text: String) -> napi::Result<FormatInfo> {
    let f = stream_format("format", &text)?;
    Ok(FormatInfo {
        sample_format: match f.sample_format {
            SampleFormat::S16Le => SampleFormatName::S16le,
            SampleFormat::S16Be => SampleFormatName::S16be,
            SampleFormat::S24Le => SampleFormatName::S24le,
            SampleFormat::S24Be => SampleFormatName::S24be,
            SampleFormat::S32Le => SampleFormatName::S32le,
        },
        rate: f.rate,
        channels: f.channels() as u32,
        layout: f.layout.to_string(),
        mask: f.layout.mask(),
        bits: f.sample_format.bit_depth(),
        frame_bytes: f.frame_bytes() as u32,
        text: f.to_string(),
    })
}

/// A channel layout: its canonical name (or mask), mask and channel count.
#[napi(object)]
pub struct LayoutInfo {
    pub name: String,
    pub mask: u32,
    pub channels: u32,
}

/// Parses a layout name (mono, stereo, quad, surround, 3.1, 4.0, 5.1, 5.1(side), 7.1) or a
/// mask such as `0x3F`; throws for anything else.
#[napi]
pub fn parse_layout(name: String) -> napi::Result<LayoutInfo> {
    let l: ChannelLayout = name
        .parse()
        .map_err(|e: tributary_dsp::DspError| invalid(e.to_string()))?;
    Ok(LayoutInfo {
        name: l.to_string(),
        mask: l.mask(),
        channels: l.channels() as u32,
    })
}
