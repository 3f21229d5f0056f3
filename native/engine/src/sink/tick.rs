//! A sink's clock: packets are due at a steady cadence on the router's monotonic clock,
//! `start + period x ticks`, whether or not sources send.

use std::time::{Duration, Instant};

/// When each of a sink's packets is due.
#[derive(Clone, Debug)]
pub struct TickClock {
    period: Duration,
    start: Instant,
    ticks: u64,
}

impl TickClock {
    /// A clock ticking every `period` from `start` (the first packet's deadline).
    pub fn new(start: Instant, period: Duration) -> Self {
        Self {
            period,
            start,
            ticks: 0,
        }
    }

    /// Nominal time between packets.
    pub fn period(&self) -> Duration {
        self.period
    }

    /// When the next packet is due.
    pub fn deadline(&self) -> Instant {
        self.start + self.period.mul_f64(self.ticks as f64)
    }

    /// Keeps the phase of `previous` (a sink rebuilt in place), so replacing it leaves no gap;
    /// with another period, the next packet is due when the previous clock's was.
    pub fn continue_from(&mut self, previous: &TickClock) {
        self.start = previous.start;
        self.ticks = previous.ticks;
        if previous.period != self.period {
            self.start = previous.deadline();
            self.ticks = 0;
        }
    }

    /// Counts the packet due at the deadline as sent; returns how late `now` is for it. After a
    /// long stall (a debugger, a suspended VM) the clock skips ahead rather than bursting, and
    /// says so (true).
    pub fn advance(&mut self, now: Instant) -> (Duration, bool) {
        let late = now.saturating_duration_since(self.deadline());
        self.ticks += 1;
        if late > self.period * 50 {
            let behind = (late.as_secs_f64() / self.period.as_secs_f64()) as u64;
            self.ticks += behind;
            return (late, true);
        }
        (late, false)
    }
}
