//! Wire sample formats Tributary reads and writes.

use std::fmt;
use std::str::FromStr;

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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip_and_aliases_resolve() {
        for f in [
            SampleFormat::S16Le,
            SampleFormat::S16Be,
            SampleFormat::S24Le,
            SampleFormat::S24Be,
            SampleFormat::S32Le,
        ] {
            assert_eq!(f.to_string().parse::<SampleFormat>(), Ok(f));
        }
        assert_eq!("L16".parse::<SampleFormat>(), Ok(SampleFormat::S16Be));
        assert_eq!("l24".parse::<SampleFormat>(), Ok(SampleFormat::S24Be));
    }

    #[test]
    fn unknown_names_are_rejected_with_the_name() {
        let err = "u8".parse::<SampleFormat>().unwrap_err();
        assert!(err.to_string().contains("'u8'"));
    }

    #[test]
    fn sizes_match_packed_layouts() {
        assert_eq!(SampleFormat::S16Be.bytes_per_sample(), 2);
        assert_eq!(SampleFormat::S24Le.bytes_per_sample(), 3);
        assert_eq!(SampleFormat::S32Le.bit_depth(), 32);
    }
}
