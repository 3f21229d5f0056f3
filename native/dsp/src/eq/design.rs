//! The 18 bands, the gain mapping, peaking-biquad coefficients and their magnitude response.

/// Band centres in Hz (half-octave steps from C2, as ffmpeg's superequalizer and the upstream
/// design list them). The last band is moved to [`MAX_CENTRE_FRACTION`] x rate when that is lower.
pub const BAND_CENTRES: [f64; 18] = [
    65.406, 92.499, 130.81, 185.00, 261.63, 369.99, 523.25, 739.99, 1046.5, 1480.0, 2093.0, 2960.0,
    4186.0, 5919.9, 8372.0, 11840.0, 16744.0, 20000.0,
];
pub const BANDS: usize = 18;
/// Highest centre as a fraction of the sample rate (just below Nyquist).
pub const MAX_CENTRE_FRACTION: f64 = 0.475;
/// Nominal bandwidth of each band's filter in octaves, between its half-gain (in dB) points:
/// half an octave, the band spacing, and 1.5 octaves for the lowest band, which also holds its
/// value below its centre. The design ([`crate::eq::Designer`]) tunes each filter's width
/// around this (0.3-3.3 times) together with its gain.
pub const BAND_OCTAVES: [f64; BANDS] = {
    let mut w = [0.5; BANDS];
    w[0] = 1.5;
    w
};
/// Band gains are linear amplitude factors 0.0-2.0; this is the floor of the mapping.
pub const MIN_GAIN: f64 = 0.01;
pub const MAX_GAIN: f64 = 2.0;

/// The documented mapping from a band gain (slider value) to decibels: `20 log10(gain)`, with
/// gains below 0.01 treated as 0.01 (-40 dB, the floor), so 0.0 is a deep cut, 0.5 is -6.02 dB,
/// 1.0 is flat (0 dB) and 2.0 is +6.02 dB. The design makes the whole equalizer's response at
/// each band centre this value (within 0.5 dB for 0.25-2.0).
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

/// The parts of a peaking filter that do not depend on its gain: its centre and width.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct PeakingShape {
    pub(crate) cos_w0: f64,
    pub(crate) alpha: f64,
}

impl PeakingShape {
    pub fn new(freq: f64, rate: u32, q: f64) -> Self {
        let w0 = 2.0 * std::f64::consts::PI * freq / rate as f64;
        PeakingShape {
            cos_w0: w0.cos(),
            alpha: w0.sin() / (2.0 * q),
        }
    }

    /// A peaking filter `octaves` wide between its half-gain (in dB) points in the digital
    /// domain (the cookbook's bandwidth form, corrected for the bilinear transform's warping).
    pub fn with_bandwidth(freq: f64, rate: u32, octaves: f64) -> Self {
        let w0 = 2.0 * std::f64::consts::PI * freq / rate as f64;
        PeakingShape {
            cos_w0: w0.cos(),
            alpha: w0.sin() * (std::f64::consts::LN_2 / 2.0 * octaves * w0 / w0.sin()).sinh(),
        }
    }

    /// The cookbook's `alpha` (`sin w0 / 2Q`): the filter's width.
    pub fn alpha(&self) -> f64 {
        self.alpha
    }

    /// The same centre with another `alpha`.
    pub fn with_alpha(&self, alpha: f64) -> Self {
        PeakingShape { alpha, ..*self }
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mapping_is_amplitude_in_db_with_a_floor() {
        assert_eq!(gain_to_db(1.0), 0.0);
        assert!((gain_to_db(2.0) - 6.0206).abs() < 1e-3);
        assert!((gain_to_db(0.5) + 6.0206).abs() < 1e-3);
        assert_eq!(gain_to_db(0.0), -40.0);
    }

    #[test]
    fn a_filter_has_exactly_its_gain_at_its_centre_and_is_flat_far_away() {
        for rate in [44_100, 48_000, 96_000, 192_000] {
            for band in 0..BANDS {
                let f = centre(band, rate);
                assert!(f < rate as f64 / 2.0);
                let c = PeakingShape::with_bandwidth(f, rate, BAND_OCTAVES[band])
                    .coefs(gain_to_db(2.0));
                let at_centre = 20.0 * magnitude(&c, f, rate).log10();
                assert!(
                    (at_centre - 6.0206).abs() < 0.01,
                    "band {band} @ {rate}: {at_centre}"
                );
            }
        }
        let c = PeakingShape::with_bandwidth(1046.5, 48_000, 0.5).coefs(-12.0);
        assert!((20.0 * magnitude(&c, 20.0, 48_000).log10()).abs() < 0.05);
        // Half the gain (in dB) at the band edges, a quarter octave either side.
        for edge in [-0.25f64, 0.25] {
            let at = 20.0 * magnitude(&c, 1046.5 * edge.exp2(), 48_000).log10();
            assert!((at + 6.0).abs() < 0.01, "{edge}: {at}");
        }
    }
}
