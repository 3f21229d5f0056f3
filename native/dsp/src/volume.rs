//! Volume with click-free ramps.

use crate::buffer::AudioBuffer;
use crate::error::{invalid, DspError};

/// A volume change takes this long, as a linear ramp per sample.
pub const VOLUME_RAMP_MS: f64 = 20.0;
/// The largest gain [`Volume`] accepts (+12 dB); paths use 0.0-1.0.
pub const MAX_VOLUME_GAIN: f32 = 4.0;

/// A smoothed gain stage.
#[derive(Clone, Debug)]
pub struct Volume {
    ramp_frames: usize,
    current: f32,
    target: f32,
    step: f32,
    remaining: usize,
}

impl Volume {
    pub fn new(rate: u32, gain: f32) -> Result<Self, DspError> {
        check(gain)?;
        Ok(Volume {
            ramp_frames: ((VOLUME_RAMP_MS / 1000.0 * rate as f64).round() as usize).max(1),
            current: gain,
            target: gain,
            step: 0.0,
            remaining: 0,
        })
    }

    /// Ramps to `gain` over [`VOLUME_RAMP_MS`].
    pub fn set(&mut self, gain: f32) -> Result<(), DspError> {
        check(gain)?;
        if gain != self.target {
            self.target = gain;
            self.remaining = self.ramp_frames;
            self.step = (gain - self.current) / self.ramp_frames as f32;
        }
        Ok(())
    }

    pub fn target(&self) -> f32 {
        self.target
    }

    pub fn current(&self) -> f32 {
        self.current
    }

    /// True when the stage is at 1.0 and not ramping (processing is then a no-op).
    pub fn is_unity(&self) -> bool {
        self.remaining == 0 && self.current == 1.0
    }

    /// Applies the gain in place.
    pub fn process(&mut self, buf: &mut AudioBuffer) {
        let frames = buf.frames();
        if self.is_unity() || frames == 0 {
            return;
        }
        let ramp = self.remaining.min(frames);
        if ramp > 0 {
            let (start, step) = (self.current, self.step);
            for c in 0..buf.channels() {
                for (n, x) in buf.channel_mut(c)[..ramp].iter_mut().enumerate() {
                    *x *= start + step * (n + 1) as f32;
                }
            }
            self.remaining -= ramp;
            self.current = if self.remaining == 0 {
                self.target
            } else {
                start + step * ramp as f32
            };
        }
        if ramp < frames {
            let g = self.current;
            for c in 0..buf.channels() {
                buf.channel_mut(c)[ramp..].iter_mut().for_each(|x| *x *= g);
            }
        }
    }
}

fn check(gain: f32) -> Result<(), DspError> {
    if !gain.is_finite() || !(0.0..=MAX_VOLUME_GAIN).contains(&gain) {
        return Err(invalid(format!(
            "volume must be 0.0-{MAX_VOLUME_GAIN}, got {gain}"
        )));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ramps_linearly_then_holds_and_unity_is_free() {
        let mut v = Volume::new(1000, 1.0).unwrap(); // 20-frame ramp at 1 kHz
        let mut nan = AudioBuffer::from_planes(&[&[f32::NAN]]).unwrap();
        v.process(&mut nan);
        assert!(nan.channel(0)[0].is_nan(), "unity does not touch samples");
        v.set(0.0).unwrap();
        let mut buf = AudioBuffer::from_planes(&[&[1.0; 30]]).unwrap();
        v.process(&mut buf);
        let out = buf.channel(0);
        for n in 1..30 {
            assert!((out[n] - out[n - 1]).abs() <= 0.05 + 1e-6, "step at {n}");
        }
        assert_eq!(out[19..], [0.0; 11]);
        assert!(v.set(1.5).is_ok());
        assert!(v.set(-0.1).is_err());
        assert!(v.set(f32::NAN).is_err());
    }
}
