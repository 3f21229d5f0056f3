//! The receiver from start to stop: the engine and its card, the back end playing the card,
//! following the sender, the verbose report, and a clean stop on SIGTERM or SIGINT.

use crate::advertise::{self, Advertiser};
use crate::identity;
use crate::options::{Backend, Options};
use crate::output::device::{self, Api, DeviceSettings, MARGIN_MS};
use crate::output::playing::Output;
use crate::output::pulse::{PulseOutput, PulseSettings};
use crate::receiver::{Receiver, CHANNELS, LOW_MS, RATE};
use crate::{report, signals};
use std::time::{Duration, Instant};

/// How often the sender and the signals are looked at.
const POLL: Duration = Duration::from_millis(50);

/// Runs until SIGTERM or SIGINT (Ok) or until the sound server fails (Err, in words).
pub fn run(o: &Options) -> Result<(), String> {
    signals::install();
    // A pulled device is found (and its period learnt) before the engine starts.
    let api = match o.output {
        Backend::Pulse => None,
        Backend::Alsa => Some(Api::Alsa {
            device: o.device.clone().unwrap_or_else(|| "default".into()),
        }),
        Backend::Jack => Some(Api::Jack {
            client: o.stream_name.clone(),
        }),
    };
    let opened = match api {
        None => None,
        Some(api) => Some(
            device::open(&DeviceSettings {
                api,
                rate: RATE,
                channels: CHANNELS as u16,
                target_ms: o.target_ms,
            })
            .map_err(|e| e.0)?,
        ),
    };
    let low_ms = opened.as_ref().map_or(LOW_MS, |d| {
        (d.period_frames as f64 * 1000.0 / f64::from(RATE) + MARGIN_MS).max(LOW_MS)
    });
    let (mut receiver, card) = Receiver::start(o, low_ms)?;
    let shared = card.shared.clone();
    let (mut output, playing) = match opened {
        None => {
            let settings = PulseSettings {
                server: std::env::var("PULSE_SERVER").ok().filter(|s| !s.is_empty()),
                sink: o.sink.clone(),
                stream_name: o.stream_name.clone(),
                target_ms: o.target_ms,
            };
            let pulse = PulseOutput::start(card, settings).map_err(|e| e.0)?;
            let on = format!("PulseAudio with {} ms target latency", o.target_ms);
            (Output::Pulse(pulse), on)
        }
        Some(d) => {
            let on = format!("{} ({low_ms:.1} ms kept ready)", d.describe());
            (Output::Device(d.play(card).map_err(|e| e.0)?), on)
        }
    };
    let mode = if o.unicast {
        "unicast".to_owned()
    } else {
        format!("multicast {}", o.group)
    };
    eprintln!(
        "receive: listening for {} on {}:{} ({mode}), playing on {playing}",
        o.rtp.map_or("Scream".to_owned(), |f| format!(
            "RTP {} {} Hz {} ch",
            f.encoding, f.sample_rate, f.channels
        )),
        o.bind(),
        o.port,
    );
    let advertiser = if o.advertise {
        start_advertising(o)
    } else {
        None
    };
    let mut next_report = Instant::now() + Duration::from_secs(1);
    while !signals::stop_requested() {
        if output.ended() {
            break;
        }
        if let Some(ip) = receiver.follow_sender()? {
            eprintln!("receive: playing the Scream sender {ip}");
        }
        if o.verbose && Instant::now() >= next_report {
            next_report += Duration::from_secs(1);
            eprintln!(
                "{}",
                report::line(&receiver.stats(), &shared, output.stats())
            );
        }
        std::thread::sleep(POLL);
    }
    if let Some(a) = advertiser {
        a.stop();
    }
    let result = output.stop().map_err(|e| e.0);
    receiver.stop();
    if result.is_ok() {
        eprintln!("receive: stopped");
    }
    result
}

/// Advertises the receiver over mDNS with its kept config_id; a failure is said, not fatal
/// (the receiver plays whether the router finds it or not).
fn start_advertising(o: &Options) -> Option<Advertiser> {
    let file = identity::id_file(o.port);
    let (id, notes) = match identity::load_or_create(file.as_deref()) {
        Ok(found) => found,
        Err(e) => {
            eprintln!("receive: not advertised over mDNS: no config_id ({e})");
            return None;
        }
    };
    for note in notes {
        eprintln!("receive: {note}");
    }
    let name = if o.named {
        o.stream_name.clone()
    } else {
        advertise::hostname()
    };
    match Advertiser::start(o, &id, &name) {
        Ok(a) => {
            eprintln!(
                "receive: advertised over mDNS as the sink '{name}' ({}, config_id {id})",
                advertise::SERVICE_TYPE
            );
            Some(a)
        }
        Err(e) => {
            eprintln!("receive: {e}");
            None
        }
    }
}
