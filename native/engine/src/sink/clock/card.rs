//! A clock pulled by a sound card (`tributary receive`): the sink is due whenever the card's
//! ring ([`crate::sink::output::card`]) holds less than its low mark, and otherwise when, at
//! the card's nominal rate, it will. The card's playback thread drains the ring as fast as the
//! card plays, so the card's clock, not the router's, sets the pace.

use crate::sink::clock::SinkClock;
use crate::sink::output::card::CardShared;
use std::sync::Arc;
use std::time::{Duration, Instant};

/// When a card sink's renders are due: when its card needs them.
pub struct CardClock {
    shared: Arc<CardShared>,
    period: Duration,
    /// The last tick (or the start): the deadline while the card needs frames now.
    last: Instant,
    ticks: u64,
    start: Instant,
}

impl CardClock {
    /// A clock for the card `shared`, rendering every `period` at most, from `start`.
    pub fn new(shared: Arc<CardShared>, start: Instant, period: Duration) -> Self {
        Self {
            shared,
            period,
            last: start,
            ticks: 0,
            start,
        }
    }
}

impl SinkClock for CardClock {
    fn period(&self) -> Duration {
        self.period
    }

    /// Now-or-past while the ring is below its low mark; otherwise when it will be, at the
    /// card's nominal rate.
    fn deadline(&self) -> Instant {
        let queued = self.shared.queued_frames();
        let low = self.shared.low_frames();
        if queued < low {
            return self.last;
        }
        let frames = (queued - low + 1) as f64;
        Instant::now() + Duration::from_secs_f64(frames / f64::from(self.shared.rate))
    }

    /// Counts the render; a pulled clock is never late and never skips (the card asks for
    /// what it lacks).
    fn advance(&mut self, now: Instant) -> (Duration, bool) {
        self.last = now;
        self.ticks += 1;
        (Duration::ZERO, false)
    }

    fn grid(&self) -> (Instant, u64) {
        (self.start, self.ticks)
    }

    /// The card's demand is its phase: nothing to take over.
    fn continue_from(&mut self, _previous: &dyn SinkClock) {}
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::desired::{SinkProtocol, SinkSpec};
    use crate::sink::mix::Mixed;
    use crate::sink::output::card::{Card, CardOutput};
    use crate::sink::output::transport::Transport;
    use tributary_dsp::ChannelLayout;

    #[test]
    fn due_while_the_card_lacks_frames_and_then_when_it_will() {
        // 48 kHz stereo, low mark 10 ms (480 frames); renders of 5 ms (240 frames).
        let card = Card::register(2, 48_000, 100.0, 10.0);
        let spec = SinkSpec::new(
            &card.id,
            SinkProtocol::Card,
            48_000,
            16,
            ChannelLayout::STEREO,
        );
        let mut out = CardOutput::new(&spec, 0).unwrap();
        let start = Instant::now();
        let mut clock = CardClock::new(card.shared.clone(), start, out.period());
        assert!(clock.deadline() <= start, "an empty ring: due at once");
        out.take(Mixed::Silence(240));
        let now = Instant::now();
        assert_eq!(clock.advance(now), (Duration::ZERO, false));
        assert!(clock.deadline() <= now, "240 of 480 frames: still due");
        out.take(Mixed::Silence(240));
        out.take(Mixed::Silence(240));
        // 720 queued: due when 241 more have played, 5.02 ms from now.
        let before = Instant::now();
        let due = clock.deadline();
        assert!(
            due >= before + Duration::from_micros(5000),
            "{:?}",
            due - before
        );
        assert!(due <= Instant::now() + Duration::from_micros(5100));
        // The card plays 480 frames: due again.
        let mut taken = [0.0f32; 960];
        assert_eq!(card.read_into(&mut taken), 960);
        assert!(clock.deadline() <= now);
    }
}
