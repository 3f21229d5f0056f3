//! Clock-drift and jitter estimation for one source against the router's monotonic clock.
//!
//! Drift: network delay only ever adds to a packet's arrival time, so the *earliest* arrival
//! relative to the nominal sample clock (the lower envelope of `arrival - position / rate`) is a
//! clean line whose slope is the sender's clock error. Each window (1 s) keeps its minimum
//! offset; a least-squares line through the last 64 windows gives the drift in ppm.
//!
//! Steps: a sender that pauses without counting the pause in its timestamps (PulseAudio's
//! `module-rtp-send` when the null sink it sends from is suspended, by `module-suspend-on-idle`
//! or `pactl suspend-sink`) moves that envelope by the length of the pause at once. No clock
//! does that: drift moves it by at most 1 ms per window (1000 ppm), and a window's minimum,
//! over 50 to 170 packets, scatters by a few ms. A window whose minimum is more than
//! [`STEP_S`] off the line of the windows before it starts the fit afresh from itself; the
//! estimate from before the step (and from before the window just before it, which may hold
//! the step's start) stands until [`MIN_WINDOWS`] windows of the new run give a new one. Fitting across the step instead read the pause as a clock error: a 1 s pause in a
//! 64 s fit is 23,000 ppm, shown as the -1000 clamp for a minute after every pause (issue 32).
//!
//! Jitter: the RFC 3550 interarrival jitter estimator (`J += (|D| - J) / 16`).

/// Length of one envelope window, in seconds.
const WINDOW_S: f64 = 1.0;
/// Windows kept for the line fit.
const WINDOWS: usize = 64;
/// Windows needed before an estimate is published.
const MIN_WINDOWS: usize = 8;
/// Largest correction believed: real sound-card and crystal clocks are within a few hundred
/// ppm; anything beyond is a burst (a sender catching up) and left to the buffer controller.
const MAX_PPM: f64 = 1000.0;
/// A jump of a window's minimum offset beyond which the sender's timeline stepped (a pause its
/// timestamps skip, a clock step): 10 ms, 10 times the most a 1000 ppm drift moves it in a
/// window and beyond the scatter of window minima (a few ms). A sender stalled and catching up
/// (ffmpeg on a busy machine) makes no step: its earliest packets keep the minimum.
pub const STEP_S: f64 = 0.010;
/// A silence between two packets beyond which the sender paused (10 times ffmpeg's bursts): the
/// window open when it paused is dropped, not fitted. A sender slowing as it stops (PulseAudio's
/// packets came 2-3 ms late in the last second before a suspend) fills that window with late
/// packets, and fitted it bent the estimate by 40-110 ppm until the step showed a window later.
const PAUSE_GAP_S: f64 = 0.2;

/// Estimates one source's drift and jitter. Fixed size; updates never allocate.
#[derive(Clone, Debug)]
pub struct DriftEstimator {
    nominal_rate: f64,
    window_start: f64,
    window_min: f64,
    points: [(f64, f64); WINDOWS],
    n_points: usize,
    next_point: usize,
    ppm: f64,
    /// Standard error of `ppm` (from the fit's residuals).
    ppm_se: f64,
    /// `ppm` and `ppm_se` before the latest window was fitted: what a step goes back to.
    before_last: (f64, f64),
    jitter_s: f64,
    last_transit: Option<f64>,
    /// When the last packet arrived (NaN before the first).
    last_arrival: f64,
    /// Steps of the timeline seen (each started the fit afresh), and the last one's size (s).
    steps: u64,
    last_step_s: f64,
    /// The count of steps last logged ([`DriftEstimator::step_to_log`]).
    logged_steps: u64,
}

impl DriftEstimator {
    pub fn new(nominal_rate: u32) -> Self {
        Self {
            nominal_rate: f64::from(nominal_rate.max(1)),
            window_start: f64::NAN,
            window_min: f64::INFINITY,
            points: [(0.0, 0.0); WINDOWS],
            n_points: 0,
            next_point: 0,
            ppm: 0.0,
            ppm_se: f64::INFINITY,
            before_last: (0.0, f64::INFINITY),
            jitter_s: 0.0,
            last_transit: None,
            last_arrival: f64::NAN,
            steps: 0,
            last_step_s: 0.0,
            logged_steps: 0,
        }
    }

    /// Forgets the history (after a sender restart or timestamp jump); keeps the estimates as
    /// a starting point.
    pub fn restart(&mut self) {
        self.window_start = f64::NAN;
        self.window_min = f64::INFINITY;
        self.n_points = 0;
        self.next_point = 0;
        self.last_transit = None;
        self.last_arrival = f64::NAN;
    }

    /// Records a packet whose last frame ends at `end_position` (frames since the stream's
    /// origin) and that arrived at `arrival_s` (monotonic seconds).
    pub fn observe(&mut self, arrival_s: f64, end_position: u64) {
        self.observe_in_burst(arrival_s, end_position, false);
    }

    /// [`DriftEstimator::observe`] for a packet that came right after the previous one (part of
    /// a burst: ffmpeg sends 21 ms of audio at once): it counts for the drift, but the jitter
    /// compares only the first packets of bursts, whose spacing is the sender's real pace.
    pub fn observe_in_burst(&mut self, arrival_s: f64, end_position: u64, in_burst: bool) {
        if arrival_s - self.last_arrival > PAUSE_GAP_S {
            // The sender paused: the window open then is dropped (see PAUSE_GAP_S).
            self.window_start = f64::NAN;
            self.window_min = f64::INFINITY;
        }
        self.last_arrival = arrival_s;
        let transit = arrival_s - end_position as f64 / self.nominal_rate;
        if in_burst {
            self.window_min = self.window_min.min(transit);
            return;
        }
        if let Some(last) = self.last_transit {
            let d = (transit - last).abs();
            // Ignore absurd steps (a resync) so they do not poison the estimate.
            if d < 1.0 {
                self.jitter_s += (d - self.jitter_s) / 16.0;
            }
        }
        self.last_transit = Some(transit);
        if self.window_start.is_nan() {
            self.window_start = arrival_s;
        }
        if arrival_s - self.window_start >= WINDOW_S {
            if self.window_min.is_finite() {
                self.push_point(self.window_start + WINDOW_S / 2.0, self.window_min);
            }
            self.window_start = arrival_s;
            self.window_min = f64::INFINITY;
        }
        self.window_min = self.window_min.min(transit);
    }

    fn push_point(&mut self, t: f64, offset: f64) {
        if self.n_points > 0 {
            // Where the line through the windows before puts this one: the last window's
            // minimum moved by the drift measured so far (a fast sender's offset shrinks).
            let (t_last, o_last) = self.points[(self.next_point + WINDOWS - 1) % WINDOWS];
            let step = offset - (o_last - self.ppm * 1e-6 * (t - t_last));
            if step.abs() > STEP_S {
                // The window before the step may hold its start (PulseAudio's packets came
                // 2-3 ms late in the last window before a suspend): its fit is dropped too.
                (self.ppm, self.ppm_se) = self.before_last;
                self.n_points = 0;
                self.next_point = 0;
                self.steps += 1;
                self.last_step_s = step;
            }
        }
        self.before_last = (self.ppm, self.ppm_se);
        self.points[self.next_point] = (t, offset);
        self.next_point = (self.next_point + 1) % WINDOWS;
        self.n_points = (self.n_points + 1).min(WINDOWS);
        if self.n_points >= MIN_WINDOWS {
            let pts = &self.points[..self.n_points];
            let n = pts.len() as f64;
            let (t0, o0) = pts[0];
            let (mut st, mut so, mut stt, mut sto) = (0.0, 0.0, 0.0, 0.0);
            for &(t, o) in pts {
                let (t, o) = (t - t0, o - o0);
                st += t;
                so += o;
                stt += t * t;
                sto += t * o;
            }
            let denom = n * stt - st * st;
            if denom > 1e-9 {
                let slope = (n * sto - st * so) / denom;
                let intercept = (so - slope * st) / n;
                let residual: f64 = pts
                    .iter()
                    .map(|&(t, o)| (o - o0) - intercept - slope * (t - t0))
                    .map(|r| r * r)
                    .sum();
                // Standard error of the slope: residual variance over the spread of times.
                let spread = stt - st * st / n;
                let se = (residual / (n - 2.0) / spread).sqrt() * 1e6;
                // A fast sender delivers positions early: the offset shrinks over time.
                let measured = -slope * 1e6;
                if measured.is_finite() {
                    self.ppm = measured.clamp(-MAX_PPM, MAX_PPM);
                    self.ppm_se = if se.is_finite() { se } else { f64::INFINITY };
                }
            }
        }
    }

    /// The sender's clock error in parts per million (positive: it runs fast).
    pub fn ppm(&self) -> f64 {
        self.ppm
    }

    /// The drift to correct for: the estimate shrunk towards zero by its own uncertainty
    /// (`ppm * ppm^2 / (ppm^2 + (2 se)^2)`), so a young or noisy fit of a sender that has no
    /// drift does not bend the pitch, while a clear drift (several standard errors) counts in
    /// full.
    pub fn trusted_ppm(&self) -> f64 {
        if !self.ppm_se.is_finite() {
            return 0.0;
        }
        let (p2, s2) = (self.ppm * self.ppm, 4.0 * self.ppm_se * self.ppm_se);
        if p2 + s2 <= 0.0 {
            return 0.0;
        }
        self.ppm * p2 / (p2 + s2)
    }

    /// Standard error of [`DriftEstimator::ppm`] (infinite before the first fit).
    pub fn ppm_se(&self) -> f64 {
        self.ppm_se
    }

    /// Steps of the sender's timeline seen so far (see the module's notes on steps).
    pub fn steps(&self) -> u64 {
        self.steps
    }

    /// A step to log now, as (steps so far, the last one's size in seconds): the first, then
    /// whenever the count has doubled since the last logged, so a sender that pauses over and
    /// over fills the log logarithmically.
    pub fn step_to_log(&mut self) -> Option<(u64, f64)> {
        let due = self.steps > self.logged_steps
            && (self.logged_steps == 0 || self.steps >= 2 * self.logged_steps);
        if !due {
            return None;
        }
        self.logged_steps = self.steps;
        Some((self.steps, self.last_step_s))
    }

    /// Interarrival jitter in seconds.
    pub fn jitter_s(&self) -> f64 {
        self.jitter_s
    }

    /// The sender's actual sample rate as the router's clock sees it.
    pub fn effective_rate(&self) -> f64 {
        self.nominal_rate * (1.0 + self.ppm * 1e-6)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A tiny deterministic PRNG for simulated network jitter.
    pub(crate) struct Lcg(pub u64);
    impl Lcg {
        pub fn next_f64(&mut self) -> f64 {
            self.0 = self
                .0
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            (self.0 >> 11) as f64 / (1u64 << 53) as f64
        }
    }

    #[test]
    fn measures_fast_and_slow_senders_through_jitter() {
        for ppm in [-300.0, 0.0, 120.0, 300.0] {
            let mut est = DriftEstimator::new(48_000);
            let mut rng = Lcg(7);
            let per_packet = 288u64;
            let sender_rate = 48_000.0 * (1.0 + ppm * 1e-6);
            for i in 1..=20_000u64 {
                let t = (i * per_packet) as f64 / sender_rate + rng.next_f64() * 0.004;
                est.observe(100.0 + t, i * per_packet);
            }
            assert!(
                (est.ppm() - ppm).abs() < 5.0,
                "{ppm}: measured {}",
                est.ppm()
            );
            assert!(est.jitter_s() > 0.0005 && est.jitter_s() < 0.004);
        }
    }

    /// A sender +120 ppm fast whose timestamps skip a pause of `pause_s` at 20 s (the pause's
    /// packets never come, and the next ones carry on the timestamps where they stopped): the
    /// drift measured each second after it, from 21 s to 100 s.
    fn drift_after_pause(pause_s: f64) -> (Vec<f64>, DriftEstimator) {
        let mut est = DriftEstimator::new(48_000);
        let mut rng = Lcg(11);
        let per_packet = 288u64;
        let sender_rate = 48_000.0 * (1.0 + 120.0 * 1e-6);
        let mut seen = Vec::new();
        for i in 1..=(100.0 * 48_000.0 / per_packet as f64) as u64 {
            let mut t = (i * per_packet) as f64 / sender_rate;
            if t >= 20.0 {
                t += pause_s;
            }
            est.observe(100.0 + t + rng.next_f64() * 0.004, i * per_packet);
            if i % 167 == 0 && t > 21.0 {
                seen.push(est.ppm());
            }
        }
        (seen, est)
    }

    #[test]
    fn a_pause_the_timestamps_skip_does_not_read_as_drift() {
        for pause_s in [0.02, 1.0, 3.0] {
            let (seen, mut est) = drift_after_pause(pause_s);
            let worst = seen.iter().fold(0.0f64, |w, p| w.max((p - 120.0).abs()));
            assert!(
                worst < 20.0,
                "{pause_s} s pause: {worst} ppm off 120 at worst, {seen:?}"
            );
            assert_eq!(est.steps(), 1, "{pause_s} s pause");
            let (n, size) = est.step_to_log().expect("the step is logged");
            assert_eq!(n, 1);
            assert!(
                (size - pause_s).abs() < 0.01,
                "{size} s step for a {pause_s} s pause"
            );
            assert_eq!(est.step_to_log(), None, "logged once");
        }
        // A pause shorter than STEP_S is left to the fit: it bends it for a while, well within
        // the clamp (5 ms across a fit of 20 to 64 windows).
        let (seen, est) = drift_after_pause(0.005);
        assert_eq!(est.steps(), 0);
        let worst = seen.iter().fold(0.0f64, |w, p| w.max((p - 120.0).abs()));
        assert!(worst < 300.0, "5 ms pause: {worst} ppm off at worst");
    }

    #[test]
    fn the_window_before_a_step_is_dropped_with_it() {
        // The last second before a 1 s pause arrives 3 ms late (a sender slowing as it stops,
        // as PulseAudio's did before a suspend): the window there is 3 ms off the line, too
        // little for a step. Fitted, it bent the estimate until the step showed a window after
        // the pause (by 40-110 ppm in the PulseAudio test); the window open when the sender
        // paused is dropped instead, and the estimate from before the pause holds throughout.
        let mut est = DriftEstimator::new(48_000);
        let sender_rate = 48_000.0 * (1.0 + 120.0 * 1e-6);
        let mut rng = Lcg(5);
        let mut seen = Vec::new();
        for i in 1..=(40.0 * 48_000.0 / 288.0) as u64 {
            let mut t = (i * 288) as f64 / sender_rate;
            let late = if (19.0..20.0).contains(&t) {
                0.003
            } else {
                0.0
            };
            if t >= 20.0 {
                t += 1.0;
            }
            est.observe(100.0 + t + late + rng.next_f64() * 0.001, i * 288);
            if t > 10.0 && i % 167 == 0 {
                seen.push(est.ppm());
            }
        }
        assert_eq!(est.steps(), 1);
        let worst = seen.iter().fold(0.0f64, |w, p| w.max((p - 120.0).abs()));
        assert!(worst < 10.0, "{worst} ppm off 120 at worst: {seen:?}");
    }

    #[test]
    fn steps_are_logged_the_first_time_and_when_their_count_doubles() {
        let mut est = DriftEstimator::new(48_000);
        let mut logged = Vec::new();
        for i in 1..=40u64 {
            // A window of packets, each window 100 ms later than the one before.
            for k in 0..50u64 {
                let n = (i * 50 + k) * 960;
                est.observe(i as f64 * 1.1 + k as f64 * 0.02, n);
            }
            if let Some((n, _)) = est.step_to_log() {
                logged.push(n);
            }
        }
        assert!(est.steps() > 30, "{} steps", est.steps());
        assert_eq!(logged[..4], [1, 2, 4, 8], "{logged:?}");
    }
}
