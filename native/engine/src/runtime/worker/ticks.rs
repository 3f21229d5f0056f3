//! The engine thread's sinks in time: each packet is rendered the lead ahead of its
//! deadline and held, and every held packet is sent when its deadline comes, before any other
//! work of that wake-up (see [`crate::runtime::lead`]). A sink whose clock is pulled (a sound
//! card's) renders when due and sends at once.

use super::Worker;
use crate::work::{self, Work};
use std::time::{Duration, Instant};

/// Longest sleep when no sink is due (keeps stats and commands responsive).
pub(crate) const IDLE_WAKE: Duration = Duration::from_millis(5);

impl Worker {
    /// Sends every held packet due by `now` (the earliest first is not needed: each is one
    /// datagram, and all of them are due).
    pub(crate) fn send_due(&mut self, now: Instant) {
        for (k, sink) in self.sinks.iter_mut().enumerate() {
            if sink.held().is_some_and(|due| due <= now) {
                work::working_on(Work::Sink(k));
                sink.send(now, &self.socket);
                work::working_on(Work::Idle);
            }
        }
    }

    /// Sends what is due at `now`, then renders (and holds) the packet of every sink whose
    /// deadline is within the lead; returns when the next send or render is due (at most
    /// [`IDLE_WAKE`] away). A held packet that falls due while others render goes out between
    /// two renders.
    pub(crate) fn tick_due(&mut self, now: Instant) -> Instant {
        self.send_due(now);
        let now_s = now.duration_since(self.epoch).as_secs_f64();
        let started = Instant::now();
        let lead = self.lead.get();
        let mut next = now + IDLE_WAKE;
        for k in 0..self.sinks.len() {
            let sink = &mut self.sinks[k];
            let ahead = sink.renders_ahead();
            let window = if ahead { lead } else { Duration::ZERO };
            if sink.held().is_none() && sink.deadline() <= now + window {
                work::working_on(Work::Sink(k));
                sink.render(&mut self.sources, &mut self.taps, now, now_s);
                if !ahead {
                    sink.send(now, &self.socket);
                }
                work::working_on(Work::Idle);
                // The time is `now` plus what this wake-up has worked (a test's clock need
                // not be the real one).
                self.send_due(now + started.elapsed());
            }
        }
        for sink in &self.sinks {
            let at = match sink.held() {
                Some(due) => due,
                None if sink.renders_ahead() => sink.deadline().checked_sub(lead).unwrap_or(now),
                None => sink.deadline(),
            };
            next = next.min(at);
        }
        for s in &mut self.sources {
            if s.readers == 0 {
                // Nobody plays it: keep its play position a target behind the newest audio.
                let head = s.buffer.timeline.write_head();
                s.buffer.play_pos = head.saturating_sub(s.buffer.target_frames() as u64);
            }
        }
        next
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::desired::{SinkProtocol, SinkSpec};
    use crate::runtime::lead::MARGIN;
    use std::net::{IpAddr, Ipv4Addr, UdpSocket};
    use tributary_dsp::ChannelLayout;

    #[test]
    fn a_packet_is_rendered_ahead_held_and_sent_at_its_deadline() {
        let receiver = UdpSocket::bind((Ipv4Addr::LOCALHOST, 0)).unwrap();
        receiver.set_nonblocking(true).unwrap();
        let sink = SinkSpec {
            ip: Some(IpAddr::V4(Ipv4Addr::LOCALHOST)),
            port: receiver.local_addr().unwrap().port(),
            ..SinkSpec::new(
                "den",
                SinkProtocol::Scream,
                48_000,
                16,
                ChannelLayout::STEREO,
            )
        };
        let mut worker = Worker::playing(vec![sink]);
        let mut buf = [0u8; 2048];
        let mut received = || std::iter::from_fn(|| receiver.recv(&mut buf).ok()).count();
        let due = worker.sinks[0].deadline();
        let us = Duration::from_micros;

        // Before the lead (the margin alone: no work seen yet): nothing rendered.
        let next = worker.tick_due(due - MARGIN - us(50));
        assert_eq!((worker.sinks[0].held(), next), (None, due - MARGIN));
        // Within the lead: rendered and held, not sent; the engine wakes at the deadline.
        let next = worker.tick_due(due - us(100));
        assert_eq!(worker.sinks[0].held(), Some(due));
        assert_eq!(next, due);
        std::thread::sleep(Duration::from_millis(20));
        assert_eq!(received(), 0, "held until its deadline");
        // At the deadline: sent, and the next packet is not rendered before its own lead.
        let period = worker.sinks[0].period();
        let next = worker.tick_due(due);
        std::thread::sleep(Duration::from_millis(20));
        assert_eq!(received(), 1);
        assert_eq!(worker.sinks[0].held(), None);
        assert_eq!(next, (due + period - MARGIN).min(due + IDLE_WAKE));
        // A packet rendered late goes out at once.
        worker.tick_due(due + period + us(500));
        std::thread::sleep(Duration::from_millis(20));
        assert_eq!(received(), 1);
        assert_eq!(worker.sinks[0].held(), None);
    }
}
