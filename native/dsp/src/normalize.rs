//! Loudness normalisation: an RMS automatic gain control with a safety limiter.
//!
//! The detector is the mean square of all channels through a one-pole smoother with time
//! constant [`DETECTOR_MS`]. Every [`UPDATE_FRAMES`] frames the desired gain is
//! `TARGET_DBFS - level`, clamped to [`MIN_GAIN_DB`, `MAX_GAIN_DB`]; below [`GATE_DBFS`] the
//! gain holds (silence and noise floors are not pumped up). The applied gain follows the
//! desired gain in dB with time constant [`ATTACK_MS`] when it must fall and [`RELEASE_MS`] when
//! it may rise, interpolated per sample. A [`SoftLimiter`] after it keeps boosted peaks below
//! full scale.

use crate::buffer::AudioBuffer;
use crate::limiter::SoftLimiter;

pub const TARGET_DBFS: f64 = -18.0;
pub const DETECTOR_MS: f64 = 400.0;
pub const ATTACK_MS: f64 = 150.0;
pub const RELEASE_MS: f64 = 2500.0;
pub const MAX_GAIN_DB: f64 = 12.0;
pub const MIN_GAIN_DB: f64 = -12.0;
pub const GATE_DBFS: f64 = -50.0;
pub const UPDATE_FRAMES: usize = 32;

#[derive(Clone, Debug)]
pub struct Normalizer {
    detector_coef: f32,
    attack: f64,
    release: f64,
    mean_square: f32,
    gain_db: f64,
    gain: f32,
    phase: usize,
    limiter: SoftLimiter,
}

impl Normalizer {
    pub fn new(rate: u32) -> Self {
        let per_update =
            |ms: f64| 1.0 - (-(UPDATE_FRAMES as f64) / (ms / 1000.0 * rate as f64)).exp();
        Normalizer {
            detector_coef: (1.0 - (-1.0 / (DETECTOR_MS / 1000.0 * rate as f64)).exp()) as f32,
            attack: per_update(ATTACK_MS),
            release: per_update(RELEASE_MS),
            mean_square: 0.0,
            gain_db: 0.0,
            gain: 1.0,
            phase: 0,
            limiter: SoftLimiter::new(rate),
        }
    }

    /// The gain applied now, in dB.
    pub fn gain_db(&self) -> f64 {
        self.gain_db
    }

    pub fn reset(&mut self) {
        self.mean_square = 0.0;
        self.gain_db = 0.0;
        self.gain = 1.0;
        self.phase = 0;
    }

    pub fn process(&mut self, buf: &mut AudioBuffer) {
        let channels = buf.channels();
        let frames = buf.frames();
        let cap = buf.capacity();
        let inv_ch = 1.0 / channels as f32;
        let data = buf.raw_mut();
        let mut n = 0;
        while n < frames {
            let len = (UPDATE_FRAMES - self.phase).min(frames - n);
            let start_gain = self.gain;
            let target_gain = 10f64.powf(self.next_gain_db() / 20.0) as f32;
            let step = (target_gain - start_gain) / (UPDATE_FRAMES - self.phase) as f32;
            for k in 0..len {
                let mut sq = 0.0f32;
                for c in 0..channels {
                    let x = data[c * cap + n + k];
                    sq += x * x;
                }
                let ms = self.mean_square + self.detector_coef * (sq * inv_ch - self.mean_square);
                self.mean_square = if ms.is_finite() { ms } else { 0.0 };
                let g = start_gain + step * (k + 1) as f32;
                for c in 0..channels {
                    data[c * cap + n + k] *= g;
                }
            }
            self.gain = start_gain + step * len as f32;
            self.phase = (self.phase + len) % UPDATE_FRAMES;
            n += len;
        }
        self.limiter.process(buf);
    }

    /// Moves the smoothed gain one update towards the desired gain and returns it.
    fn next_gain_db(&mut self) -> f64 {
        if self.phase != 0 {
            return self.gain_db;
        }
        let level = 10.0 * (self.mean_square.max(1e-20) as f64).log10();
        if level > GATE_DBFS {
            let desired = (TARGET_DBFS - level).clamp(MIN_GAIN_DB, MAX_GAIN_DB);
            let coef = if desired < self.gain_db {
                self.attack
            } else {
                self.release
            };
            self.gain_db += coef * (desired - self.gain_db);
        }
        self.gain_db
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testutil::{buffer_of, db, rms, sine};

    fn run(n: &mut Normalizer, amp: f64, seconds: f64) -> Vec<f32> {
        let sig = sine(440.0, 48_000.0, amp, (48_000.0 * seconds) as usize);
        let mut out = Vec::new();
        for chunk in sig.chunks(500) {
            let mut b = buffer_of(chunk, 2);
            n.process(&mut b);
            out.extend_from_slice(b.channel(0));
        }
        out
    }

    #[test]
    fn quiet_and_loud_material_converge_to_the_target() {
        for amp in [0.05, 0.3] {
            let mut n = Normalizer::new(48_000);
            let out = run(&mut n, amp, 20.0);
            let level = db(rms(&out[out.len() - 48_000..]));
            assert!(
                (level - TARGET_DBFS).abs() < 1.0,
                "amp {amp}: settled at {level:.2} dBFS"
            );
        }
        // Very quiet input is boosted at most MAX_GAIN_DB; silence holds the gain.
        let mut n = Normalizer::new(48_000);
        run(&mut n, 0.01, 20.0);
        assert!(n.gain_db() <= MAX_GAIN_DB + 1e-9);
        run(&mut n, 0.0, 3.0);
        let held = n.gain_db();
        run(&mut n, 0.0, 2.0);
        assert_eq!(n.gain_db(), held);
    }

    #[test]
    fn attack_is_faster_than_release_and_peaks_stay_below_full_scale() {
        let mut n = Normalizer::new(48_000);
        run(&mut n, 0.05, 20.0);
        let out = run(&mut n, 1.0, 0.5);
        assert!(out.iter().all(|v| v.abs() < 1.0));
        let after_attack = n.gain_db();
        assert!(after_attack < 0.0, "gain fell within 0.5 s: {after_attack}");
        run(&mut n, 1.0, 10.0);
        let low = n.gain_db();
        run(&mut n, 0.05, 0.5);
        assert!(n.gain_db() - low < 6.0, "release is slow");
    }
}
