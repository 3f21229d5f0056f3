//! Channel layouts as WAVEFORMATEXTENSIBLE speaker masks, the way Scream sends them.
//!
//! A layout is a set of speakers; channels are ordered by ascending mask bit (the
//! WAVEFORMATEXTENSIBLE rule), so `0x3F` (5.1) is FL, FR, FC, LFE, BL, BR.

use std::fmt;
use std::str::FromStr;

use crate::buffer::MAX_CHANNELS;
use crate::error::{invalid, DspError};

/// One loudspeaker position; the value is its `dwChannelMask` bit.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[repr(u32)]
pub enum Speaker {
    FrontLeft = 0x1,
    FrontRight = 0x2,
    FrontCenter = 0x4,
    LowFrequency = 0x8,
    BackLeft = 0x10,
    BackRight = 0x20,
    FrontLeftOfCenter = 0x40,
    FrontRightOfCenter = 0x80,
    BackCenter = 0x100,
    SideLeft = 0x200,
    SideRight = 0x400,
}

/// Every speaker Tributary maps, in mask-bit order.
pub const SPEAKERS: [Speaker; 11] = [
    Speaker::FrontLeft,
    Speaker::FrontRight,
    Speaker::FrontCenter,
    Speaker::LowFrequency,
    Speaker::BackLeft,
    Speaker::BackRight,
    Speaker::FrontLeftOfCenter,
    Speaker::FrontRightOfCenter,
    Speaker::BackCenter,
    Speaker::SideLeft,
    Speaker::SideRight,
];

const KNOWN_BITS: u32 = 0x7FF;

impl Speaker {
    pub const fn bit(self) -> u32 {
        self as u32
    }

    /// The short name ffmpeg and the Windows SDK use (FL, FR, FC, LFE, ...).
    pub const fn short_name(self) -> &'static str {
        match self {
            Speaker::FrontLeft => "FL",
            Speaker::FrontRight => "FR",
            Speaker::FrontCenter => "FC",
            Speaker::LowFrequency => "LFE",
            Speaker::BackLeft => "BL",
            Speaker::BackRight => "BR",
            Speaker::FrontLeftOfCenter => "FLC",
            Speaker::FrontRightOfCenter => "FRC",
            Speaker::BackCenter => "BC",
            Speaker::SideLeft => "SL",
            Speaker::SideRight => "SR",
        }
    }
}

/// A channel layout: which speakers, in WAVEFORMATEXTENSIBLE order.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct ChannelLayout {
    mask: u32,
}

/// The named layouts and their masks. `surround` is Windows' KSAUDIO_SPEAKER_SURROUND
/// (FL FR FC BC), which is also what ffmpeg calls `4.0`, so both names give one layout.
pub const NAMED_LAYOUTS: [(&str, u32); 9] = [
    ("mono", 0x4),
    ("stereo", 0x3),
    ("quad", 0x33),
    ("surround", 0x107),
    ("3.1", 0xF),
    ("4.0", 0x107),
    ("5.1", 0x3F),
    ("5.1(side)", 0x60F),
    ("7.1", 0x63F),
];

impl ChannelLayout {
    pub const MONO: ChannelLayout = ChannelLayout { mask: 0x4 };
    pub const STEREO: ChannelLayout = ChannelLayout { mask: 0x3 };
    pub const QUAD: ChannelLayout = ChannelLayout { mask: 0x33 };
    pub const SURROUND: ChannelLayout = ChannelLayout { mask: 0x107 };
    pub const LAYOUT_3_1: ChannelLayout = ChannelLayout { mask: 0xF };
    pub const LAYOUT_4_0: ChannelLayout = ChannelLayout { mask: 0x107 };
    pub const LAYOUT_5_1: ChannelLayout = ChannelLayout { mask: 0x3F };
    pub const LAYOUT_5_1_SIDE: ChannelLayout = ChannelLayout { mask: 0x60F };
    pub const LAYOUT_7_1: ChannelLayout = ChannelLayout { mask: 0x63F };

    /// A layout from a `dwChannelMask`. Only the 11 speaker bits up to SR are mapped; other
    /// bits (top speakers) are rejected so no channel is silently lost.
    pub fn from_mask(mask: u32) -> Result<Self, DspError> {
        if mask == 0 {
            return Err(invalid("channel mask must not be 0"));
        }
        if mask & !KNOWN_BITS != 0 {
            return Err(invalid(format!(
                "channel mask 0x{mask:X} has speaker bits Tributary does not map (only 0x7FF: FL..SR)"
            )));
        }
        if mask.count_ones() as usize > MAX_CHANNELS {
            return Err(invalid(format!(
                "channel mask 0x{mask:X} has more than {MAX_CHANNELS} channels"
            )));
        }
        Ok(ChannelLayout { mask })
    }

    /// The layout Scream and Windows assume for a bare channel count: 1 mono, 2 stereo,
    /// 3 FL FR FC, 4 quad, 5 5.0, 6 5.1, 7 6.1 (5.1 + BC), 8 7.1.
    pub fn default_for_channels(channels: usize) -> Result<Self, DspError> {
        let mask = match channels {
            1 => 0x4,
            2 => 0x3,
            3 => 0x7,
            4 => 0x33,
            5 => 0x37,
            6 => 0x3F,
            7 => 0x13F,
            8 => 0x63F,
            _ => return Err(invalid(format!("channels must be 1-8, got {channels}"))),
        };
        Ok(ChannelLayout { mask })
    }

    pub const fn mask(self) -> u32 {
        self.mask
    }

    pub const fn channels(self) -> usize {
        self.mask.count_ones() as usize
    }

    /// The speaker carried by channel `index`.
    pub fn speaker(self, index: usize) -> Option<Speaker> {
        self.speakers().nth(index)
    }

    /// The speakers in channel order.
    pub fn speakers(self) -> impl Iterator<Item = Speaker> {
        SPEAKERS
            .into_iter()
            .filter(move |s| self.mask & s.bit() != 0)
    }

    /// The channel index of `speaker`, if the layout has it.
    pub fn index_of(self, speaker: Speaker) -> Option<usize> {
        if self.mask & speaker.bit() == 0 {
            return None;
        }
        Some((self.mask & (speaker.bit() - 1)).count_ones() as usize)
    }

    pub fn has(self, speaker: Speaker) -> bool {
        self.mask & speaker.bit() != 0
    }

    /// The first name in [`NAMED_LAYOUTS`] for this mask, if any.
    pub fn name(self) -> Option<&'static str> {
        NAMED_LAYOUTS
            .iter()
            .find(|(_, m)| *m == self.mask)
            .map(|(n, _)| *n)
    }
}

impl FromStr for ChannelLayout {
    type Err = DspError;

    /// Accepts the names in [`NAMED_LAYOUTS`] (any letter case) or a mask such as `0x3F`.
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let lower = s.trim().to_ascii_lowercase();
        if let Some(hex) = lower.strip_prefix("0x") {
            let mask = u32::from_str_radix(hex, 16)
                .map_err(|_| invalid(format!("channel mask '{s}' is not hexadecimal")))?;
            return ChannelLayout::from_mask(mask);
        }
        NAMED_LAYOUTS
            .iter()
            .find(|(n, _)| *n == lower)
            .map(|(_, mask)| ChannelLayout { mask: *mask })
            .ok_or_else(|| {
                invalid(format!(
                    "unknown channel layout '{s}' (expected one of {} or a mask like 0x3F)",
                    NAMED_LAYOUTS.map(|(n, _)| n).join(", ")
                ))
            })
    }
}

impl fmt::Display for ChannelLayout {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.name() {
            Some(n) => f.write_str(n),
            None => write!(f, "0x{:X}", self.mask),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn named_layouts_have_scream_masks_and_channel_orders() {
        let l: ChannelLayout = "5.1".parse().unwrap();
        assert_eq!(l.mask(), 0x3F);
        let names: Vec<_> = l.speakers().map(Speaker::short_name).collect();
        assert_eq!(names, ["FL", "FR", "FC", "LFE", "BL", "BR"]);
        let side: ChannelLayout = "5.1(SIDE)".parse().unwrap();
        assert_eq!(side.index_of(Speaker::SideLeft), Some(4));
        assert_eq!("7.1".parse::<ChannelLayout>().unwrap().channels(), 8);
        assert_eq!(
            "mono".parse::<ChannelLayout>().unwrap().speaker(0),
            Some(Speaker::FrontCenter)
        );
        assert_eq!(
            "4.0".parse::<ChannelLayout>().unwrap(),
            ChannelLayout::SURROUND
        );
        assert_eq!("0x3f".parse::<ChannelLayout>().unwrap().to_string(), "5.1");
        for (name, mask) in NAMED_LAYOUTS {
            let l: ChannelLayout = name.parse().unwrap();
            assert_eq!(l.mask(), mask);
            assert_eq!(l.speakers().count(), l.channels());
        }
    }

    #[test]
    fn bad_layouts_are_rejected_with_a_reason() {
        assert!("5.2"
            .parse::<ChannelLayout>()
            .unwrap_err()
            .to_string()
            .contains("5.1(side)"));
        assert!(ChannelLayout::from_mask(0).is_err());
        assert!(ChannelLayout::from_mask(0x800).is_err());
        assert!(ChannelLayout::default_for_channels(9).is_err());
        for n in 1..=8 {
            assert_eq!(
                ChannelLayout::default_for_channels(n).unwrap().channels(),
                n
            );
        }
    }
}
