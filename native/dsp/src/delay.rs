//! A per-path delay line, 0-5000 ms at any rate, with crossfaded changes.

use crate::buffer::check_channels;
use crate::buffer::AudioBuffer;
use crate::error::{invalid, DspError};

pub const MAX_DELAY_MS: f64 = 5000.0;
/// A delay change crossfades from the old to the new tap over this long.
pub const DELAY_CROSSFADE_MS: f64 = 10.0;

/// A multichannel delay line. Memory grows with the largest delay set (allocated by
/// [`DelayLine::set_delay_ms`], never by [`DelayLine::process`]).
#[derive(Clone, Debug)]
pub struct DelayLine {
    rate: u32,
    channels: usize,
    ring: Vec<f32>,
    mask: usize,
    write: usize,
    delay: usize,
    old_delay: usize,
    fade_len: usize,
    fade_left: usize,
    delay_ms: f64,
}

impl DelayLine {
    pub fn new(rate: u32, channels: usize, delay_ms: f64) -> Result<Self, DspError> {
        check_channels(channels)?;
        let mut d = DelayLine {
            rate,
            channels,
            ring: Vec::new(),
            mask: 0,
            write: 0,
            delay: 0,
            old_delay: 0,
            fade_len: ((DELAY_CROSSFADE_MS / 1000.0 * rate as f64) as usize).max(1),
            fade_left: 0,
            delay_ms: 0.0,
        };
        if delay_ms != 0.0 {
            d.set_delay_ms(delay_ms)?;
        }
        d.fade_left = 0;
        d.old_delay = d.delay;
        Ok(d)
    }

    pub fn delay_ms(&self) -> f64 {
        self.delay_ms
    }

    /// The delay in frames (rounded from milliseconds).
    pub fn delay_frames(&self) -> usize {
        self.delay
    }

    /// True when the line passes samples straight through (0 ms, no crossfade running).
    pub fn is_bypass(&self) -> bool {
        self.delay == 0 && self.fade_left == 0
    }

    /// Sets the delay (0-5000 ms). Crossfades from the old delay; may allocate if the ring must
    /// grow, so call it from the control path, not the audio callback.
    pub fn set_delay_ms(&mut self, ms: f64) -> Result<(), DspError> {
        if !ms.is_finite() || !(0.0..=MAX_DELAY_MS).contains(&ms) {
            return Err(invalid(format!(
                "delay must be 0-{MAX_DELAY_MS} ms, got {ms}"
            )));
        }
        let frames = (ms / 1000.0 * self.rate as f64).round() as usize;
        if frames == self.delay {
            self.delay_ms = ms;
            return Ok(());
        }
        // At least half a second of history, so typical changes crossfade to real audio.
        let needed = (frames.max(self.delay).max(self.rate as usize / 2) + 1).next_power_of_two();
        if self.is_bypass() {
            // Bypassed: the ring holds no current history; start it silent.
            let size = needed.max(self.mask + 1);
            if self.ring.len() != size * self.channels {
                self.ring = vec![0.0; size * self.channels];
            } else {
                self.ring.fill(0.0);
            }
            self.mask = size - 1;
            self.write = 0;
        } else if needed > self.mask + 1 {
            self.grow(needed);
        }
        self.old_delay = self.delay;
        self.delay = frames;
        self.fade_left = self.fade_len;
        self.delay_ms = ms;
        Ok(())
    }

    /// Moves the history into a larger ring, oldest sample first, so the old tap keeps playing.
    fn grow(&mut self, size: usize) {
        let old_size = self.mask + 1;
        let mut ring = vec![0.0; size * self.channels];
        for c in 0..self.channels {
            let old = &self.ring[c * old_size..(c + 1) * old_size];
            let new = &mut ring[c * size..c * size + old_size];
            new[..old_size - self.write].copy_from_slice(&old[self.write..]);
            new[old_size - self.write..].copy_from_slice(&old[..self.write]);
        }
        self.ring = ring;
        self.mask = size - 1;
        self.write = old_size;
    }

    /// Delays `buf` in place.
    pub fn process(&mut self, buf: &mut AudioBuffer) -> Result<(), DspError> {
        if buf.channels() != self.channels {
            return Err(DspError::ChannelMismatch {
                expected: self.channels,
                actual: buf.channels(),
            });
        }
        if self.is_bypass() {
            return Ok(());
        }
        let size = self.mask + 1;
        let frames = buf.frames();
        let fade = self.fade_left.min(frames);
        for c in 0..self.channels {
            let ring = &mut self.ring[c * size..(c + 1) * size];
            let mut w = self.write;
            for (n, x) in buf.channel_mut(c).iter_mut().enumerate() {
                ring[w] = *x;
                let new = ring[(w.wrapping_sub(self.delay)) & self.mask];
                *x = if n < fade {
                    let old = ring[(w.wrapping_sub(self.old_delay)) & self.mask];
                    let a = (self.fade_len - self.fade_left + n + 1) as f32 / self.fade_len as f32;
                    old + a * (new - old)
                } else {
                    new
                };
                w = (w + 1) & self.mask;
            }
        }
        self.write = (self.write + frames) & self.mask;
        self.fade_left -= fade;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn delays_by_the_rounded_frame_count_at_any_rate() {
        for rate in [44_100u32, 48_000, 192_000] {
            let mut d = DelayLine::new(rate, 2, 2.5).unwrap();
            let expected = (2.5e-3 * rate as f64).round() as usize;
            assert_eq!(d.delay_frames(), expected);
            let mut imp = vec![0.0f32; expected + 10];
            imp[0] = 1.0;
            let mut buf = AudioBuffer::from_planes(&[&imp, &imp]).unwrap();
            d.process(&mut buf).unwrap();
            assert_eq!(
                buf.channel(1).iter().position(|v| *v == 1.0),
                Some(expected)
            );
        }
        let max = DelayLine::new(192_000, 8, 5000.0).unwrap();
        assert_eq!(max.delay_frames(), 960_000);
        assert!(DelayLine::new(48_000, 2, 5000.1).is_err());
        assert!(DelayLine::new(48_000, 2, f64::NAN).is_err());
    }

    #[test]
    fn changes_crossfade_instead_of_jumping() {
        let mut d = DelayLine::new(48_000, 1, 1.0).unwrap();
        let ramp: Vec<f32> = (0..4800).map(|n| n as f32 / 4800.0).collect();
        let mut first = AudioBuffer::from_planes(&[&ramp[..2400]]).unwrap();
        d.process(&mut first).unwrap();
        d.set_delay_ms(3.0).unwrap();
        let mut second = AudioBuffer::from_planes(&[&ramp[2400..]]).unwrap();
        d.process(&mut second).unwrap();
        // A jump of 96 frames on a ramp would be a step of 0.02; the crossfade keeps each
        // sample-to-sample change near the ramp's own slope.
        let out = second.channel(0);
        for n in 1..out.len() {
            assert!((out[n] - out[n - 1]).abs() < 0.0005, "step at {n}");
        }
        assert!((out[out.len() - 1] - ramp[4799 - 144]).abs() < 1e-6);
    }
}
