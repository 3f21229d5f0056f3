//! The 18 bands, the gain mapping, peaking-biquad coefficients and their analytic response.

/// Band centres in Hz (half-octave steps from C2, as ffmpeg's superequalizer and the upstream
/// design list them). The last band is moved to [`MAX_CENTRE_FRACTION`] x rate when that is lower.
pub const BAND_CENTRES: [f64; 18] = [
    65.406, 92.499, 130.81, 185.00, 261.63, 369.99, 523.25, 739.99, 1046.5, 1480.0, 2093.0, 2960.0,
    4186.0, 5919.9, 8372.0, 11840.0, 16744.0, 20000.0,
];
pub const BANDS: usize = 18;
/// Highest centre as a fraction of the sample rate (just below Nyquist).
pub const MAX_CENTRE_FRACTION: f64 = 0.475;
/// Q of each band: one half-octave bandwidth, `sqrt(2^0.5) / (2^0.5 - 1)`.
pub const BAND_Q: f64 = 2.870_999_945_510_149_6;
/// Band gains are linear amplitude factors 0.0-2.0; this is the floor of the mapping.
pub const MIN_GAIN: f64 = 0.01;
pub const MAX_GAIN: f64 = 2.0;

/// The documented mapping from a band gain to decibels: `20 log10(gain)`, with gains below
/// 0.01 treated as 0.01 (-40 dB), so 0.0 is a deep cut, 0.5 is -6.02 dB, 1.0 is flat (0 dB) and
/// 2.0 is +6.02 dB. The filter's response at the band centre is exactly this gain.
pub fn gain_to_db(gain: f64) -> f64 {
    20.0 * gain.max(MIN_GAIN).log10()
}

/// The centre frequency band `band` gets at `rate`.
pub fn centre(band: usize, rate: u32) -> f64 {
    BAND_CENTRES[band].min(MAX_CENTRE_FRACTION * rate as f64)
}

/// Normalised biquad coefficients (a0 = 1).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Coefs {
    pub b0: f32,
    pub b1: f32,
    pub b2: f32,
    pub a1: f32,
    pub a2: f32,
    /// `b2 - a2 = 1 - b0` (equal for every peaking filter), computed before rounding; the
    /// kernels use it with `b1 = a1` so their states carry small differences, not the nearly
    /// cancelling products of the textbook form.
    pub d2: f32,
    /// `a1 * d2` and `(1 + a2) * d2`, for the kernels' short-chain form.
    pub a1d2: f32,
    pub c2: f32,
}

/// The parts of a peaking filter that do not depend on its gain.
#[derive(Clone, Copy, Debug)]
pub struct PeakingShape {
    cos_w0: f64,
    alpha: f64,
}

impl PeakingShape {
    pub fn new(freq: f64, rate: u32, q: f64) -> Self {
        let w0 = 2.0 * std::f64::consts::PI * freq / rate as f64;
        PeakingShape {
            cos_w0: w0.cos(),
            alpha: w0.sin() / (2.0 * q),
        }
    }

    /// RBJ audio-EQ-cookbook peaking filter with `db` gain at the centre.
    pub fn coefs(&self, db: f64) -> Coefs {
        let a = 10f64.powf(db / 40.0);
        let a0 = 1.0 + self.alpha / a;
        let d2 = self.alpha * (1.0 / a - a) / a0;
        let a1 = -2.0 * self.cos_w0 / a0;
        let a2 = (1.0 - self.alpha / a) / a0;
        Coefs {
            b0: ((1.0 + self.alpha * a) / a0) as f32,
            b1: ((-2.0 * self.cos_w0) / a0) as f32,
            b2: ((1.0 - self.alpha * a) / a0) as f32,
            a1: ((-2.0 * self.cos_w0) / a0) as f32,
            a2: ((1.0 - self.alpha / a) / a0) as f32,
            d2: d2 as f32,
            a1d2: (a1 * d2) as f32,
            c2: ((1.0 + a2) * d2) as f32,
        }
    }
}

/// |H(e^jw)| of one biquad at `freq`, computed in f64 from its (f32) coefficients.
pub fn magnitude(c: &Coefs, freq: f64, rate: u32) -> f64 {
    let w = 2.0 * std::f64::consts::PI * freq / rate as f64;
    let (c1, s1, c2, s2) = (w.cos(), w.sin(), (2.0 * w).cos(), (2.0 * w).sin());
    let (b0, b1, b2, a1, a2) = (
        c.b0 as f64,
        c.b1 as f64,
        c.b2 as f64,
        c.a1 as f64,
        c.a2 as f64,
    );
    let num = (b0 + b1 * c1 + b2 * c2).hypot(-(b1 * s1 + b2 * s2));
    let den = (1.0 + a1 * c1 + a2 * c2).hypot(-(a1 * s1 + a2 * s2));
    num / den
}

/// The analytic response in dB of the whole 18-band EQ with these gains at `freq`.
pub fn response_db(gains: &[f32; BANDS], rate: u32, freq: f64) -> f64 {
    (0..BANDS)
        .filter(|b| gains[*b] != 1.0)
        .map(|b| {
            let c =
                PeakingShape::new(centre(b, rate), rate, BAND_Q).coefs(gain_to_db(gains[b] as f64));
            20.0 * magnitude(&c, freq, rate).log10()
        })
        .sum()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mapping_is_amplitude_in_db_with_a_floor() {
        assert_eq!(gain_to_db(1.0), 0.0);
        assert!((gain_to_db(2.0) - 6.0206).abs() < 1e-3);
        assert!((gain_to_db(0.5) + 6.0206).abs() < 1e-3);
        assert_eq!(gain_to_db(0.0), -40.0);
        assert!((BAND_Q - 2f64.sqrt().sqrt() / (2f64.sqrt() - 1.0)).abs() < 1e-12);
    }

    #[test]
    fn a_band_has_exactly_its_gain_at_its_centre_and_is_flat_far_away() {
        for rate in [44_100, 48_000, 96_000, 192_000] {
            for band in 0..BANDS {
                let f = centre(band, rate);
                assert!(f < rate as f64 / 2.0);
                let c = PeakingShape::new(f, rate, BAND_Q).coefs(gain_to_db(2.0));
                let at_centre = 20.0 * magnitude(&c, f, rate).log10();
                assert!(
                    (at_centre - 6.0206).abs() < 0.01,
                    "band {band} @ {rate}: {at_centre}"
                );
            }
        }
        let c = PeakingShape::new(1046.5, 48_000, BAND_Q).coefs(-12.0);
        assert!((20.0 * magnitude(&c, 20.0, 48_000).log10()).abs() < 0.05);
    }
}
