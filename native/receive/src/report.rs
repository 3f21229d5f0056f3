//! The verbose report (`-v`): once a second, the jitter buffer's level, the sender's drift
//! against this machine's clock, the underruns, and what the sound server holds (with the
//! times the engine found no room in the card's ring: frames dropped, counted in `overflows`).

use crate::output::CardStats;
use std::sync::atomic::Ordering::Relaxed;
use tributary_engine::sink::output::card::CardShared;
use tributary_engine::EngineStats;

/// One report line.
pub fn line(stats: &EngineStats, card: &CardShared, output: &CardStats) -> String {
    let queued_ms = card.queued_frames() as f64 * 1000.0 / f64::from(card.rate);
    let server_ms = output.server_latency_us.load(Relaxed) as f64 / 1000.0;
    let errors = match output.device_errors.load(Relaxed) {
        0 => String::new(),
        n => format!(", device errors {n}"),
    };
    let sound = format!(
        "card: {queued_ms:.1} ms queued, {} frames played, server latency {server_ms:.1} ms{errors}, \
         underruns {}, overflows {}",
        output.frames.load(Relaxed),
        output.underruns.load(Relaxed),
        card.overflows.load(Relaxed),
    );
    match stats.sources.first() {
        Some(s) => format!(
            "receive: {} | buffer {:.1} ms | drift {:+.1} ppm (correcting {:+.1}) | underruns {} \
             ({:.0} ms silence) | lost {} late {} | {sound}",
            s.format.as_deref().unwrap_or("no audio yet"),
            s.buffer_ms,
            s.drift_ppm,
            s.correction_ppm,
            s.underruns,
            s.silence_ms,
            s.lost,
            s.late,
        ),
        None => format!("receive: waiting for a sender | {sound}"),
    }
}
