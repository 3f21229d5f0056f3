//! Capture from PulseAudio (or PipeWire through pipewire-pulse) with the simple API, already in
//! the wire's encoding (S16BE for RTP, S16LE for Scream: the sound server converts), one packet's
//! payload per read. The record stream's fragment is one payload, so the server hands over each
//! packet's worth as its source produces it: the source's clock paces the sender.

use libpulse_binding::def::BufferAttr;
use libpulse_binding::error::PAErr;
use libpulse_binding::sample::{Format, Spec};
use libpulse_binding::stream::Direction;
use libpulse_simple_binding::Simple;
use tributary_dsp::SampleFormat;

/// What and how to capture.
pub struct CaptureSettings {
    /// `PULSE_SERVER`'s form; `None`: the session's server.
    pub server: Option<String>,
    /// The source; `None`: the server's default.
    pub device: Option<String>,
    pub stream_name: String,
    pub format: SampleFormat,
    pub rate: u32,
    pub channels: u8,
    /// Bytes per read (one packet's payload).
    pub fragment: usize,
}

/// An open record stream.
pub struct Capture {
    stream: Simple,
}

impl Capture {
    /// Opens the stream; an error in words naming the server and the source when the server
    /// is not reachable or refuses the stream (a source it does not have: `No such entity`).
    pub fn open(s: &CaptureSettings) -> Result<Self, String> {
        let format = match s.format {
            SampleFormat::S16Be => Format::S16be,
            _ => Format::S16le,
        };
        let spec = Spec {
            format,
            channels: s.channels,
            rate: s.rate,
        };
        let attr = BufferAttr {
            maxlength: u32::MAX,
            tlength: u32::MAX,
            prebuf: u32::MAX,
            minreq: u32::MAX,
            fragsize: s.fragment as u32,
        };
        let stream = Simple::new(
            s.server.as_deref(),
            "Tributary",
            Direction::Record,
            s.device.as_deref(),
            &s.stream_name,
            &spec,
            None,
            Some(&attr),
        )
        .map_err(|e| {
            format!(
                "cannot capture from PulseAudio ({}, source {}): {}. Is PulseAudio or PipeWire \
                 (pipewire-pulse) running for this user, and does the source exist (pactl list \
                 short sources)?",
                s.server.as_deref().unwrap_or("the session's server"),
                s.device.as_deref().unwrap_or("the default"),
                describe(&e)
            )
        })?;
        Ok(Self { stream })
    }

    /// Fills `into` with the next PCM (blocks until the source has produced it).
    pub fn read(&self, into: &mut [u8]) -> Result<(), String> {
        self.stream
            .read(into)
            .map_err(|e| format!("PulseAudio stopped capturing: {}", describe(&e)))
    }

    /// What the server holds for us and the source's own latency, microseconds.
    pub fn latency_us(&self) -> Option<u64> {
        self.stream.get_latency().ok().map(|us| us.0)
    }
}

fn describe(e: &PAErr) -> String {
    e.to_string().unwrap_or_else(|| format!("error {}", e.0))
}
