//! When each packet leaves: as soon as the capture has delivered it, and at least 3/4 of a
//! packet's duration (4.5 ms for 6 ms packets) after the one before. The average rate is the
//! capture clock's; a capture that hands over several packets at once (a sound server waking
//! late, a device read in large blocks) has them spread out rather than sent in a burst, and a
//! backlog drains at 4/3 of real time. Pure: the caller passes the clock.

use std::time::{Duration, Instant};

#[derive(Debug)]
pub struct Pacer {
    min_gap: Duration,
    last: Option<Instant>,
}

impl Pacer {
    /// For packets of `frames` frames at `rate` Hz.
    pub fn new(frames: usize, rate: u32) -> Self {
        Self {
            min_gap: Duration::from_secs_f64(frames as f64 * 0.75 / f64::from(rate)),
            last: None,
        }
    }

    /// How long to wait at `now`, when a packet is ready, before sending it.
    pub fn wait(&self, now: Instant) -> Duration {
        self.last.map_or(Duration::ZERO, |t| {
            (t + self.min_gap).saturating_duration_since(now)
        })
    }

    /// The packet left at `at`.
    pub fn sent(&mut self, at: Instant) {
        self.last = Some(at);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Send times for packets ready at `ready` (ms from a start), the pacer waiting as told.
    fn send_times(ready: &[f64]) -> Vec<f64> {
        let t0 = Instant::now();
        let at = |ms: f64| t0 + Duration::from_secs_f64(ms / 1000.0);
        let mut pacer = Pacer::new(288, 48_000);
        let mut clock = t0;
        ready
            .iter()
            .map(|&r| {
                clock = clock.max(at(r));
                clock += pacer.wait(clock);
                pacer.sent(clock);
                (clock - t0).as_secs_f64() * 1000.0
            })
            .collect()
    }

    fn close(a: &[f64], b: &[f64]) -> bool {
        a.len() == b.len() && a.iter().zip(b).all(|(x, y)| (x - y).abs() < 1e-6)
    }

    #[test]
    fn packets_delivered_one_at_a_time_leave_as_they_come() {
        let ready = [0.0, 6.0, 12.0, 18.0, 24.0];
        assert!(close(&send_times(&ready), &ready));
    }

    #[test]
    fn packets_delivered_four_at_once_leave_4_5_ms_apart_and_the_backlog_drains() {
        // 24 ms blocks: four packets ready at 0, four at 24, four at 48.
        let ready = [
            0.0, 0.0, 0.0, 0.0, 24.0, 24.0, 24.0, 24.0, 48.0, 48.0, 48.0, 48.0,
        ];
        let sent = send_times(&ready);
        let want = [
            0.0, 4.5, 9.0, 13.5, 24.0, 28.5, 33.0, 37.5, 48.0, 52.5, 57.0, 61.5,
        ];
        assert!(close(&sent, &want), "{sent:?}");
        // A stall: packets 1-5 (due 6-30 ms) all ready at 30 ms, then one every 6 ms. Spread
        // 4.5 ms apart, the 24 ms backlog drains by 1.5 ms a packet: on time again from packet 17.
        let ready: Vec<f64> = (0..40)
            .map(|k| {
                if k == 0 {
                    0.0
                } else {
                    (6.0 * k as f64).max(30.0)
                }
            })
            .collect();
        let sent = send_times(&ready);
        let gaps: Vec<f64> = sent.windows(2).map(|w| w[1] - w[0]).collect();
        assert!(gaps.iter().all(|g| *g >= 4.5 - 1e-6), "{gaps:?}");
        assert!(close(&sent[..3], &[0.0, 30.0, 34.5]), "{sent:?}");
        assert!(
            sent[16] > ready[16] && close(&sent[17..], &ready[17..]),
            "caught up: {sent:?}"
        );
    }
}
