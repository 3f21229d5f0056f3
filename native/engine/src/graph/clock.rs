//! Clock recovery for one reader: the rate at which it consumes its source, so the buffer stays
//! at the jitter target without the pitch moving audibly.
//!
//! The applied rate is `drift + correction`:
//! - `drift` is the source's measured clock error ([`crate::source::drift`]), taken at the
//!   weight its fit has earned (an estimate within its own noise counts for little);
//! - `correction` is a proportional term on the buffer error, filtered over [`ERR_TAU_S`] so a
//!   bursty sender (ffmpeg sends 21 ms of audio at once) or a jittery network does not steer
//!   the pitch: `GAIN_PER_S` per second of error (1 ms: 10 ppm), at most [`MAX_CORRECTION`].
//!
//! The applied rate then moves towards that at most [`SLEW_PER_S`] per second: pitch never
//! wobbles faster than a slow glide no listener hears (200 ppm is 0.35 cent; the smallest
//! pitch difference trained listeners detect is about 3 cents, 1,700 ppm).
//!
//! A buffer far off target is not corrected by pitch (at 200 ppm, 20 ms takes 100 s): past
//! [`SKIP_S`] too much over a quarter second (a sender catching up after a stall) the reader
//! skips ahead, past [`REPEAT_S`] too little over [`ERR_TAU_S`] it steps back and plays that
//! stretch again, each with a 5 ms fade out and in, counted; so is a drop of the source's held
//! target by 5 ms or more (skipped at once). The target is the source's held
//! one ([`crate::source::buffer::SourceBuffer::target_frames`]): it follows a rising jitter
//! target at once and a falling one slowly, so the target's own noise is not steered either.

/// Time constant of the buffer error filter.
pub const ERR_TAU_S: f64 = 2.0;
/// Correction per second of filtered buffer error: 1 ms gives 10 ppm.
const GAIN_PER_S: f64 = 0.01;
/// Time constant of the fast error filter that measures how far to skip (long enough to
/// average a few of a bursty sender's bursts).
const FAST_TAU_S: f64 = 0.25;
/// Largest correction for the buffer error.
pub const MAX_CORRECTION: f64 = 200e-6;
/// Fastest change of the applied rate, per second.
pub const SLEW_PER_S: f64 = 20e-6;
/// Excess (fast filter) beyond which the reader skips ahead.
pub const SKIP_S: f64 = 0.020;
/// A drop of the source's held target by this much is skipped at once.
const TARGET_DROP_SKIP_S: f64 = 0.005;
/// Shortfall (slow filter) beyond which the reader plays a stretch again.
pub const REPEAT_S: f64 = 0.015;
/// An error found at a (re)start within this is steered away (at most 5 ppm); beyond it,
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
    err_fast: f64,
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
            err_fast: 0.0,
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
        self.err_fast = 0.0;
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
            self.err_fast += (error - self.err_fast) * (dt / FAST_TAU_S).min(1.0);
            self.since_resync_s += dt;
            let settled = self.since_resync_s >= SETTLE_S;
            if !settled && self.since_resync_s >= SETTLE_S / 2.0 {
                self.settle_sum += error * dt;
                self.settle_s += dt;
            }
            let err_s = self.err / self.rate;
            if settled && self.err_fast > SKIP_S * self.rate {
                action = Action::Move(self.err_fast.round() as i64);
            } else if settled && err_s < -REPEAT_S && fill > 0.0 {
                action = Action::Move(self.err.round() as i64);
            } else if settled && std::mem::take(&mut self.adopt) {
                // Where a start lands depends on where in a bursty sender's cycle the
                // prebuffer filled (and on how far the target rose as the sender's jitter
                // showed): measured, not steered. The mean error of the last second; the slow
                // filter has only partly converged by now.
                let mean = if self.settle_s > 0.0 {
                    self.settle_sum / self.settle_s
                } else {
                    self.err_fast
                };
                let keep = ADOPT_FROM_S * self.rate;
                let e = mean - mean.clamp(-keep, keep);
                self.offset += e;
                self.err_fast -= e;
                self.err = mean - e;
            }
            let err_s = self.err / self.rate;
            self.correction = if settled {
                (GAIN_PER_S * err_s).clamp(-MAX_CORRECTION, MAX_CORRECTION)
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_steady_error_is_corrected_within_bounds_and_slew() {
        let mut c = RateControl::new(48_000);
        c.start(0.0);
        let mut last = 0.0;
        for i in 0..3000 {
            // On target while the filter settles, then 12 ms too much queued, with a bursty
            // +-10 ms sawtooth on top.
            let extra = if i < 500 { 0.0 } else { 576.0 };
            let saw = (i % 4) as f64 * 320.0 - 480.0;
            let a = c.step(960.0 + extra + saw, 960.0, 0.0, true, 0.006);
            assert_eq!(a, Action::Play);
            assert!((c.applied() - last).abs() <= SLEW_PER_S * 0.006 + 1e-12);
            last = c.applied();
        }
        // 12 ms, less what the start offset gave back meanwhile: about 120 ppm.
        assert!((c.applied() - 120e-6).abs() < 3e-6, "{}", c.applied());
    }

    #[test]
    fn an_error_found_at_the_start_is_not_steered() {
        let mut c = RateControl::new(48_000);
        c.start(0.0);
        for _ in 0..5000 {
            // 8 ms more than the target: where the prebuffer happened to fill.
            assert_eq!(c.step(960.0 + 384.0, 960.0, 0.0, true, 0.006), Action::Play);
            // 0.5 ms of it is steered (5 ppm), the rest kept and given back at 2 ppm.
            let bound = GAIN_PER_S * ADOPT_FROM_S + OFFSET_FALL_PER_S + 3e-6;
            assert!(c.applied().abs() <= bound, "{}", c.applied());
        }
    }

    #[test]
    fn far_off_target_moves_instead_of_bending_pitch() {
        let mut c = RateControl::new(48_000);
        c.start(0.0);
        let mut moved = None;
        for _ in 0..2000 {
            if let Action::Move(n) = c.step(960.0 + 3168.0, 960.0, 0.0, true, 0.006) {
                moved = Some(n);
                break;
            }
        }
        let n = moved.expect("66 ms too much is skipped");
        assert!(n > 960 && n <= 3168, "{n}");
        assert!(c.applied().abs() <= MAX_CORRECTION);
        // Too little moves back.
        c.start(0.0);
        let mut back = None;
        for _ in 0..2000 {
            if let Action::Move(n) = c.step(2400.0 - 1200.0, 2400.0, 0.0, true, 0.006) {
                back = Some(n);
                break;
            }
        }
        assert!(back.is_some_and(|n| n < -720), "{back:?}");
    }
}
