//! The one error type of the DSP core.

use std::fmt;

/// What can go wrong when building or running a processor. Real-time calls only return the
/// size errors; configuration errors come from constructors and setters.
#[derive(Debug, Clone, PartialEq)]
pub enum DspError {
    /// A setting is out of range or inconsistent; the text names the field and the rule.
    InvalidConfig(String),
    /// The caller's output buffer cannot hold the worst-case output of this call.
    OutputTooSmall { needed: usize, available: usize },
    /// A buffer has a different channel count than the processor was built for.
    ChannelMismatch { expected: usize, actual: usize },
}

impl fmt::Display for DspError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            DspError::InvalidConfig(msg) => f.write_str(msg),
            DspError::OutputTooSmall { needed, available } => write!(
                f,
                "output buffer too small: needs room for {needed}, has {available}"
            ),
            DspError::ChannelMismatch { expected, actual } => write!(
                f,
                "buffer has {actual} channel(s), the processor expects {expected}"
            ),
        }
    }
}

impl std::error::Error for DspError {}

/// Shorthand for a configuration error.
pub(crate) fn invalid(msg: impl Into<String>) -> DspError {
    DspError::InvalidConfig(msg.into())
}
