//! Planar f32 audio buffers, allocated once and reused on the real-time path.

use crate::error::{invalid, DspError};

/// The most channels any Tributary stream carries (the 7.1 layout).
pub const MAX_CHANNELS: usize = 8;

/// Checks a channel count is 1-8.
pub(crate) fn check_channels(channels: usize) -> Result<(), DspError> {
    if channels == 0 || channels > MAX_CHANNELS {
        return Err(invalid(format!(
            "channels must be 1-{MAX_CHANNELS}, got {channels}"
        )));
    }
    Ok(())
}

/// Planar f32 samples: each channel is a contiguous run of `capacity` floats, of which the first
/// `frames` are valid. Allocates only in [`AudioBuffer::new`]; everything else reuses the memory.
#[derive(Clone, Debug, PartialEq)]
pub struct AudioBuffer {
    data: Vec<f32>,
    channels: usize,
    capacity: usize,
    frames: usize,
}

impl AudioBuffer {
    /// A silent buffer of `channels` x `capacity` frames with 0 valid frames.
    pub fn new(channels: usize, capacity: usize) -> Self {
        AudioBuffer {
            data: vec![0.0; channels * capacity],
            channels,
            capacity,
            frames: 0,
        }
    }

    /// Builds a buffer holding the given channels (all must have the same length).
    pub fn from_planes(planes: &[&[f32]]) -> Result<Self, DspError> {
        let frames = planes.first().map_or(0, |p| p.len());
        if planes.iter().any(|p| p.len() != frames) {
            return Err(DspError::InvalidConfig(
                "every channel of a buffer must have the same length".into(),
            ));
        }
        let mut buf = AudioBuffer::new(planes.len(), frames);
        for (c, p) in planes.iter().enumerate() {
            buf.channel_storage_mut(c).copy_from_slice(p);
        }
        buf.frames = frames;
        Ok(buf)
    }

    pub fn channels(&self) -> usize {
        self.channels
    }

    /// Frames each channel can hold.
    pub fn capacity(&self) -> usize {
        self.capacity
    }

    /// Valid frames.
    pub fn frames(&self) -> usize {
        self.frames
    }

    /// Marks the first `frames` frames valid (clamped to the capacity).
    pub fn set_frames(&mut self, frames: usize) {
        self.frames = frames.min(self.capacity);
    }

    /// The valid samples of channel `c`.
    pub fn channel(&self, c: usize) -> &[f32] {
        &self.data[c * self.capacity..c * self.capacity + self.frames]
    }

    /// The valid samples of channel `c`, writable.
    pub fn channel_mut(&mut self, c: usize) -> &mut [f32] {
        let start = c * self.capacity;
        &mut self.data[start..start + self.frames]
    }

    /// Loads interleaved `samples` (whole frames of this buffer's channels; a partial frame at
    /// the end is left out): planar copies of at most `capacity()` frames, which become the
    /// valid frames. Returns how many frames were loaded.
    pub fn load_interleaved(&mut self, samples: &[f32]) -> usize {
        let c = self.channels;
        self.set_frames(samples.len().checked_div(c).unwrap_or(0));
        for ch in 0..c {
            let start = ch * self.capacity;
            let plane = &mut self.data[start..start + self.frames];
            for (d, frame) in plane.iter_mut().zip(samples.chunks_exact(c)) {
                *d = frame[ch];
            }
        }
        self.frames
    }

    /// The whole storage of channel `c` (`capacity` samples), for writers that set the frame
    /// count afterwards.
    pub fn channel_storage_mut(&mut self, c: usize) -> &mut [f32] {
        let start = c * self.capacity;
        &mut self.data[start..start + self.capacity]
    }

    /// All storage, channel after channel, `capacity()` apart.
    pub(crate) fn raw(&self) -> &[f32] {
        &self.data
    }

    pub(crate) fn raw_mut(&mut self) -> &mut [f32] {
        &mut self.data
    }

    /// Sets every valid sample to zero.
    pub fn clear(&mut self) {
        for c in 0..self.channels {
            self.channel_mut(c).fill(0.0);
        }
    }

    /// Copies `other`'s valid frames into this buffer (same channel count, enough capacity).
    pub fn copy_from(&mut self, other: &AudioBuffer) -> Result<(), DspError> {
        if other.channels != self.channels {
            return Err(DspError::ChannelMismatch {
                expected: self.channels,
                actual: other.channels,
            });
        }
        if other.frames > self.capacity {
            return Err(DspError::OutputTooSmall {
                needed: other.frames,
                available: self.capacity,
            });
        }
        self.frames = other.frames;
        for c in 0..self.channels {
            self.channel_mut(c).copy_from_slice(other.channel(c));
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn planes_are_independent_and_frames_clamp_to_capacity() {
        let mut b = AudioBuffer::from_planes(&[&[1.0, 2.0], &[3.0, 4.0]]).unwrap();
        b.channel_mut(1)[0] = 9.0;
        assert_eq!(b.channel(0), &[1.0, 2.0]);
        assert_eq!(b.channel(1), &[9.0, 4.0]);
        b.set_frames(10);
        assert_eq!(b.frames(), 2);
        assert!(AudioBuffer::from_planes(&[&[1.0], &[1.0, 2.0]]).is_err());
    }

    #[test]
    fn interleaved_frames_load_into_planes_up_to_the_capacity() {
        let mut b = AudioBuffer::new(2, 2);
        // Three whole frames and half of one: two fit, the rest is left out.
        assert_eq!(b.load_interleaved(&[1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0]), 2);
        assert_eq!(
            (b.channel(0), b.channel(1)),
            (&[1.0, 3.0][..], &[2.0, 4.0][..])
        );
        assert_eq!(b.load_interleaved(&[8.0]), 0);
        assert_eq!(b.frames(), 0);
    }
}
