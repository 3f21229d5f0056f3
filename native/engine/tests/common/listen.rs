//! What a listener hears in a recorded channel, for the interop tests that include it with
//! `#[path]` beside `mod common` and `mod hearing` (`hearing.rs`).

/// (gaps over 2 ms between first and last sound in ms, the median frequency of the gap-free
/// half seconds, the RMS) of a channel playing about `freq` Hz.
pub fn listen(x: &[f64], rate: f64, freq: f64) -> (Vec<f64>, f64, f64) {
    let h = crate::hearing::hear(x, rate, freq, 0.0);
    let mut ppm = h.pitch_ppm.clone();
    ppm.sort_by(f64::total_cmp);
    let median = ppm
        .get(ppm.len() / 2)
        .map_or(0.0, |p| freq * (1.0 + p * 1e-6));
    let (_, rms) = crate::common::tone(crate::common::sounding(x), rate);
    (h.gaps.iter().map(|g| g.1).collect(), median, rms)
}
