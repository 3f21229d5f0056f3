//! Design of the polyphase Kaiser-windowed-sinc table the resampler interpolates.

/// Stop-band attenuation the design aims for, in dB (the test requires -100 dB).
pub const STOPBAND_DB: f64 = 110.0;
/// Pass-band edge as a fraction of the lower sample rate at 44.1 kHz and below: 20 kHz at
/// 44.1 kHz. Above it the pass band ends at [`PASS_EDGE_HZ`] (see [`pass_edge`]).
pub const PASS_EDGE: f64 = 20_000.0 / 44_100.0;
/// The pass band's end in Hz where the lower rate is above 44.1 kHz: the edge of hearing. At
/// 48 kHz this leaves a 4 kHz transition, not 2.2 kHz, and the filter needs about half the taps
/// (88, not 160); at 96 kHz a quarter as many as a fixed fraction would.
pub const PASS_EDGE_HZ: f64 = 20_000.0;
/// Stop-band edge as a fraction of the lower sample rate: its Nyquist frequency.
pub const STOP_EDGE: f64 = 0.5;
/// Sub-sample phases in the table; coefficients between two phases are interpolated linearly.
pub const PHASES: usize = 512;

/// Coefficients for `PHASES + 1` fractional positions, `taps` each.
#[derive(Clone, Debug)]
pub struct PolyphaseTable {
    pub taps: usize,
    pub phases: usize,
    pub coefs: Vec<f32>,
}

impl PolyphaseTable {
    /// Row `phase` (0..=phases): the weights of input samples `i - taps/2 + 1 ..= i + taps/2`
    /// for an output at position `i + phase / phases`.
    #[inline(always)]
    pub fn row(&self, phase: usize) -> &[f32] {
        &self.coefs[phase * self.taps..(phase + 1) * self.taps]
    }
}

/// Zeroth-order modified Bessel function of the first kind (power series).
fn bessel_i0(x: f64) -> f64 {
    let (mut sum, mut term, mut k) = (1.0f64, 1.0f64, 1.0f64);
    let half = x / 2.0;
    loop {
        term *= (half / k) * (half / k);
        sum += term;
        if term < sum * 1e-17 {
            return sum;
        }
        k += 1.0;
    }
}

/// The pass band's edge as a fraction of the lower rate `low` (Hz): [`PASS_EDGE`] of it, or
/// [`PASS_EDGE_HZ`] where that is lower.
pub fn pass_edge(low: f64) -> f64 {
    PASS_EDGE.min(PASS_EDGE_HZ / low)
}

/// Kaiser's beta for a stop-band attenuation in dB.
fn kaiser_beta(attenuation_db: f64) -> f64 {
    if attenuation_db > 50.0 {
        0.1102 * (attenuation_db - 8.7)
    } else {
        0.5842 * (attenuation_db - 21.0).powf(0.4) + 0.07886 * (attenuation_db - 21.0)
    }
}

/// The filter for converting `in_rate` to `out_rate`: cut-off midway between [`pass_edge`] and
/// [`STOP_EDGE`] of the lower rate, length from Kaiser's formula for that transition width,
/// rounded up to a multiple of 8.
#[derive(Clone, Copy, Debug)]
pub struct Design {
    pub taps: usize,
    cutoff: f64,
    beta: f64,
}

impl Design {
    pub fn new(in_rate: u32, out_rate: u32) -> Self {
        let low = in_rate.min(out_rate) as f64;
        let scale = low / in_rate as f64; // frequencies below in cycles per input sample
        let pass = pass_edge(low);
        let transition = (STOP_EDGE - pass) * scale;
        let n = ((STOPBAND_DB - 7.95) / (14.36 * transition)).ceil() as usize + 1;
        Design {
            taps: n.div_ceil(8) * 8,
            cutoff: 0.5 * (pass + STOP_EDGE) * scale,
            beta: kaiser_beta(STOPBAND_DB),
        }
    }

    /// Rows for the fractional positions `k / phases`, k = 0..rows, each normalised to unity
    /// gain at DC.
    pub fn table(&self, phases: usize, rows: usize) -> PolyphaseTable {
        let taps = self.taps;
        let half = (taps / 2) as f64;
        let i0_beta = bessel_i0(self.beta);
        let mut coefs = vec![0.0f32; rows * taps];
        let mut row = vec![0.0f64; taps];
        for phase in 0..rows {
            let frac = phase as f64 / phases as f64;
            for (j, c) in row.iter_mut().enumerate() {
                let t = frac + half - 1.0 - j as f64;
                let x = t / half;
                let window = if x.abs() >= 1.0 {
                    0.0
                } else {
                    bessel_i0(self.beta * (1.0 - x * x).sqrt()) / i0_beta
                };
                let arg = 2.0 * self.cutoff * t;
                let sinc = if arg == 0.0 {
                    1.0
                } else {
                    (std::f64::consts::PI * arg).sin() / (std::f64::consts::PI * arg)
                };
                *c = 2.0 * self.cutoff * sinc * window;
            }
            let sum: f64 = row.iter().sum();
            for (dst, c) in coefs[phase * taps..(phase + 1) * taps].iter_mut().zip(&row) {
                *dst = (c / sum) as f32;
            }
        }
        PolyphaseTable {
            taps,
            phases,
            coefs,
        }
    }
}

/// The interpolation table: [`PHASES`] + 1 rows (the last is the next sample's phase 0).
pub fn design(in_rate: u32, out_rate: u32) -> PolyphaseTable {
    Design::new(in_rate, out_rate).table(PHASES, PHASES + 1)
}

/// Largest phase count for which an exact rational table is built.
pub const MAX_EXACT_PHASES: usize = 1024;

/// For a rational ratio `in_rate / out_rate = step / phases` with at most
/// [`MAX_EXACT_PHASES`] phases: the exact table (one row per output phase) and `step`.
///
/// At equal rates the exact grid is the identity: a band-limited interpolator evaluated at whole
/// sample positions passes the samples through (delayed by the filter's half length, like
/// every other rate), so a stream whose clock needs no correction is not filtered at all; the
/// low-pass of the interpolated table applies once the ratio is nudged.
pub fn design_exact(in_rate: u32, out_rate: u32) -> Option<(PolyphaseTable, usize)> {
    let design = Design::new(in_rate, out_rate);
    if in_rate == out_rate {
        let mut coefs = vec![0.0f32; design.taps];
        coefs[design.taps / 2 - 1] = 1.0;
        let table = PolyphaseTable {
            taps: design.taps,
            phases: 1,
            coefs,
        };
        return Some((table, 1));
    }
    let g = gcd(in_rate as usize, out_rate as usize);
    let (step, phases) = (in_rate as usize / g, out_rate as usize / g);
    (phases <= MAX_EXACT_PHASES).then(|| (design.table(phases, phases), step))
}

fn gcd(mut a: usize, mut b: usize) -> usize {
    while b != 0 {
        (a, b) = (b, a % b);
    }
    a
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bessel_matches_known_values() {
        assert!((bessel_i0(0.0) - 1.0).abs() < 1e-15);
        assert!((bessel_i0(1.0) - 1.266_065_877_752_008_4).abs() < 1e-12);
        assert!((bessel_i0(10.0) - 2_815.716_628_466_254).abs() < 1e-8);
    }

    #[test]
    fn exact_tables_exist_for_the_supported_rate_pairs() {
        let (t, step) = design_exact(44_100, 48_000).unwrap();
        assert_eq!((t.phases, step), (160, 147));
        assert_eq!(t.row(80), design(44_100, 48_000).row(PHASES / 2));
        assert_eq!(design_exact(192_000, 44_100).unwrap().1, 640);
        assert!(design_exact(44_100, 47_999).is_none());
        // Equal rates: the identity, at the filter's latency.
        let (t, step) = design_exact(48_000, 48_000).unwrap();
        assert_eq!((t.phases, step), (1, 1));
        let delta = t.taps / 2 - 1;
        assert!(t
            .row(0)
            .iter()
            .enumerate()
            .all(|(j, &c)| c == f32::from(j == delta)));
    }

    #[test]
    fn table_is_symmetric_and_lengths_follow_the_rates() {
        let t = design(44_100, 48_000);
        assert_eq!(t.taps % 8, 0);
        assert!(t.taps >= 150 && t.taps <= 176, "taps {}", t.taps);
        // Phase p and phase P - p are mirror images.
        let (a, b) = (t.row(100), t.row(PHASES - 100));
        for j in 0..t.taps {
            assert!((a[j] - b[t.taps - 1 - j]).abs() < 1e-6);
        }
        // Downsampling by 4 needs about 4x the taps at the input rate.
        let down = design(192_000, 48_000);
        let same = design(48_000, 48_000);
        assert!(down.taps > 3 * same.taps && down.taps < 5 * same.taps);
    }
}
