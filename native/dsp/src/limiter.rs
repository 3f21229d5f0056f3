//! A soft-knee peak limiter: transparent below [`KNEE`], never reaches full scale.
//!
//! A linked peak envelope (instant attack, [`RELEASE_MS`] release) drives the gain
//! `curve(env) / env`, where `curve` is the identity below the knee and bends smoothly
//! (`K + (C - K) tanh((e - K) / (C - K))`, same value and slope at the knee) towards the
//! ceiling C = 0.999 above it. Since every sample is at most the envelope, every output stays below 1.0: sums
//! that overload saturate gracefully and never wrap.

use crate::buffer::AudioBuffer;

/// Level where limiting starts (-1 dBFS).
pub const KNEE: f32 = 0.891_250_9;
/// The level the curve approaches and never reaches (-0.01 dBFS).
pub const CEILING: f32 = 0.999;
/// Envelope release time constant.
pub const RELEASE_MS: f64 = 80.0;

#[derive(Clone, Debug)]
pub struct SoftLimiter {
    env: f32,
    release: f32,
}

impl SoftLimiter {
    pub fn new(rate: u32) -> Self {
        SoftLimiter {
            env: 0.0,
            release: (-1.0 / (RELEASE_MS / 1000.0 * rate as f64)).exp() as f32,
        }
    }

    /// The static curve: output level for an envelope level.
    #[inline]
    pub fn curve(e: f32) -> f32 {
        if e <= KNEE {
            e
        } else {
            KNEE + (CEILING - KNEE) * ((e - KNEE) / (CEILING - KNEE)).tanh()
        }
    }

    /// Limits `buf` in place (all channels share one gain, so the image does not shift).
    /// NaN samples become 0.
    pub fn process(&mut self, buf: &mut AudioBuffer) {
        let channels = buf.channels();
        let frames = buf.frames();
        let cap = buf.capacity();
        let data = buf.raw_mut();
        for n in 0..frames {
            let mut peak = 0.0f32;
            for c in 0..channels {
                let x = &mut data[c * cap + n];
                if x.is_nan() {
                    *x = 0.0;
                }
                peak = peak.max(x.abs());
            }
            self.env = peak.max(self.env * self.release);
            if self.env > KNEE {
                let g = if self.env.is_finite() {
                    Self::curve(self.env) / self.env
                } else {
                    0.0
                };
                for c in 0..channels {
                    let x = &mut data[c * cap + n];
                    *x = if x.is_finite() {
                        *x * g
                    } else {
                        x.signum() * Self::curve(f32::MAX)
                    };
                }
                if !self.env.is_finite() {
                    self.env = 1.0;
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn transparent_below_the_knee_and_bounded_above() {
        let mut l = SoftLimiter::new(48_000);
        let quiet: Vec<f32> = (0..100).map(|n| 0.8 * ((n as f32) * 0.3).sin()).collect();
        let mut buf = AudioBuffer::from_planes(&[&quiet]).unwrap();
        l.process(&mut buf);
        assert_eq!(buf.channel(0), &quiet[..]);
        let loud: Vec<f32> = (0..4800).map(|n| 8.0 * ((n as f32) * 0.05).sin()).collect();
        let mut buf = AudioBuffer::from_planes(&[&loud, &[f32::INFINITY; 4800]]).unwrap();
        l.process(&mut buf);
        assert!(buf.channel(0).iter().all(|v| v.abs() < 1.0));
        assert!(buf.channel(1).iter().all(|v| v.abs() <= 1.0));
        // Continuous curve with slope 1 at the knee.
        let d = (SoftLimiter::curve(KNEE + 1e-4) - SoftLimiter::curve(KNEE)) / 1e-4;
        assert!((d - 1.0).abs() < 1e-2);
        assert!(SoftLimiter::curve(1000.0) <= CEILING);
    }
}
