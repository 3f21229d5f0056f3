//! The ALSA and JACK devices cpal opens, found by the names users give, and what cpal's errors
//! mean: shared by `tributary receive` (playback, [`super::device`]) and `tributary send`
//! (capture, `native/send/src/device_capture.rs`), whose messages differ only by the word
//! "capture".

use cpal::traits::{DeviceTrait, HostTrait};
use std::sync::atomic::AtomicU64;
use std::sync::atomic::Ordering::Relaxed;
use std::sync::{Arc, Mutex};

/// Which way the audio goes through the device.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Direction {
    Playback,
    Capture,
}

impl Direction {
    /// The word messages put before "device": nothing for playback, " capture" for capture.
    fn word(self) -> &'static str {
        match self {
            Direction::Playback => "",
            Direction::Capture => " capture",
        }
    }
}

/// An ALSA device by name: `default`, a name cpal lists, or a card's short hardware name
/// (see [`super::alsa_names`]).
pub fn alsa_device(name: &str, dir: Direction) -> Result<cpal::Device, String> {
    let word = dir.word();
    let host = cpal::host_from_id(cpal::HostId::Alsa)
        .map_err(|e| format!("ALSA is not available: {e}"))?;
    if name == "default" {
        let device = match dir {
            Direction::Playback => host.default_output_device(),
            Direction::Capture => host.default_input_device(),
        };
        return device.ok_or_else(|| format!("ALSA has no default{word} device"));
    }
    // cpal lists the devices it can open now: a busy one is not among them.
    let devices: Vec<cpal::Device> = match dir {
        Direction::Playback => host.output_devices().map(|d| d.collect()),
        Direction::Capture => host.input_devices().map(|d| d.collect()),
    }
    .map_err(|e| format!("cannot list the ALSA{word} devices: {e}"))?;
    let names: Vec<String> = devices.iter().filter_map(|d| d.name().ok()).collect();
    let wanted = super::alsa_names::alsa_names(name);
    devices
        .into_iter()
        .find(|d| d.name().is_ok_and(|n| wanted.contains(&n)))
        .ok_or_else(|| {
            format!(
                "no ALSA{word} device {name} that can be opened now (it does not exist, or \
                 another program holds it; of a card's devices only the first opens, as hw:N,0 \
                 or the card's name): the{word} devices here are {}",
                names.join(", ")
            )
        })
}

/// A JACK client named `client` + `_out` or `_in` (cpal's naming) whose ports cpal connects to
/// the system's playback or capture ports; the server is never started for it.
pub fn jack_device(client: &str, dir: Direction) -> Result<cpal::Device, String> {
    match dir {
        Direction::Playback => {
            cpal::platform::JackDevice::default_output_device(client, true, false)
        }
        Direction::Capture => cpal::platform::JackDevice::default_input_device(client, true, false),
    }
    .map(cpal::Device::from)
    .map_err(|e| {
        format!(
            "cannot connect to a JACK server{}: is jackd running (for this user)? ({e})",
            std::env::var("JACK_DEFAULT_SERVER")
                .map(|s| format!(" ({s})"))
                .unwrap_or_default()
        )
    })
}

/// Whether cpal's error ends the stream: the JACK server stopped or changed its rate, the ALSA
/// device is gone.
pub fn fatal(text: &str) -> bool {
    [
        "shut down",
        "sample rate changed",
        "ENODEV",
        "EBADFD",
        "DeviceNotAvailable",
        "no longer available",
    ]
    .iter()
    .any(|f| text.contains(f))
}

/// cpal's description of a device that would not open, with a busy device said plainly.
pub fn reason(text: &str, dir: Direction) -> String {
    if text.contains("EBUSY") || text.contains("busy") {
        let doing = match dir {
            Direction::Playback => "plays on it",
            Direction::Capture => "records from it",
        };
        format!("the device is busy: another program {doing} ({text})")
    } else {
        text.to_owned()
    }
}

/// cpal reports what the device survives (JACK's xruns, a new period size, a failed ALSA read
/// or write) and what ends the stream: each is counted in `errors(stats)`, and the first of the
/// second kind is kept in `failed` for the program to stop on.
pub fn on_error<S: Send + Sync + 'static>(
    failed: Arc<Mutex<Option<String>>>,
    stats: Arc<S>,
    errors: fn(&S) -> &AtomicU64,
) -> impl FnMut(cpal::StreamError) + Send + 'static {
    move |e: cpal::StreamError| {
        errors(&stats).fetch_add(1, Relaxed);
        let text = e.to_string();
        if fatal(&text) {
            let mut f = failed.lock().unwrap_or_else(|e| e.into_inner());
            f.get_or_insert(text);
        }
    }
}
