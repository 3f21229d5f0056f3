//! The open input, whichever API it is: PulseAudio's record stream ([`crate::capture`]) or an
//! ALSA or JACK device's ring ([`crate::device_capture`]); the sending thread reads one payload
//! at a time from it.

use crate::capture::{Capture, CaptureSettings};
use crate::device_capture::{self, Api, DeviceCapture, DeviceStats};
use crate::options::Input;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;

pub enum Opened {
    Pulse(Capture),
    Device(DeviceCapture),
}

impl Opened {
    /// Opens `input` as `settings` say (`settings.device`: the source or the ALSA device,
    /// `stream_name`: the JACK client's name).
    pub fn open(input: Input, s: &CaptureSettings) -> Result<Self, String> {
        let api = match input {
            Input::Pulse => return Capture::open(s).map(Opened::Pulse),
            Input::Alsa => Api::Alsa {
                device: s.device.clone().unwrap_or_else(|| "default".into()),
            },
            Input::Jack => Api::Jack {
                client: s.stream_name.clone(),
            },
        };
        device_capture::open(&api, s.rate, u16::from(s.channels)).map(Opened::Device)
    }

    /// What is captured, for the start line.
    pub fn describe(&self, s: &CaptureSettings) -> String {
        match self {
            Opened::Pulse(_) => format!(
                "{} from PulseAudio",
                s.device.as_deref().unwrap_or("the default source")
            ),
            Opened::Device(d) => format!("from {}", d.describe()),
        }
    }

    /// The device's counters (ALSA, JACK).
    pub fn device_stats(&self) -> Option<Arc<DeviceStats>> {
        match self {
            Opened::Pulse(_) => None,
            Opened::Device(d) => Some(d.stats.clone()),
        }
    }

    /// Fills `into` with the next payload; `Ok(false)` when `stop` was set while waiting for a
    /// device (PulseAudio's read returns within a packet).
    pub fn read(
        &mut self,
        into: &mut [u8],
        s: &CaptureSettings,
        stop: &AtomicBool,
    ) -> Result<bool, String> {
        match self {
            Opened::Pulse(c) => c.read(into).map(|()| true),
            Opened::Device(d) => d.read(into, s.format, stop),
        }
    }

    /// PulseAudio's latency (what the server holds and the source's), microseconds.
    pub fn latency_us(&self) -> Option<u64> {
        match self {
            Opened::Pulse(c) => c.latency_us(),
            Opened::Device(_) => None,
        }
    }
}
