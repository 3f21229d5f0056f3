//! The equalizer's design for JavaScript: the response a set of band gains plays, so a
//! dashboard draws exactly what the engine plays.

use napi_derive::napi;
use tributary_dsp::eq::{validate_gains, Designer};

use crate::convert::{eq_gains, invalid, js_error};

/// The equalizer's response in dB at each of `frequencies` (Hz) for 18 band gains (0.0-2.0,
/// b1..b18) at `sampleRate`: the design the engine plays (the same filters, computed from the
/// same f32 coefficients). Throws for bad gains, a rate outside 8000-384000 Hz or a frequency
/// outside 0 to half the rate.
#[napi]
pub fn eq_response(
    gains: Vec<f64>,
    sample_rate: u32,
    frequencies: Vec<f64>,
) -> napi::Result<Vec<f64>> {
    let gains = validate_gains(&eq_gains(&gains)?).map_err(js_error)?;
    if !(8_000..=384_000).contains(&sample_rate) {
        return Err(invalid(format!(
            "sampleRate must be 8000-384000 Hz, got {sample_rate}"
        )));
    }
    let nyquist = sample_rate as f64 / 2.0;
    if let Some((i, f)) = frequencies
        .iter()
        .enumerate()
        .find(|(_, f)| !(f.is_finite() && **f >= 0.0 && **f <= nyquist))
    {
        return Err(invalid(format!(
            "frequencies[{i}] must be 0-{nyquist} Hz (half of sampleRate), got {f}"
        )));
    }
    let design = Designer::new(sample_rate).design(&gains);
    Ok(frequencies.iter().map(|f| design.response_db(*f)).collect())
}
