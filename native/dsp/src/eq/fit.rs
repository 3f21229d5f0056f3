//! The fit behind the graphic-equalizer design: peaking filters at fixed centres whose gains and
//! widths are adjusted until the cascade's dB response at a set of points matches targets in
//! the weighted least-squares sense (Levenberg-Marquardt on the exact responses).
//!
//! For the cookbook peaking filter `|H|^2 = (P + u Q) / (P + Q / u)` at frequency `w`, with
//! `P = (cos w - cos w0)^2`, `Q = alpha^2 sin^2 w` and `u = 10^(gain/20)`: its dB response, and
//! the derivatives with respect to the gain and to the log of `alpha`, are a few operations and
//! one logarithm per filter and point.

use super::design::{PeakingShape, BANDS};
use super::lsq::{Matrix, Normal, MAX_COLS, MAX_ROWS};

/// Every designed filter's impulse response decays by 120 dB within this time: a narrow boost
/// (poles near the unit circle) is widened until it does. Settings of 0.25-2.0 never need it
/// (their slowest filter takes 0.29 s); combs of deep cuts between boosts would otherwise ring
/// for seconds.
pub const MAX_DECAY_S: f64 = 0.4;

/// Bounds of a fitted filter's gain, dB. Sliders of 0.25-2.0 stay inside them (up to about
/// +19 dB); deep cuts next to boosts may reach them.
pub const FILTER_MIN_DB: f64 = -60.0;
pub const FILTER_MAX_DB: f64 = 24.0;
/// Widths stay within e^-1.2 - e^1.2 (0.3-3.3) times the nominal ones ...
const WIDTH_RANGE: f64 = 1.2;
/// ... and a weak pull holds them near it (weight of the squared log of the ratio).
const WIDTH_PULL: f64 = 0.25;
/// Levenberg-Marquardt steps at most (the fit usually settles in 5-15), and the largest change
/// (dB, or log-width) under which it has settled.
const MAX_STEPS: usize = 30;
const SETTLED: f64 = 1e-4;

/// What a design point's target is made of (indices of filters).
#[derive(Clone, Copy, Debug)]
pub(crate) enum Target {
    Centre(usize),
    /// Halfway (in dB) between filter `c`'s slider and the next.
    Midpoint(usize),
    /// Below the lowest centre, holding the lowest slider's value.
    Below,
}

#[derive(Clone, Copy, Debug)]
pub(crate) struct Point {
    cos_w: f64,
    sin2_w: f64,
    pub target: Target,
    pub weight: f64,
}

/// The filters (nominal shapes) and the points where their cascade is fitted.
#[derive(Clone, Debug)]
pub(crate) struct Problem {
    rate: u32,
    cols: usize,
    cos_w0: [f64; BANDS],
    alpha0: [f64; BANDS],
    /// The smallest `alpha / A` (A = 10^(gain/40)) that meets `MAX_DECAY_S`: the poles'
    /// radius is `sqrt((1 - alpha/A) / (1 + alpha/A))`.
    min_damping: f64,
    rows: usize,
    point: [Point; MAX_ROWS],
}

/// One filter's dB response at a point and its derivatives.
struct BandAt {
    db: f64,
    d_gain: f64,
    d_width: f64,
}

#[inline]
fn band_at(p: &Point, cos_w0: f64, alpha2: f64, u: f64) -> BandAt {
    let d = p.cos_w - cos_w0;
    let pp = d * d;
    let q = alpha2 * p.sin2_w;
    let num = pp + u * q;
    let den = u * pp + q;
    BandAt {
        db: 10.0 * (u * num / den).log10(),
        // d/d(gain dB) of 10 log10(u num / den), u = 10^(gain/20).
        d_gain: 0.5 * (u * q / num + q / den),
        // d/d(ln alpha): Q scales with alpha^2.
        d_width: 20.0 / std::f64::consts::LN_10 * (u * q / num - q / den),
    }
}

impl Problem {
    pub(crate) fn new(rate: u32) -> Self {
        let r2 = 10f64.powf(-120.0 / (10.0 * MAX_DECAY_S * rate as f64));
        Problem {
            rate,
            min_damping: (1.0 - r2) / (1.0 + r2),
            cols: 0,
            cos_w0: [0.0; BANDS],
            alpha0: [0.0; BANDS],
            rows: 0,
            point: [Point {
                cos_w: 1.0,
                sin2_w: 0.0,
                target: Target::Below,
                weight: 0.0,
            }; MAX_ROWS],
        }
    }

    pub(crate) fn rate(&self) -> u32 {
        self.rate
    }

    pub(crate) fn add_filter(&mut self, nominal: PeakingShape) {
        self.cos_w0[self.cols] = nominal.cos_w0;
        self.alpha0[self.cols] = nominal.alpha;
        self.cols += 1;
    }

    pub(crate) fn add_point(&mut self, freq: f64, target: Target, weight: f64) {
        let w = 2.0 * std::f64::consts::PI * freq / self.rate as f64;
        self.point[self.rows] = Point {
            cos_w: w.cos(),
            sin2_w: w.sin() * w.sin(),
            target,
            weight,
        };
        self.rows += 1;
    }

    pub(crate) fn filters(&self) -> usize {
        self.cols
    }

    pub(crate) fn points(&self) -> &[Point] {
        &self.point[..self.rows]
    }

    /// Filter `c`'s shape for the solution `z`.
    pub(crate) fn shape(&self, c: usize, z: &[f64; MAX_COLS]) -> PeakingShape {
        PeakingShape {
            cos_w0: self.cos_w0[c],
            alpha: self.alpha0[c] * z[self.cols + c].exp(),
        }
    }

    /// Fits the filters to `target` (dB at each point): returns `z`, the gains (dB) of the
    /// filters in `z[..cols]` and the logs of their widths relative to the nominal ones in
    /// `z[cols..2 cols]`. The first step from all-flat filters is the linear solve with each
    /// filter's small-gain response shape (the interaction matrix), since there the width has
    /// no effect and the pull keeps it still.
    pub(crate) fn solve(
        &self,
        target: &[f64; MAX_ROWS],
        weight: &[f64; MAX_ROWS],
    ) -> [f64; MAX_COLS] {
        let (cols, rows, n) = (self.cols, self.rows, 2 * self.cols);
        let mut ridge = [1e-9f64; MAX_COLS];
        for r in &mut ridge[cols..n] {
            *r = WIDTH_PULL;
        }
        let mut z = [0.0f64; MAX_COLS];
        let mut jac: Matrix = [[0.0; MAX_COLS]; MAX_ROWS];
        let mut resid = [0.0f64; MAX_ROWS];
        let mut cost = self.linearise(&z, &mut jac, &mut resid, target, weight, &ridge);
        let mut normal = Normal::new(&jac, &resid, weight, rows, n);
        let mut damping = 1e-3;
        let mut next_jac: Matrix = [[0.0; MAX_COLS]; MAX_ROWS];
        let mut next_resid = [0.0f64; MAX_ROWS];
        for _ in 0..MAX_STEPS {
            let step = normal.step(&ridge, &z, damping);
            let mut next = z;
            let mut moved = 0.0f64;
            for k in 0..n {
                let (lo, hi) = if k < cols {
                    (FILTER_MIN_DB, FILTER_MAX_DB)
                } else {
                    (-WIDTH_RANGE, WIDTH_RANGE)
                };
                next[k] = (z[k] + step[k]).clamp(lo, hi);
            }
            for c in 0..cols {
                let narrowest =
                    (self.min_damping * 10f64.powf(next[c] / 40.0) / self.alpha0[c]).ln();
                next[cols + c] = next[cols + c].max(narrowest.min(WIDTH_RANGE));
            }
            for k in 0..n {
                moved = moved.max((next[k] - z[k]).abs());
            }
            if moved < SETTLED {
                break;
            }
            let c = self.linearise(
                &next,
                &mut next_jac,
                &mut next_resid,
                target,
                weight,
                &ridge,
            );
            if c < cost {
                z = next;
                std::mem::swap(&mut jac, &mut next_jac);
                resid = next_resid;
                cost = c;
                normal = Normal::new(&jac, &resid, weight, rows, n);
                damping = (damping / 3.0).max(1e-9);
            } else {
                damping *= 4.0;
            }
        }
        z
    }

    /// Fills the Jacobian of the cascade's dB response at the points with respect to `z`, and
    /// the residuals `target - response`; returns the cost (weighted squared residuals plus the
    /// width pull).
    fn linearise(
        &self,
        z: &[f64; MAX_COLS],
        jac: &mut Matrix,
        resid: &mut [f64; MAX_ROWS],
        target: &[f64; MAX_ROWS],
        weight: &[f64; MAX_ROWS],
        ridge: &[f64; MAX_COLS],
    ) -> f64 {
        let cols = self.cols;
        let mut u = [1.0f64; BANDS];
        let mut a2 = [0.0f64; BANDS];
        for c in 0..cols {
            u[c] = 10f64.powf(z[c] / 20.0);
            a2[c] = (self.alpha0[c] * z[cols + c].exp()).powi(2);
        }
        let mut cost = 0.0;
        for (i, p) in self.point[..self.rows].iter().enumerate() {
            let mut sum = 0.0;
            for c in 0..cols {
                let b = band_at(p, self.cos_w0[c], a2[c], u[c]);
                sum += b.db;
                jac[i][c] = b.d_gain;
                jac[i][cols + c] = b.d_width;
            }
            resid[i] = target[i] - sum;
            cost += weight[i] * resid[i] * resid[i];
        }
        for k in cols..2 * cols {
            cost += ridge[k] * z[k] * z[k];
        }
        cost
    }
}
