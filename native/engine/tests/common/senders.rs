//! The real senders of the fidelity bench, each sending a 1 kHz L16 stereo tone as RTP to one
//! port on 127.0.0.1 until stopped (or for the run's length).
#![allow(dead_code)]

use super::pulse::Pulse;
use super::rtp_sender::ffmpeg_tone;
use std::process::{Child, Command, Stdio};

pub const FFMPEG_48K: &str = "ffmpeg -re";
pub const FFMPEG_44K: &str = "ffmpeg -re 44.1 kHz PT 10";
pub const GST: &str = "gst rtpL16pay";
pub const PULSE: &str = "pulseaudio module-rtp-send";
/// Not started here: the bench's own thread (`common/bursty.rs`).
pub const BURSTY: &str = "bursty 5-20 ms";

/// What a sender puts on the wire: (RTP clock rate, payload type).
pub fn wire_format(sender: &str) -> (u32, u8) {
    match sender {
        // ffmpeg picks dynamic type 97 for L16 48 kHz stereo, and the static 10 at 44.1 kHz.
        FFMPEG_48K => (48_000, 97),
        FFMPEG_44K | PULSE => (44_100, 10),
        _ => (48_000, 96),
    }
}

/// A running sender.
pub enum Sender {
    Process(Child),
    /// A PulseAudio of its own: a null sink playing `module-sine`, sent by `module-rtp-send`.
    Pulse(Option<Pulse>),
}

impl Sender {
    pub fn stop(&mut self) {
        match self {
            Sender::Process(child) => {
                let _ = child.kill();
                let _ = child.wait();
            }
            // Dropping it stops it.
            Sender::Pulse(pulse) => drop(pulse.take()),
        }
    }
}

/// Starts `sender` (one of the names above, not [`BURSTY`]) sending to 127.0.0.1:`port`.
pub fn start_sender(sender: &str, port: u16, seconds: f64) -> Sender {
    match sender {
        FFMPEG_48K => Sender::Process(ffmpeg_tone(port, 1000.0, 48_000, seconds, &["-ac", "2"])),
        FFMPEG_44K => Sender::Process(ffmpeg_tone(port, 1000.0, 44_100, seconds, &["-ac", "2"])),
        // The RTP guide's settings: mtu=1164 gives 1,152-byte payloads (288 frames).
        PULSE => Sender::Pulse(Some(Pulse::start(
            "fidelity-sender",
            &format!(
                "load-module module-null-sink sink_name=gen rate=44100\n\
                 load-module module-sine sink=gen frequency=1000\n\
                 load-module module-rtp-send source=gen.monitor destination_ip=127.0.0.1 port={port} mtu=1164"
            ),
        ))),
        _ => {
            let buffers = (seconds * 1000.0 / 10.0) as u64;
            Sender::Process(
                Command::new("gst-launch-1.0")
                    .args(["-q", "audiotestsrc", "is-live=true", "freq=1000", "volume=0.125"])
                    .arg(format!("num-buffers={buffers}"))
                    .args(["samplesperbuffer=480", "!", "audio/x-raw,rate=48000,channels=2,format=S16BE"])
                    .args(["!", "rtpL16pay", "pt=96", "!", "udpsink", "host=127.0.0.1"])
                    .arg(format!("port={port}"))
                    .stdout(Stdio::null())
                    .spawn()
                    .expect("the sender runs"),
            )
        }
    }
}
