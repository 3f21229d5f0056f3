//! Why a datagram was dropped. Every parser returns one of these instead of panicking; the
//! engine counts them per source (or per port when the sender is unknown).

use std::fmt;

/// The reason a packet was not used.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum DropReason {
    /// Shorter than its headers say it must be.
    Truncated,
    /// Longer than the protocol allows (or than the receive buffer).
    Oversized,
    /// Fields with impossible values (wrong version, zero rate, bad lengths...).
    Malformed,
    /// Well formed, but a payload type or format the engine does not play.
    Unsupported,
}

impl DropReason {
    /// A short stable name for logs and stats.
    pub const fn as_str(self) -> &'static str {
        match self {
            DropReason::Truncated => "truncated",
            DropReason::Oversized => "oversized",
            DropReason::Malformed => "malformed",
            DropReason::Unsupported => "unsupported",
        }
    }
}

impl fmt::Display for DropReason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl std::error::Error for DropReason {}
