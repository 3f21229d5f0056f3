//! The back end playing, whichever it is: the PulseAudio thread or an ALSA or JACK stream.

use crate::output::device::DeviceOutput;
use crate::output::pulse::PulseOutput;
use crate::output::{CardStats, OutputError};

/// The back end playing: the PulseAudio thread or an ALSA or JACK stream.
pub enum Output {
    Pulse(PulseOutput),
    Device(DeviceOutput),
}

impl Output {
    pub fn stats(&self) -> &CardStats {
        match self {
            Output::Pulse(p) => &p.stats,
            Output::Device(d) => &d.stats,
        }
    }

    /// Whether it stopped playing (the stream or the server failed).
    pub fn ended(&self) -> bool {
        match self {
            Output::Pulse(p) => p.ended(),
            Output::Device(d) => d.ended(),
        }
    }

    /// Stops playing; the error, if it failed while playing.
    pub fn stop(&mut self) -> Result<(), OutputError> {
        match self {
            Output::Pulse(p) => p.stop(),
            Output::Device(d) => d.stop(),
        }
    }
}
