//! How far ahead of their deadlines the engine thread renders sinks' packets. A packet is
//! rendered `lead` before it is due and held; at the deadline the engine sends every held
//! packet first, before any other work, so the send cadence no longer carries the time the
//! sinks due before it took to render (the last of 16 sinks of 32 paths due at one instant
//! used to leave up to a millisecond late, by a different amount every time).
//!
//! The lead follows the work: the longest time one wake-up of the engine thread spent working
//! (ingest, renders, statistics), as a peak that decays over seconds, plus a quarter and a
//! margin for the wake-up itself. One path on one sink renders about a quarter of a
//! millisecond ahead; 512 paths a few milliseconds. It never exceeds [`MAX_LEAD`], which
//! bounds the latency it adds; work that outgrows it sends late, as before.

use std::time::Duration;

/// Time added to the measured work for the engine thread's wake-up (timer slack, scheduling).
pub const MARGIN: Duration = Duration::from_micros(200);
/// The most a packet is rendered ahead of its deadline (and so the most latency this adds).
pub const MAX_LEAD: Duration = Duration::from_millis(4);
/// Per wake-up, the fraction of the peak kept: it halves in about 700 wake-ups (a few seconds
/// at two wake-ups per 6 ms period), so one slow wake-up keeps the lead up for a while.
const DECAY: f64 = 0.999;

/// The render-ahead lead, from the work of recent wake-ups.
#[derive(Clone, Debug, Default)]
pub struct Lead {
    /// The decaying peak of one wake-up's work, seconds.
    peak_s: f64,
}

impl Lead {
    /// Counts one wake-up that worked for `work`.
    pub fn observe(&mut self, work: Duration) {
        self.peak_s = (self.peak_s * DECAY).max(work.as_secs_f64());
    }

    /// How long before its deadline a packet is rendered now.
    pub fn get(&self) -> Duration {
        Duration::from_secs_f64(self.peak_s * 1.25)
            .saturating_add(MARGIN)
            .min(MAX_LEAD)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const US: fn(u64) -> Duration = Duration::from_micros;

    #[test]
    fn the_lead_covers_the_longest_recent_work_then_decays_and_stays_bounded() {
        let mut lead = Lead::default();
        assert_eq!(lead.get(), MARGIN, "no work seen: the margin alone");
        for _ in 0..100 {
            lead.observe(US(100));
        }
        lead.observe(US(1_600));
        // A peak of 1.6 ms: 2.0 ms of it plus the margin.
        assert_eq!(lead.get(), US(2_200));
        for _ in 0..100 {
            lead.observe(US(100));
        }
        let after = lead.get();
        assert!(after > US(1_900) && after < US(2_200), "{after:?}");
        for _ in 0..10_000 {
            lead.observe(US(100));
        }
        // Back to the steady work: 125 us plus the margin.
        assert!(lead.get() < US(330), "{:?}", lead.get());
        lead.observe(Duration::from_millis(30));
        assert_eq!(lead.get(), MAX_LEAD);
    }
}
