//! The graphic-equalizer design: the 18 filters that make the cascade sound like its sliders.
//!
//! Overlapping peaking filters add up: with every band at +6 dB a cascade of filters set to the
//! slider values plays up to +9.3 dB. After Välimäki and Liski's accurate cascade graphic
//! equalizer (IEEE Signal Processing Letters 24(2), 2017), the design fits the filters so that
//! the cascade's response in dB matches the slider curve (each slider's value at its centre,
//! interpolated in dB over log-frequency between centres, held below the lowest one) at the 18
//! centres, the 17 geometric midpoints between them and two points below the lowest band, by
//! weighted least squares. The paper solves for the gains once with an interaction matrix of
//! the bands' responses measured at a prototype gain, then once more with the matrix measured at
//! the first solution. Here the first step is that linear solve (the interaction matrix at small
//! gains) and the following ones are Levenberg-Marquardt steps with the exact Jacobian of the
//! real filters' dB responses, until the fit stops moving; and each filter's bandwidth is fitted
//! with its gain, weakly held to its nominal width ([`BAND_OCTAVES`]). With gains alone (at the best
//! fixed width tried) 14-42 % of random settings of 0.25-2.0 miss the promised accuracy somewhere (a cut between two boosts
//! half an octave away is narrower than any fixed width serves); with the widths free, none of
//! 18 000 did (`design_tests::accuracy_over_random_settings` checks 600).
//!
//! It runs when gains change (about 0.3 ms of CPU, fixed arrays, no allocation) and costs
//! nothing per sample: the filters stay peaking biquads for the same kernel.

use super::design::{centre, gain_to_db, magnitude, PeakingShape, BANDS, BAND_OCTAVES, MIN_GAIN};
use super::fit::{Problem, Target};
use super::lsq::MAX_ROWS;

/// Deepest slider target, dB: a slider at 0.0 asks for this at its centre (20 log10 0.01).
pub const FLOOR_DB: f64 = -40.0;
/// The design of the 18 filters for one set of slider values at one sample rate.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Design {
    pub rate: u32,
    /// The slider values it was made for (0.0-2.0).
    pub gains: [f32; BANDS],
    /// Each filter's gain at its centre, dB; 0.0 for a filter that does not run.
    pub gain_db: [f64; BANDS],
    /// Each filter's shape (centre and width; `alpha` of the audio-EQ cookbook).
    pub shapes: [PeakingShape; BANDS],
}

impl Design {
    /// The equalizer's response in dB at `freq`, computed from the same f32 coefficients the
    /// equalizer runs: what it plays, not a model of it.
    pub fn response_db(&self, freq: f64) -> f64 {
        (0..BANDS)
            .filter(|b| self.gain_db[*b] != 0.0)
            .map(|b| {
                let c = self.shapes[b].coefs(self.gain_db[b]);
                20.0 * magnitude(&c, freq, self.rate).log10()
            })
            .fold(0.0, |sum, db| sum + db)
    }

    /// True when every filter is flat (the equalizer then does nothing).
    pub fn is_flat(&self) -> bool {
        self.gain_db.iter().all(|g| *g == 0.0)
    }
}

/// Makes designs for one sample rate: where the filters sit and where the fit is measured,
/// computed once. Bands whose centre folds onto the same frequency (the top bands at low rates,
/// moved to `MAX_CENTRE_FRACTION` x rate) form one column: their slider values add up there, as
/// two filters at one frequency do, and the first band of the group carries the filter.
#[derive(Clone, Debug)]
pub struct Designer {
    problem: Problem,
    /// Band carrying each column's filter, and the column of each band.
    col_band: [usize; BANDS],
    band_col: [usize; BANDS],
    nominal: [PeakingShape; BANDS],
}

/// Least-squares weights (on squared errors) of the design points.
const CENTRE_WEIGHT: f64 = 2.0;
const MIDPOINT_WEIGHT: f64 = 1.0;
const BELOW_WEIGHT: f64 = 1.0;
/// Difference of the two lowest sliders (dB) at which the hold below the lowest band weighs
/// half: holding a value below needs a wide first filter, turning sharply to a very different
/// second slider a narrow one, and then the tested points matter more.
const HOLD_TURN_DB: f64 = 1.0;
/// Below the accuracy range (a slider under 0.25), a cut is a notch: its centre reaches the
/// value but the curve beside it is whatever the notch's skirt is, not a straight line from
/// -40 dB; fitting that line would cost boosts of 15 dB and more around it.
const DEEP_DB: f64 = -12.05;
const DEEP_MIDPOINT_WEIGHT: f64 = 0.02;
const DEEP_CENTRE_WEIGHT: f64 = 0.1;
/// Filters this close to flat (dB) after the fit are left out (they would cost a biquad each
/// for under a thousandth of a dB).
const NEGLIGIBLE_DB: f64 = 1e-3;

impl Designer {
    pub fn new(rate: u32) -> Self {
        let mut d = Designer {
            problem: Problem::new(rate),
            col_band: [0; BANDS],
            band_col: [0; BANDS],
            nominal: [PeakingShape::default(); BANDS],
        };
        let mut freqs = [0.0f64; BANDS];
        let mut cols = 0;
        for b in 0..BANDS {
            let f = centre(b, rate);
            d.nominal[b] = PeakingShape::with_bandwidth(f, rate, BAND_OCTAVES[b]);
            if cols > 0 && f <= freqs[cols - 1] {
                d.band_col[b] = cols - 1;
                continue;
            }
            freqs[cols] = f;
            d.col_band[cols] = b;
            d.band_col[b] = cols;
            d.problem.add_filter(d.nominal[b]);
            cols += 1;
        }
        for k in [2.0, 1.0] {
            let f = freqs[0] * 2f64.powf(-k / 4.0);
            d.problem.add_point(f, Target::Below, BELOW_WEIGHT);
        }
        for c in 0..cols {
            d.problem
                .add_point(freqs[c], Target::Centre(c), CENTRE_WEIGHT);
            if c + 1 < cols {
                let mid = (freqs[c] * freqs[c + 1]).sqrt();
                d.problem
                    .add_point(mid, Target::Midpoint(c), MIDPOINT_WEIGHT);
            }
        }
        d
    }

    pub fn rate(&self) -> u32 {
        self.problem.rate()
    }

    /// True when `shape` is centred where band `band`'s filter is at this rate.
    pub(crate) fn same_centre(&self, band: usize, shape: &PeakingShape) -> bool {
        shape.cos_w0 == self.nominal[band].cos_w0
    }

    /// The filters that make the equalizer's response match `gains` (slider values, checked by
    /// the caller to be 0.0-2.0). All sliders at 1.0 give all-flat filters.
    pub fn design(&self, gains: &[f32; BANDS]) -> Design {
        let mut out = Design {
            rate: self.rate(),
            gains: *gains,
            gain_db: [0.0; BANDS],
            shapes: self.nominal,
        };
        if gains.iter().all(|g| *g == 1.0) {
            return out;
        }
        let cols = self.problem.filters();
        let mut col_db = [0.0f64; BANDS];
        for b in 0..BANDS {
            if gains[b] != 1.0 {
                col_db[self.band_col[b]] += gain_to_db(gains[b] as f64);
            }
        }
        for v in &mut col_db[..cols] {
            *v = v.max(FLOOR_DB);
        }
        let mut target = [0.0f64; MAX_ROWS];
        let mut weight = [0.0f64; MAX_ROWS];
        for (i, p) in self.problem.points().iter().enumerate() {
            weight[i] = p.weight;
            target[i] = match p.target {
                Target::Centre(c) => {
                    if col_db[c] < DEEP_DB {
                        weight[i] *= DEEP_CENTRE_WEIGHT;
                    }
                    col_db[c]
                }
                Target::Midpoint(c) => {
                    if col_db[c].min(col_db[c + 1]) < DEEP_DB {
                        weight[i] *= DEEP_MIDPOINT_WEIGHT;
                    }
                    0.5 * (col_db[c] + col_db[c + 1])
                }
                Target::Below => {
                    let turn = (col_db[0] - col_db[1.min(cols - 1)]) / HOLD_TURN_DB;
                    weight[i] /= 1.0 + turn * turn;
                    col_db[0]
                }
            };
        }
        let z = self.problem.solve(&target, &weight);
        for c in 0..cols {
            let b = self.col_band[c];
            if z[c].abs() >= NEGLIGIBLE_DB {
                out.gain_db[b] = z[c];
                out.shapes[b] = self.problem.shape(c, &z);
            }
        }
        out
    }
}

/// The slider curve the design aims at, in dB: each slider's value at its centre, interpolated
/// in dB over log-frequency between centres, held beyond the ends; folded bands add up.
pub fn slider_curve_db(gains: &[f32; BANDS], rate: u32, freq: f64) -> f64 {
    let mut f = [0.0f64; BANDS];
    let mut v = [0.0f64; BANDS];
    let mut n = 0;
    for b in 0..BANDS {
        let db = if gains[b] == 1.0 {
            0.0
        } else {
            gain_to_db(gains[b].max(MIN_GAIN as f32) as f64)
        };
        let c = centre(b, rate);
        if n > 0 && c <= f[n - 1] {
            v[n - 1] += db;
        } else {
            f[n] = c;
            v[n] = db;
            n += 1;
        }
    }
    for x in &mut v[..n] {
        *x = x.max(FLOOR_DB);
    }
    if freq <= f[0] {
        return v[0];
    }
    for k in 1..n {
        if freq <= f[k] {
            let t = (freq / f[k - 1]).ln() / (f[k] / f[k - 1]).ln();
            return v[k - 1] + t * (v[k] - v[k - 1]);
        }
    }
    v[n - 1]
}
