//! A stream's wire format: sample encoding, rate, channels and layout.

use std::fmt;
use std::str::FromStr;

use crate::buffer::check_channels;
use crate::error::{invalid, DspError};
use crate::layout::ChannelLayout;
use crate::resampler::{MAX_RATE, MIN_RATE};
use crate::sample_format::SampleFormat;

/// What the bytes of a stream mean.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct StreamFormat {
    pub sample_format: SampleFormat,
    pub rate: u32,
    pub layout: ChannelLayout,
}

impl StreamFormat {
    /// A format with the default layout for the channel count (see
    /// [`ChannelLayout::default_for_channels`]).
    pub fn new(sample_format: SampleFormat, rate: u32, channels: usize) -> Result<Self, DspError> {
        if !(MIN_RATE..=MAX_RATE).contains(&rate) {
            return Err(invalid(format!(
                "sample rate must be {MIN_RATE}-{MAX_RATE} Hz, got {rate}"
            )));
        }
        check_channels(channels)?;
        Ok(StreamFormat {
            sample_format,
            rate,
            layout: ChannelLayout::default_for_channels(channels)?,
        })
    }

    pub fn with_layout(
        sample_format: SampleFormat,
        rate: u32,
        layout: ChannelLayout,
    ) -> Result<Self, DspError> {
        let mut f = StreamFormat::new(sample_format, rate, layout.channels())?;
        f.layout = layout;
        Ok(f)
    }

    pub fn channels(&self) -> usize {
        self.layout.channels()
    }

    /// Bytes of one interleaved frame.
    pub fn frame_bytes(&self) -> usize {
        self.channels() * self.sample_format.bytes_per_sample()
    }
}

impl FromStr for StreamFormat {
    type Err = DspError;

    /// `FORMAT:RATE:CHANNELS[:LAYOUT]`, e.g. `s16le:44100:2` or `s24be:48000:6:5.1(side)`.
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let parts: Vec<&str> = s.split(':').collect();
        if parts.len() < 3 || parts.len() > 4 {
            return Err(invalid(format!(
                "format '{s}' must look like FORMAT:RATE:CHANNELS[:LAYOUT], e.g. s16le:48000:2"
            )));
        }
        let sample_format: SampleFormat = parts[0]
            .parse()
            .map_err(|e: crate::sample_format::UnknownSampleFormat| invalid(e.to_string()))?;
        let rate: u32 = parts[1].parse().map_err(|_| {
            invalid(format!(
                "sample rate '{}' is not a whole number of Hz",
                parts[1]
            ))
        })?;
        let channels: usize = parts[2].parse().map_err(|_| {
            invalid(format!(
                "channel count '{}' is not a whole number",
                parts[2]
            ))
        })?;
        let mut f = StreamFormat::new(sample_format, rate, channels)?;
        if let Some(name) = parts.get(3) {
            let layout: ChannelLayout = name.parse()?;
            if layout.channels() != channels {
                return Err(invalid(format!(
                    "layout {layout} has {} channels, the format says {channels}",
                    layout.channels()
                )));
            }
            f.layout = layout;
        }
        Ok(f)
    }
}

impl fmt::Display for StreamFormat {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}:{}:{}:{}",
            self.sample_format,
            self.rate,
            self.channels(),
            self.layout
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_the_cli_notation() {
        let f: StreamFormat = "s16le:44100:2".parse().unwrap();
        assert_eq!(
            (f.sample_format, f.rate, f.channels(), f.frame_bytes()),
            (SampleFormat::S16Le, 44_100, 2, 4)
        );
        let g: StreamFormat = "l24:96000:6:5.1(side)".parse().unwrap();
        assert_eq!(g.layout, ChannelLayout::LAYOUT_5_1_SIDE);
        assert_eq!(g.to_string(), "s24be:96000:6:5.1(side)");
        for bad in [
            "s16le:44100",
            "u8:44100:2",
            "s16le:fast:2",
            "s16le:44100:9",
            "s16le:1:2",
            "s16le:48000:2:5.1",
        ] {
            assert!(bad.parse::<StreamFormat>().is_err(), "{bad}");
        }
    }
}
