//! Clock recovery for one reader: the rate at which it consumes its source, so the buffer stays
//! at the jitter target without the pitch moving audibly.
//!
//! The applied rate is `drift + correction`:
//! - `drift` is the source's measured clock error ([`crate::source::drift`]), taken at the
//!   weight its fit has earned (an estimate within its own noise counts for little);
//! - `correction` is a proportional term on the buffer error, filtered over [`ERR_TAU_S`] so a
//!   bursty sender (ffmpeg sends 21 ms of audio at once) or a jittery network does not steer
//!   the pitch: `GAIN_PER_S` per second of error beyond a dead band of 2 ms (`DEAD_BAND_S`:
//!   4 ms of error gives 6 ppm), at most [`MAX_CORRECTION`].
//!
//! The applied rate then moves towards that at most [`SLEW_PER_S`] per second: pitch never
//! wobbles faster than a slow glide no listener hears (50 ppm is 0.09 cent; the smallest
//! pitch difference trained listeners detect is about 3 cents, 1,700 ppm).
//!
//! A buffer far off target is not corrected by pitch (at 50 ppm, 10 ms takes 200 s):
//! when the buffer held at least [`SKIP_S`] too much throughout the last [`WINDOW_S`] (a
//! sender catching up after a stall) the reader skips ahead by the least excess it saw; when it
//! held at least [`REPEAT_S`] too little throughout, it steps back by the least shortfall and
//! plays that stretch again. Each move is a 10 ms crossfade to the best-aligned position
//! ([`crate::graph::crossfade`]: no silence, a held tone keeps its phase), counted as
//! a skip or repeat; so is a drop of the source's held target by 5 ms or more (skipped at
//! once). Pitch correction therefore stays within about `GAIN_PER_S * (SKIP_S - DEAD_BAND_S)`
//! (24 ppm) and [`MAX_CORRECTION`] in every case. The target is the source's held one
//! ([`crate::source::buffer::SourceBuffer::target_frames`]): it follows a rising jitter target
//! at once and a falling one slowly, so the target's own noise is not steered either.

/// Time constant of the buffer error filter.
pub const ERR_TAU_S: f64 = 2.0;
/// Correction per second of filtered buffer error beyond [`DEAD_BAND_S`]: 1 ms gives 3 ppm.
const GAIN_PER_S: f64 = 0.003;
/// Filtered buffer error left alone: the target itself moves by this much as the jitter
/// estimate breathes, and steering it would bend the pitch for nothing (2 ms more or less of
/// latency is not heard; 10 ppm of pitch is not heard either, but it is measured).
const DEAD_BAND_S: f64 = 0.002;
/// How long the buffer must stay off target before the reader moves, and the least it held
/// over that time is how far (long enough to span several of a bursty sender's bursts: the
/// buffer's low points, just before a burst lands, are what is truly too much).
const WINDOW_S: f64 = 0.25;
/// Largest correction for the buffer error.
pub const MAX_CORRECTION: f64 = 50e-6;
/// Fastest change of the applied rate, per second.
pub const SLEW_PER_S: f64 = 20e-6;
/// Excess (the least over [`WINDOW_S`]) beyond which the reader skips ahead.
pub const SKIP_S: f64 = 0.010;
/// A drop of the source's held target by this much is skipped at once.
const TARGET_DROP_SKIP_S: f64 = 0.005;
/// Shortfall (the least over [`WINDOW_S`]) beyond which the reader plays a stretch again.
pub const REPEAT_S: f64 = 0.008;
/// An error found at a (re)start within this is left as error (inside the dead band); beyond it,
/// the excess is taken as part of the target ...
const ADOPT_FROM_S: f64 = 0.0005;
/// ... and given back this fast (seconds per second: 2 ppm).
const OFFSET_FALL_PER_S: f64 = 0.000_002;
/// Seconds after a start or a resync before the filter is trusted to resync again.
const SETTLE_S: f64 = ERR_TAU_S;

/// What the reader should do after a control step.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Action {
    /// Keep playing at [`RateControl::applied`].
    Play,
    /// Move the read position by this many source frames (positive: ahead, skipping audio;
    /// negative: back, repeating audio).
    Move(i64),
}

/// The controller. Plain numbers; never allocates.
#[derive(Clone, Debug)]
pub struct RateControl {
    rate: f64,
    err: f64,
    /// The error's extremes over the last [`WINDOW_S`] or more.
    window: Extremes,
    /// The error found when the filter settled after a (re)start, taken as part of the
    /// target instead of steered away, then given back at the held target's fall rate.
    offset: f64,
    adopt: bool,
    since_resync_s: f64,
    /// The error summed over the second half of the settling time (frames x seconds), and
    /// that time: what a start adopts is its mean, not one reading of a filter that a jittery
    /// sender swings by several ms within a quarter second.
    settle_sum: f64,
    settle_s: f64,
    correction: f64,
    applied: f64,
    /// The target of the previous step (frames).
    last_target: f64,
}

impl RateControl {
    /// A controller for a source at `rate` frames per second.
    pub fn new(rate: u32) -> Self {
        Self {
            rate: f64::from(rate.max(1)),
            err: 0.0,
            window: Extremes::default(),
            offset: 0.0,
            adopt: true,
            since_resync_s: 0.0,
            settle_sum: 0.0,
            settle_s: 0.0,
            correction: 0.0,
            applied: 0.0,
            last_target: f64::NAN,
        }
    }

    /// Starts afresh (a new stream) at `drift` (relative).
    pub fn start(&mut self, drift: f64) {
        self.refilled();
        self.offset = 0.0;
        self.correction = 0.0;
        self.applied = drift;
    }

    /// Forgets the filtered error after the reader moved by it: the buffer is at the target
    /// again.
    pub fn resynced(&mut self) {
        self.err = 0.0;
        self.window = Extremes::default();
        self.since_resync_s = 0.0;
        self.settle_sum = 0.0;
        self.settle_s = 0.0;
    }

    /// After a prebuffer (a start, or a refill after running dry): where playing resumed
    /// depends on when the last packet or burst came, so the error found once the filter
    /// settles is taken as it is.
    pub fn refilled(&mut self) {
        self.resynced();
        self.adopt = true;
    }

    /// One step of `dt` seconds: `fill` frames queued now against `target` frames,
    /// `drift` the source's trusted clock error; `flowing` whether packets arrive at their
    /// usual pace (an ending stream drains its buffer: not a clock error).
    pub fn step(&mut self, fill: f64, target: f64, drift: f64, flowing: bool, dt: f64) -> Action {
        let mut action = Action::Play;
        // Only while the reader can act on it (a reader in a fade sees the drop on its next
        // steady step, so every reader of the source skips it and they stay aligned).
        let dropped = self.last_target - target;
        if flowing {
            self.last_target = target;
        }
        if flowing && dropped >= TARGET_DROP_SKIP_S * self.rate && fill - target >= dropped / 2.0 {
            // The source's held target dropped to what the jitter asks (it had grown after a
            // stall): skip the difference now rather than steer it away over minutes.
            self.resynced();
            self.correction = 0.0;
            let slew = SLEW_PER_S * dt;
            self.applied += (drift - self.applied).clamp(-slew, slew);
            return Action::Move(dropped.round() as i64);
        }
        if flowing {
            let fall = OFFSET_FALL_PER_S * self.rate * dt;
            self.offset -= self.offset.clamp(-fall, fall);
            let error = fill - target - self.offset;
            self.err += (error - self.err) * (dt / ERR_TAU_S).min(1.0);
            self.window.push(error, dt);
            self.since_resync_s += dt;
            let settled = self.since_resync_s >= SETTLE_S;
            if !settled && self.since_resync_s >= SETTLE_S / 2.0 {
                self.settle_sum += error * dt;
                self.settle_s += dt;
            }
            let (low, high) = self.window.extremes();
            if settled && low > SKIP_S * self.rate {
                action = Action::Move(low.round() as i64);
            } else if settled && high < -REPEAT_S * self.rate && fill > 0.0 {
                action = Action::Move(high.round() as i64);
            } else if settled && std::mem::take(&mut self.adopt) {
                // Where a start lands depends on where in a bursty sender's cycle the
                // prebuffer filled (and on how far the target rose as the sender's jitter
                // showed): measured, not steered. The mean error of the last second; the slow
                // filter has only partly converged by now.
                let mean = if self.settle_s > 0.0 {
                    self.settle_sum / self.settle_s
                } else {
                    self.err
                };
                let keep = ADOPT_FROM_S * self.rate;
                let e = mean - mean.clamp(-keep, keep);
                self.offset += e;
                self.window.shift(-e);
                self.err = mean - e;
            }
            let err_s = self.err / self.rate;
            self.correction = if settled {
                let beyond = err_s - err_s.clamp(-DEAD_BAND_S, DEAD_BAND_S);
                (GAIN_PER_S * beyond).clamp(-MAX_CORRECTION, MAX_CORRECTION)
            } else {
                0.0
            };
            if action != Action::Play {
                self.correction = 0.0;
                self.resynced();
            }
        }
        let desired = drift + self.correction;
        let slew = SLEW_PER_S * dt;
        self.applied += (desired - self.applied).clamp(-slew, slew);
        action
    }

    /// The rate adjustment applied now (relative: 1e-6 is 1 ppm faster consumption).
    pub fn applied(&self) -> f64 {
        self.applied
    }

    /// The part of it that corrects the buffer error (relative).
    pub fn correction(&self) -> f64 {
        self.correction
    }
}

/// The lowest and highest of a value over the last one to two [`WINDOW_S`] (two blocks, so it
/// needs no history buffer); both 0 until a whole block is in.
#[derive(Clone, Copy, Debug, Default)]
struct Extremes {
    block_s: f64,
    low: f64,
    high: f64,
    prev: Option<(f64, f64)>,
}

impl Extremes {
    fn push(&mut self, value: f64, dt: f64) {
        if self.block_s == 0.0 {
            (self.low, self.high) = (value, value);
        }
        self.low = self.low.min(value);
        self.high = self.high.max(value);
        self.block_s += dt;
        if self.block_s >= WINDOW_S {
            self.prev = Some((self.low, self.high));
            self.block_s = 0.0;
        }
    }

    /// (lowest, highest), or (0, 0) before a whole block.
    fn extremes(&self) -> (f64, f64) {
        match self.prev {
            Some((low, high)) if self.block_s > 0.0 => (low.min(self.low), high.max(self.high)),
            Some(p) => p,
            None => (0.0, 0.0),
        }
    }

    /// Moves every value seen by `by`.
    fn shift(&mut self, by: f64) {
        self.low += by;
        self.high += by;
        if let Some((low, high)) = &mut self.prev {
            *low += by;
            *high += by;
        }
    }
}

#[cfg(test)]
mod tests;
