//! A sink's clock: when its packets are due, the seam every way of pacing a sink goes through
//! (door 2 of issue 28). The engine thread sleeps until the earliest [`SinkClock::deadline`] of
//! its sinks, ticks each sink due, and the sink asks its clock how late it is
//! ([`SinkClock::advance`]); nothing in the graph (taps, paths) knows which clock a sink runs
//! on: readers render what the sink's tick asks for, at the router time of the tick.
//!
//! Built: [`router::RouterClock`], the network sinks' clock, a steady cadence on the router's
//! monotonic clock; and [`card::CardClock`], a clock pulled by a sound card (`tributary
//! receive`): the card's playback thread drains a ring, and the sink is due when the ring holds
//! less than its low mark. Not built: correcting the card's rate against the router's after the
//! mix (a resampler in `sink/`); the readers' clock recovery absorbs a card a few ppm off.
//! Where the next one plugs in (native/engine/README.md draws it):
//!
//! - a clock slaved to a reference (RTCP sender reports, a time service): deadlines on the
//!   reference's timeline mapped to the router's clock by an offset and rate it keeps
//!   estimating; a sink consuming a few ppm faster or slower is what the readers' clock
//!   recovery already absorbs.

pub mod card;
pub mod router;

use std::time::{Duration, Instant};

/// When a sink's packets are due. Called on the engine thread only: nothing here may block,
/// allocate or lock (a card's clock reads what its callback publishes in atomics).
pub trait SinkClock: Send {
    /// Nominal time between packets.
    fn period(&self) -> Duration;

    /// When the next packet is due, on the router's monotonic clock.
    fn deadline(&self) -> Instant;

    /// Counts the packet due at the deadline as sent at `now`; returns how late `now` is for
    /// it, and whether the clock skipped ahead instead of bursting (after a long stall).
    fn advance(&mut self, now: Instant) -> (Duration, bool);

    /// The first deadline of this clock's current run and the packets counted since: the
    /// router clock's grid, which a clock replacing it continues.
    fn grid(&self) -> (Instant, u64);

    /// Takes over the phase of `previous` (the clock of the sink this one replaces), so
    /// replacing the sink leaves no gap.
    fn continue_from(&mut self, previous: &dyn SinkClock);

    /// Whether a packet may be rendered ahead of its deadline and held until then (see
    /// [`crate::runtime::lead`]): true for a clock on a grid; a pulled clock's deadline is when
    /// its consumer needs frames, so what it renders goes out at once.
    fn renders_ahead(&self) -> bool {
        true
    }
}

#[cfg(test)]
mod tests;
