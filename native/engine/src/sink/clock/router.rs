//! The router's clock, the first [`SinkClock`]: packets are due at a steady cadence on the
//! router's monotonic clock, `start + period x ticks`, whether or not sources send.

use crate::sink::clock::SinkClock;
use std::time::{Duration, Instant};

/// When each of a sink's packets is due, on the router's clock.
#[derive(Clone, Debug)]
pub struct RouterClock {
    period: Duration,
    start: Instant,
    ticks: u64,
}

impl RouterClock {
    /// A clock ticking every `period` from `start` (the first packet's deadline).
    pub fn new(start: Instant, period: Duration) -> Self {
        Self {
            period,
            start,
            ticks: 0,
        }
    }
}

impl SinkClock for RouterClock {
    /// Nominal time between packets.
    fn period(&self) -> Duration {
        self.period
    }

    /// When the next packet is due.
    fn deadline(&self) -> Instant {
        self.start + self.period.mul_f64(self.ticks as f64)
    }

    fn grid(&self) -> (Instant, u64) {
        (self.start, self.ticks)
    }

    /// Keeps the phase of `previous` (a sink rebuilt in place), so replacing it leaves no gap;
    /// with another period, the next packet is due when the previous clock's was.
    fn continue_from(&mut self, previous: &dyn SinkClock) {
        (self.start, self.ticks) = previous.grid();
        if previous.period() != self.period {
            self.start = previous.deadline();
            self.ticks = 0;
        }
    }

    /// Counts the packet due at the deadline as sent; returns how late `now` is for it. After a
    /// long stall (a debugger, a suspended VM) the clock skips ahead rather than bursting, and
    /// says so (true).
    fn advance(&mut self, now: Instant) -> (Duration, bool) {
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_replacing_clock_keeps_the_grid_and_a_long_stall_skips_ahead() {
        let t0 = Instant::now();
        let ms = Duration::from_millis;
        let mut a = RouterClock::new(t0, ms(6));
        for k in 1..=3 {
            assert_eq!(a.advance(t0 + ms(6 * k)), (ms(6), false));
        }
        let mut b = RouterClock::new(t0 + ms(500), ms(6));
        b.continue_from(&a);
        assert_eq!(
            b.deadline(),
            t0 + ms(18),
            "the same grid, not its own start"
        );
        let mut c = RouterClock::new(t0, ms(4));
        c.continue_from(&b);
        assert_eq!(
            (c.deadline(), c.grid().1),
            (t0 + ms(18), 0),
            "another period"
        );
        // 50 periods late or less: counted one by one; more: skipped ahead at once.
        let (late, skipped) = c.advance(t0 + ms(18 + 4 * 51));
        assert!(skipped && late == ms(4 * 51));
        assert!(
            c.deadline() >= t0 + ms(18 + 4 * 51),
            "not a burst of 51 late packets"
        );
    }
}
