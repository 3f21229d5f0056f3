//! A clock pulled by a sound card (`tributary receive`): the sink is due whenever the card's
//! ring ([`crate::sink::output::card`]) holds less than its low mark, and otherwise when, at
//! the card's nominal rate, it will. The card's playback thread drains the ring as fast as the
//! card plays, so the card's clock, not the router's, sets the pace.

use crate::sink::clock::SinkClock;
use crate::sink::output::card::CardShared;
use std::sync::Arc;
use std::time::{Duration, Instant};

/// How often a card whose next read is overdue is looked at.
pub const STALLED_POLL: Duration = Duration::from_millis(1);

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
    /// card's nominal rate, and not before the card's next read is due: the card takes a chunk
    /// at a time, so between its reads the level stands still and waking changes nothing (a
    /// deadline from the level alone woke the engine about 12,000 times a second while the level
    /// stood a few frames above the mark). A card that stopped reading is looked at every
    /// [`STALLED_POLL`].
    fn deadline(&self) -> Instant {
        let queued = self.shared.queued_frames();
        let low = self.shared.low_frames();
        if queued < low {
            return self.last;
        }
        let now = Instant::now();
        let frames = (queued - low + 1) as f64;
        let nominal = now + Duration::from_secs_f64(frames / f64::from(self.shared.rate));
        let next_read = match self.shared.next_read_due() {
            Some(due) if due > now => due,
            _ => now + STALLED_POLL,
        };
        nominal.max(next_read)
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

    /// The card asks when it needs frames: they go to its ring at once.
    fn renders_ahead(&self) -> bool {
        false
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::desired::{SinkProtocol, SinkSpec};
    use crate::sink::mix::Mixed;
    use crate::sink::output::card::{Card, CardOutput};
    use crate::sink::output::transport::Transport;
    use tributary_dsp::ChannelLayout;

    /// A stereo 48 kHz card (100 ms ring, low mark 10 ms = 480 frames) and the engine's output
    /// into it.
    fn stereo_card() -> (Card, CardOutput) {
        let card = Card::register(2, 48_000, 100.0, 10.0);
        let spec = SinkSpec::new(
            &card.id,
            SinkProtocol::Card,
            48_000,
            16,
            ChannelLayout::STEREO,
        );
        let out = CardOutput::new(&spec, 0).unwrap();
        (card, out)
    }

    #[test]
    fn due_while_the_card_lacks_frames_and_then_when_it_will() {
        // 48 kHz stereo, low mark 10 ms (480 frames); renders of 5 ms (240 frames).
        let (card, mut out) = stereo_card();
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

    #[test]
    fn a_level_just_over_the_mark_waits_for_the_cards_next_read() {
        // Low mark 10 ms (480 frames); the card reads 5 ms (240 frames) at a time.
        let (card, mut out) = stereo_card();
        let clock = CardClock::new(card.shared.clone(), Instant::now(), out.period());
        for _ in 0..3 {
            out.take(Mixed::Silence(240));
        }
        // 720 queued; the card takes 230: 490, 11 frames (0.23 ms) over the mark.
        let mut chunk = [0.0f32; 460];
        assert_eq!(card.read_into(&mut chunk), 460);
        let read_at = Instant::now();
        let due = clock.deadline();
        // Not 0.23 ms from now: three quarters of the card's 230-frame read after it (3.6 ms).
        assert!(
            due >= read_at + Duration::from_micros(3500),
            "due {:?} after the read",
            due.saturating_duration_since(read_at)
        );
        assert!(due <= Instant::now() + Duration::from_micros(3700));
        // A card that stopped reading: looked at every STALLED_POLL, not 0.23 ms.
        std::thread::sleep(Duration::from_millis(4));
        let before = Instant::now();
        let due = clock.deadline();
        assert!(
            due >= before + STALLED_POLL,
            "{:?}",
            due.saturating_duration_since(before)
        );
        // Below the mark: due at once, whatever the reads.
        assert_eq!(card.read_into(&mut chunk), 460);
        assert!(clock.deadline() <= Instant::now());
    }
}
