//! Where the received audio plays: the back ends. [`pulse`] (PulseAudio, and PipeWire
//! through pipewire-pulse) writes from a thread of its own; [`device`] (ALSA and JACK, through
//! cpal) is pulled by the device's callback. Either drains the card's ring; [`playing`] holds
//! the one running.

pub mod alsa_names;
pub mod cpal_devices;
pub mod device;
pub mod playing;
pub mod pulse;

use std::sync::atomic::AtomicU64;

/// What a back end counts, read by the verbose report.
#[derive(Default)]
pub struct CardStats {
    /// Frames handed to the sound server or device.
    pub frames: AtomicU64,
    /// Times the engine had not rendered in time and silence was written instead.
    pub underruns: AtomicU64,
    /// The sound server's latency (its buffer and the device's), microseconds.
    pub server_latency_us: AtomicU64,
    /// Errors the device reported and played on after (JACK's xruns; ALSA and JACK only).
    pub device_errors: AtomicU64,
}

/// A back end that cannot start or stopped playing, in words for the user.
#[derive(Debug, Clone, PartialEq)]
pub struct OutputError(pub String);

impl std::fmt::Display for OutputError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for OutputError {}
