//! A spectrum for meters and visualizers: the last `size` samples, Hann-windowed, through an FFT
//! (rustfft), summed into log-spaced bands from 20 Hz to 20 kHz (or the Nyquist frequency) and
//! given in dBFS (a full-scale sine reads 0 dB in its band). Built once; `analyze` never
//! allocates. Not for the real-time thread (an FFT per call): the engine runs it where the
//! levels are read.

use rustfft::num_complex::Complex32;
use rustfft::{Fft, FftPlanner};
use std::sync::Arc;

/// Lowest band edge, Hz.
const LOW_HZ: f64 = 20.0;
/// Highest band edge, Hz (clamped to the Nyquist frequency).
const HIGH_HZ: f64 = 20_000.0;
/// What a band with no energy reads, dBFS.
pub const FLOOR_DB: f32 = -120.0;

/// An FFT of one size with its window and scratch space.
pub struct SpectrumAnalyzer {
    fft: Arc<dyn Fft<f32>>,
    window: Vec<f32>,
    data: Vec<Complex32>,
    scratch: Vec<Complex32>,
    /// Power of a full-scale sine in one bin after the window (normalises to 0 dBFS).
    full_scale: f32,
    /// The window's equivalent noise bandwidth in bins: a tone's power summed over its bins
    /// is this many times its peak bin's.
    enbw: f32,
}

impl SpectrumAnalyzer {
    /// An analyzer of `size` samples (a power of two from 64 to 65536).
    pub fn new(size: usize) -> Self {
        assert!(
            size.is_power_of_two() && (64..=65_536).contains(&size),
            "spectrum size must be a power of two from 64 to 65536"
        );
        let fft = FftPlanner::new().plan_fft_forward(size);
        let window: Vec<f32> = (0..size)
            .map(|i| {
                let x = std::f64::consts::TAU * i as f64 / size as f64;
                (0.5 - 0.5 * x.cos()) as f32
            })
            .collect();
        let sum: f32 = window.iter().sum();
        let gain = sum / 2.0;
        let enbw = size as f32 * window.iter().map(|w| w * w).sum::<f32>() / (sum * sum);
        let scratch = vec![Complex32::default(); fft.get_inplace_scratch_len()];
        Self {
            fft,
            window,
            data: vec![Complex32::default(); size],
            scratch,
            full_scale: gain * gain,
            enbw,
        }
    }

    /// Samples per analysis.
    pub fn size(&self) -> usize {
        self.window.len()
    }

    /// Fills `bands` (any count, log-spaced) with the level in dBFS of `samples` (the last
    /// `size()` are used; fewer are padded with silence at the start) at `sample_rate`.
    pub fn analyze(&mut self, samples: &[f32], sample_rate: u32, bands: &mut [f32]) {
        let n = self.size();
        let take = samples.len().min(n);
        let pad = n - take;
        let recent = &samples[samples.len() - take..];
        for (i, slot) in self.data.iter_mut().enumerate() {
            let s = if i < pad { 0.0 } else { recent[i - pad] };
            *slot = Complex32::new(s * self.window[i], 0.0);
        }
        self.fft
            .process_with_scratch(&mut self.data, &mut self.scratch);
        let bin_hz = f64::from(sample_rate) / n as f64;
        let high = HIGH_HZ.min(f64::from(sample_rate) / 2.0);
        let count = bands.len();
        let ratio = (high / LOW_HZ).powf(1.0 / count.max(1) as f64);
        let last_bin = n / 2;
        for (b, out) in bands.iter_mut().enumerate() {
            let lo_hz = LOW_HZ * ratio.powi(b as i32);
            let hi_hz = lo_hz * ratio;
            let lo = ((lo_hz / bin_hz).round() as usize).min(last_bin);
            let hi = ((hi_hz / bin_hz).round() as usize).clamp(lo + 1, last_bin + 1);
            // A band narrower than a bin reads the bin its centre falls in; a wide band sums
            // its bins' power (a tone between two bins still counts whole).
            let power: f32 = if hi - lo <= 1 {
                let centre = ((lo_hz * ratio.sqrt() / bin_hz).round() as usize).min(last_bin);
                self.data[centre].norm_sqr()
            } else {
                self.data[lo..hi].iter().map(|c| c.norm_sqr()).sum::<f32>() / self.enbw
            };
            let db = 10.0 * (power / self.full_scale).log10();
            *out = if db.is_finite() {
                db.max(FLOOR_DB)
            } else {
                FLOOR_DB
            };
        }
    }
}

/// The centre frequency of band `b` of `count` log-spaced bands at `sample_rate` (for labels).
pub fn band_centre_hz(b: usize, count: usize, sample_rate: u32) -> f64 {
    let high = HIGH_HZ.min(f64::from(sample_rate) / 2.0);
    let ratio = (high / LOW_HZ).powf(1.0 / count.max(1) as f64);
    LOW_HZ * ratio.powf(b as f64 + 0.5)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sine(freq: f64, amplitude: f32, rate: u32, len: usize) -> Vec<f32> {
        (0..len)
            .map(|i| {
                amplitude * (std::f64::consts::TAU * freq * i as f64 / f64::from(rate)).sin() as f32
            })
            .collect()
    }

    fn loudest(bands: &[f32]) -> usize {
        (0..bands.len())
            .max_by(|&a, &b| bands[a].total_cmp(&bands[b]))
            .unwrap()
    }

    #[test]
    fn a_tone_peaks_in_its_band_at_its_level() {
        let mut analyzer = SpectrumAnalyzer::new(4096);
        let mut bands = [0.0f32; 64];
        for (freq, amplitude) in [(1000.0, 1.0f32), (100.0, 0.5), (8000.0, 0.1)] {
            analyzer.analyze(&sine(freq, amplitude, 48_000, 4096), 48_000, &mut bands);
            let b = loudest(&bands);
            let centre = band_centre_hz(b, 64, 48_000);
            assert!(
                (centre / freq).log2().abs() < 0.15,
                "{freq} Hz peaked in band {b} ({centre:.0} Hz)"
            );
            let expected = 20.0 * amplitude.log10();
            assert!(
                (bands[b] - expected).abs() < 1.5,
                "{freq} Hz at {expected} dBFS read {}",
                bands[b]
            );
            // Far from the tone, the window's leakage is far below it.
            let far = if b > 32 { 5 } else { 60 };
            assert!(bands[far] < bands[b] - 60.0, "band {far}: {}", bands[far]);
        }
    }

    #[test]
    fn silence_reads_the_floor_and_short_input_is_padded() {
        let mut analyzer = SpectrumAnalyzer::new(1024);
        let mut bands = [0.0f32; 16];
        analyzer.analyze(&[0.0; 1024], 44_100, &mut bands);
        assert!(bands.iter().all(|&b| b == FLOOR_DB));
        analyzer.analyze(&sine(2000.0, 1.0, 44_100, 300), 44_100, &mut bands);
        assert!(bands.iter().any(|&b| b > -30.0));
    }

    #[test]
    fn bands_stop_at_the_nyquist_frequency() {
        assert!(band_centre_hz(63, 64, 16_000) < 8_000.0);
        assert!(band_centre_hz(63, 64, 48_000) > 15_000.0);
    }
}
