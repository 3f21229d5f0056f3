//! The log's side of honest stats: what a source's readers did that a listener could hear, and
//! the packets of a second sender it dropped (see [`crate::source::sender_lock`]), summed over at most one line per source every [`EVERY_S`] seconds (a bad network cannot
//! flood the log). Made on the supervisor's thread from the shared counters, once a second: the
//! engine thread never formats or writes a line about a glitch.

use crate::source::counters::SourceCounters;
use crate::source::sender_lock::describe_sender;
use std::sync::atomic::Ordering::Relaxed;

/// Shortest time between two lines about one source.
pub const EVERY_S: f64 = 5.0;

/// Totals already logged for one source.
#[derive(Clone, Debug, Default)]
pub struct GlitchLog {
    logged: [u64; 9],
    next_s: f64,
}

impl GlitchLog {
    /// The line to log about source `name` at `now_s`, if anything happened since the last one
    /// and the last one is old enough.
    pub fn line(&mut self, name: &str, c: &SourceCounters, now_s: f64) -> Option<String> {
        if now_s < self.next_s {
            return None;
        }
        let now = [
            c.underruns.load(Relaxed),
            c.silence_us.load(Relaxed),
            c.concealed.load(Relaxed),
            c.concealed_us.load(Relaxed),
            c.skips.load(Relaxed),
            c.skipped_us.load(Relaxed),
            c.repeats.load(Relaxed),
            c.repeated_us.load(Relaxed),
            c.competing.load(Relaxed),
        ];
        if now == self.logged {
            return None;
        }
        let d: Vec<u64> = now
            .iter()
            .zip(self.logged)
            .map(|(n, l)| n.saturating_sub(l))
            .collect();
        self.logged = now;
        self.next_s = now_s + EVERY_S;
        let ms = |us: u64| us as f64 / 1000.0;
        let mut parts = Vec::new();
        for (count, us, what, how) in [
            (d[0], d[1], "underrun", "of silence"),
            (d[2], d[3], "gap concealed", "concealed"),
            (d[4], d[5], "skip", "skipped"),
            (d[6], d[7], "repeat", "repeated"),
        ] {
            if count > 0 {
                let s = if count == 1 { "" } else { "s" };
                parts.push(format!("{count} {what}{s} ({:.1} ms {how})", ms(us)));
            }
        }
        if d[8] > 0 {
            let sender = describe_sender(c.competing_sender.load(Relaxed)).unwrap_or_default();
            let s = if d[8] == 1 { "" } else { "s" };
            parts.push(format!(
                "{} packet{s} of a second sender ({sender}) dropped: another sender plays on it",
                d[8]
            ));
        }
        Some(format!("source '{name}': {}", parts.join(", ")))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_line_per_source_at_most_every_five_seconds_naming_what_was_heard() {
        let c = SourceCounters::default();
        let mut log = GlitchLog::default();
        assert_eq!(log.line("PC", &c, 0.0), None, "nothing happened");
        c.underruns.fetch_add(2, Relaxed);
        c.silence_us.fetch_add(36_000, Relaxed);
        c.skips.fetch_add(1, Relaxed);
        c.skipped_us.fetch_add(29_500, Relaxed);
        assert_eq!(
            log.line("PC", &c, 1.0).as_deref(),
            Some("source 'PC': 2 underruns (36.0 ms of silence), 1 skip (29.5 ms skipped)")
        );
        c.concealed.fetch_add(1, Relaxed);
        c.concealed_us.fetch_add(6_000, Relaxed);
        assert_eq!(log.line("PC", &c, 3.0), None, "too soon");
        assert_eq!(
            log.line("PC", &c, 6.0).as_deref(),
            Some("source 'PC': 1 gap concealed (6.0 ms concealed)")
        );
        c.competing.fetch_add(40, Relaxed);
        c.competing_sender.store(
            crate::source::sender_lock::pack_sender(&crate::source::sender_lock::SenderId {
                ip: [192, 168, 1, 20].into(),
                port: 5004,
                ssrc: 2,
            }),
            Relaxed,
        );
        assert_eq!(
            log.line("PC", &c, 11.0).as_deref(),
            Some(
                "source 'PC': 40 packets of a second sender (192.168.1.20:5004) dropped: \
                 another sender plays on it"
            )
        );
    }
}
