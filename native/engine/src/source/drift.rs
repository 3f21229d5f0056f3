//! Clock-drift and jitter estimation for one source against the router's monotonic clock.
//!
//! Drift: network delay only ever adds to a packet's arrival time, so the *earliest* arrival
//! relative to the nominal sample clock (the lower envelope of `arrival - position / rate`) is a
//! clean line whose slope is the sender's clock error. Each window (1 s) keeps its minimum
//! offset; a least-squares line through the last 64 windows gives the drift in ppm.
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
    jitter_s: f64,
    last_transit: Option<f64>,
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
            jitter_s: 0.0,
            last_transit: None,
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
}
