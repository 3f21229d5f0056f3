//! The receiver from start to stop: the engine and its card, the back end playing the card,
//! following the sender, the verbose report, and a clean stop on SIGTERM or SIGINT.

use crate::options::Options;
use crate::output::pulse::{PulseOutput, PulseSettings};
use crate::receiver::Receiver;
use crate::{report, signals};
use std::time::{Duration, Instant};

/// How often the sender and the signals are looked at.
const POLL: Duration = Duration::from_millis(50);

/// Runs until SIGTERM or SIGINT (Ok) or until the sound server fails (Err, in words).
pub fn run(o: &Options) -> Result<(), String> {
    signals::install();
    let (mut receiver, card) = Receiver::start(o)?;
    let shared = card.shared.clone();
    let settings = PulseSettings {
        server: std::env::var("PULSE_SERVER").ok().filter(|s| !s.is_empty()),
        sink: o.sink.clone(),
        stream_name: o.stream_name.clone(),
        target_ms: o.target_ms,
    };
    let mut output = PulseOutput::start(card, settings).map_err(|e| e.0)?;
    let mode = if o.unicast {
        "unicast".to_owned()
    } else {
        format!("multicast {}", o.group)
    };
    eprintln!(
        "receive: listening for {} on {}:{} ({mode}), playing on PulseAudio with {} ms target latency",
        o.rtp.map_or("Scream".to_owned(), |f| format!("RTP {} {} Hz {} ch", f.encoding, f.sample_rate, f.channels)),
        o.bind(),
        o.port,
        o.target_ms
    );
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
                report::line(&receiver.stats(), &shared, &output.stats)
            );
        }
        std::thread::sleep(POLL);
    }
    let result = output.stop().map_err(|e| e.0);
    receiver.stop();
    if result.is_ok() {
        eprintln!("receive: stopped");
    }
    result
}
