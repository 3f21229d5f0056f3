//! Sums N planar inputs with per-input gains, then a soft limiter.
//!
//! The sum runs in f32, which has ample headroom (no wrap, no clipping inside), and the
//! [`SoftLimiter`] maps the result below full scale, so any number of loud inputs saturates
//! smoothly instead of wrapping when it is encoded.

use crate::buffer::check_channels;
use crate::buffer::AudioBuffer;
use crate::error::{invalid, DspError};
use crate::limiter::SoftLimiter;

#[derive(Clone, Debug)]
pub struct Mixer {
    acc: AudioBuffer,
    limiter: SoftLimiter,
    inputs: usize,
}

impl Mixer {
    /// A mixer for `channels` channels at `rate` (for the limiter's release), summing up to
    /// `max_frames` frames per call.
    pub fn new(channels: usize, rate: u32, max_frames: usize) -> Result<Self, DspError> {
        check_channels(channels)?;
        Ok(Mixer {
            acc: AudioBuffer::new(channels, max_frames),
            limiter: SoftLimiter::new(rate),
            inputs: 0,
        })
    }

    pub fn channels(&self) -> usize {
        self.acc.channels()
    }

    pub fn max_frames(&self) -> usize {
        self.acc.capacity()
    }

    /// Starts a mix of `frames` frames (silence until inputs are added).
    pub fn begin(&mut self, frames: usize) -> Result<(), DspError> {
        if frames > self.acc.capacity() {
            return Err(DspError::OutputTooSmall {
                needed: frames,
                available: self.acc.capacity(),
            });
        }
        self.acc.set_frames(frames);
        self.acc.clear();
        self.inputs = 0;
        Ok(())
    }

    /// Adds `input * gain`; an input shorter than the mix counts as silence after its end, a
    /// longer one is cut.
    pub fn add(&mut self, input: &AudioBuffer, gain: f32) -> Result<(), DspError> {
        if input.channels() != self.acc.channels() {
            return Err(DspError::ChannelMismatch {
                expected: self.acc.channels(),
                actual: input.channels(),
            });
        }
        if !gain.is_finite() {
            return Err(invalid(format!("mixer gain must be finite, got {gain}")));
        }
        let n = input.frames().min(self.acc.frames());
        for c in 0..self.acc.channels() {
            let dst = &mut self.acc.channel_mut(c)[..n];
            let src = &input.channel(c)[..n];
            if gain == 1.0 {
                dst.iter_mut().zip(src).for_each(|(d, s)| *d += s);
            } else {
                dst.iter_mut().zip(src).for_each(|(d, s)| *d += gain * s);
            }
        }
        self.inputs += 1;
        Ok(())
    }

    /// Limits the sum and copies it to `out`; returns the frame count.
    pub fn finish_into(&mut self, out: &mut AudioBuffer) -> Result<usize, DspError> {
        self.limiter.process(&mut self.acc);
        out.copy_from(&self.acc)?;
        Ok(self.acc.frames())
    }

    /// One call: mixes `inputs` at unity gain over the longest input's length.
    pub fn mix_into(
        &mut self,
        inputs: &[&AudioBuffer],
        out: &mut AudioBuffer,
    ) -> Result<usize, DspError> {
        let frames = inputs.iter().map(|b| b.frames()).max().unwrap_or(0);
        self.begin(frames)?;
        for input in inputs {
            self.add(input, 1.0)?;
        }
        self.finish_into(out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sums_with_gains_and_limits_overload() {
        let mut m = Mixer::new(1, 48_000, 16).unwrap();
        let a = AudioBuffer::from_planes(&[&[0.1, 0.2, 0.3]]).unwrap();
        let b = AudioBuffer::from_planes(&[&[0.1, 0.1]]).unwrap();
        let mut out = AudioBuffer::new(1, 16);
        m.begin(3).unwrap();
        m.add(&a, 1.0).unwrap();
        m.add(&b, 2.0).unwrap();
        assert_eq!(m.finish_into(&mut out).unwrap(), 3);
        let expect = [0.3f32, 0.4, 0.3];
        for (x, y) in out.channel(0).iter().zip(expect) {
            assert!((x - y).abs() < 1e-6);
        }
        let loud = AudioBuffer::from_planes(&[&[0.9; 16]]).unwrap();
        let n = m.mix_into(&[&loud, &loud, &loud, &loud], &mut out).unwrap();
        assert_eq!(n, 16);
        assert!(out.channel(0).iter().all(|v| *v > 0.89 && *v < 1.0));
        let stereo = AudioBuffer::new(2, 4);
        assert!(m.add(&stereo, 1.0).is_err());
        assert!(m.begin(17).is_err());
    }
}
