//! A sound card on this machine as a sink's transport (`tributary receive`): the mix, as f32
//! samples, goes into a lock-free ring ([`PcmRing`]) that the card's playback thread drains at
//! the card's pace; the sink's clock ([`crate::sink::clock::card::CardClock`]) makes the sink
//! due whenever the ring holds less than its low mark, so the card's demand pulls the frames.
//!
//! The card side registers its ring first ([`Card::register`]) and names the sink by the id it
//! gets; a [`SinkProtocol::Card`](crate::desired::SinkProtocol::Card) sink with that id writes
//! into it (a card sink with no registered ring renders and drops its mix, like a network sink
//! without a destination).

use crate::desired::{ConfigError, SinkSpec};
use crate::ring::PcmRing;
use crate::sink::mix::Mixed;
use crate::sink::output::transport::{SendContext, Transport};
use std::sync::atomic::Ordering::Relaxed;
use std::sync::atomic::{AtomicU64, AtomicUsize};
use std::sync::{Arc, Mutex, Weak};
use std::time::{Duration, Instant};

/// Frames the engine renders per tick of a card sink: 5 ms at 48 kHz.
const PERIOD_MS: f64 = 5.0;

/// What the engine thread and the card's playback thread share.
pub struct CardShared {
    ring: PcmRing,
    pub channels: usize,
    pub rate: u32,
    /// Frames the ring should hold at least; below it the sink is due.
    low_frames: AtomicUsize,
    /// Renders the engine could not write because the ring was full (each dropped).
    pub overflows: AtomicU64,
    /// The card's last read that took frames, in ns after `epoch` (0: none yet), and how many
    /// frames it asked for: the card reads a chunk at a time, so the ring's level only falls
    /// then ([`CardShared::next_read_due`]).
    epoch: Instant,
    last_read_ns: AtomicU64,
    last_read_frames: AtomicUsize,
}

impl CardShared {
    /// Frames waiting for the card.
    pub fn queued_frames(&self) -> usize {
        self.ring.available() / self.channels
    }

    pub fn low_frames(&self) -> usize {
        self.low_frames.load(Relaxed)
    }

    /// When the card's next read is due: three quarters of its last read's length after that
    /// read (reads come a chunk or a device period apart, give or take their thread's wake-up),
    /// or `None` before the first read.
    pub fn next_read_due(&self) -> Option<Instant> {
        let at = self.last_read_ns.load(Relaxed);
        if at == 0 {
            return None;
        }
        let frames = self.last_read_frames.load(Relaxed) as f64;
        let chunk = Duration::from_secs_f64(0.75 * frames / f64::from(self.rate));
        Some(self.epoch + Duration::from_nanos(at) + chunk)
    }

    /// Keeps at least `frames` queued from now on (a device that asks for more at a time than
    /// its card was registered for), at most half the ring. Never waits: a device's callback
    /// may call it.
    pub fn raise_low_frames(&self, frames: usize) {
        let most = self.ring.capacity() / self.channels / 2;
        self.low_frames.fetch_max(frames.min(most), Relaxed);
    }
}

/// The card side: reads what the engine rendered. Held by the playback thread.
pub struct Card {
    /// The sink id to give the engine (unique in the process).
    pub id: String,
    pub shared: Arc<CardShared>,
}

/// Cards registered in this process and not dropped, by sink id.
static CARDS: Mutex<Vec<(String, Weak<CardShared>)>> = Mutex::new(Vec::new());
static NEXT_ID: AtomicU64 = AtomicU64::new(1);

impl Card {
    /// A card of `channels` at `rate` whose ring holds `ring_ms`; the engine keeps at least
    /// `low_ms` queued for it. Its [`Card::id`] is the id of the sink that feeds it.
    pub fn register(channels: usize, rate: u32, ring_ms: f64, low_ms: f64) -> Card {
        let frames = |ms: f64| (ms * f64::from(rate) / 1000.0).ceil() as usize;
        let shared = Arc::new(CardShared {
            ring: PcmRing::new(frames(ring_ms).max(frames(low_ms) * 2) * channels),
            channels,
            rate,
            low_frames: AtomicUsize::new(frames(low_ms)),
            overflows: AtomicU64::new(0),
            epoch: Instant::now(),
            last_read_ns: AtomicU64::new(0),
            last_read_frames: AtomicUsize::new(0),
        });
        let id = format!("card-{}", NEXT_ID.fetch_add(1, Relaxed));
        let mut cards = CARDS.lock().unwrap_or_else(|e| e.into_inner());
        cards.retain(|(_, w)| w.strong_count() > 0);
        cards.push((id.clone(), Arc::downgrade(&shared)));
        Card { id, shared }
    }

    /// Moves up to `out.len()` interleaved samples into `out`; returns how many. A read that
    /// took frames is noted (when, and how many were asked for) for the sink's clock.
    pub fn read_into(&self, out: &mut [f32]) -> usize {
        let shared = &self.shared;
        let got = shared.ring.read_into(out);
        if got > 0 {
            let ns = shared.epoch.elapsed().as_nanos().max(1) as u64;
            shared.last_read_ns.store(ns, Relaxed);
            shared
                .last_read_frames
                .store(out.len() / shared.channels, Relaxed);
        }
        got
    }

    fn find(id: &str) -> Option<Arc<CardShared>> {
        let cards = CARDS.lock().unwrap_or_else(|e| e.into_inner());
        cards.iter().find(|(i, _)| i == id)?.1.upgrade()
    }
}

/// The sink side: writes each tick's mix into the card's ring.
pub struct CardOutput {
    shared: Option<Arc<CardShared>>,
    frames: usize,
    channels: usize,
    period: Duration,
    rendered: bool,
}

impl CardOutput {
    /// The card this sink feeds, if one is registered under its id.
    pub fn shared(&self) -> Option<&Arc<CardShared>> {
        self.shared.as_ref()
    }
}

impl Transport for CardOutput {
    fn new(spec: &SinkSpec, _seed: u64) -> Result<Self, ConfigError> {
        let shared = Card::find(&spec.id);
        if let Some(s) = &shared {
            if s.rate != spec.sample_rate || s.channels != spec.layout.channels() {
                return Err(ConfigError(format!(
                    "sinks[{}]: the card plays {} Hz {} ch, not {} Hz {} ch",
                    spec.name,
                    s.rate,
                    s.channels,
                    spec.sample_rate,
                    spec.layout.channels()
                )));
            }
        }
        Ok(Self {
            shared,
            frames: Self::max_frames(spec),
            channels: spec.layout.channels(),
            period: Duration::from_secs_f64(PERIOD_MS / 1000.0),
            rendered: false,
        })
    }

    fn max_frames(spec: &SinkSpec) -> usize {
        (f64::from(spec.sample_rate) * PERIOD_MS / 1000.0).round() as usize
    }

    fn period(&self) -> Duration {
        self.period
    }

    fn next_render(&self) -> Option<(usize, f64)> {
        (!self.rendered).then_some((self.frames, 0.0))
    }

    fn take(&mut self, mixed: Mixed<'_>) {
        self.rendered = true;
        let Some(shared) = &self.shared else { return };
        let channels = self.channels;
        let written = match mixed {
            Mixed::Audio(buf) => {
                let n = buf.frames().min(self.frames);
                shared
                    .ring
                    .write_with(n * channels, |i| buf.channel(i % channels)[i / channels])
            }
            Mixed::Silence(n) => shared.ring.write_with(n * channels, |_| 0.0),
        };
        if !written {
            shared.overflows.fetch_add(1, Relaxed);
        }
    }

    fn send(&mut self, context: &SendContext<'_>) {
        if self.rendered && self.shared.is_some() {
            context.counters.packets.fetch_add(1, Relaxed);
            let bytes = self.frames * self.channels * 4;
            context.counters.bytes.fetch_add(bytes as u64, Relaxed);
        }
        self.rendered = false;
    }

    fn continue_from(&mut self, _previous: &Self) {}
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::desired::SinkProtocol;
    use tributary_dsp::ChannelLayout;

    #[test]
    fn a_card_sink_finds_its_ring_by_id_and_refuses_another_format() {
        let card = Card::register(2, 48_000, 100.0, 10.0);
        let spec = SinkSpec::new(
            &card.id,
            SinkProtocol::Card,
            48_000,
            16,
            ChannelLayout::STEREO,
        );
        let out = CardOutput::new(&spec, 0).unwrap();
        assert!(out.shared().is_some_and(|s| Arc::ptr_eq(s, &card.shared)));
        let other = SinkSpec::new(
            &card.id,
            SinkProtocol::Card,
            44_100,
            16,
            ChannelLayout::STEREO,
        );
        assert!(CardOutput::new(&other, 0).is_err());
        let unknown = SinkSpec::new(
            "card-0",
            SinkProtocol::Card,
            48_000,
            16,
            ChannelLayout::STEREO,
        );
        assert!(CardOutput::new(&unknown, 0).unwrap().shared().is_none());
    }
}
