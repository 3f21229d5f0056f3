//! The stereo a listening output hears of a sink of any layout: its ITU-R BS.775 down-mix
//! (the engine's own default, [`MixMatrix::default_for`] to stereo: L = FL + 0.7071 FC +
//! 0.7071 BL (or SL), R likewise, LFE dropped; a mono sink on both sides), scaled so that no
//! input can make it clip.
//!
//! Normalisation: both rows are divided by the larger sum of a row's absolute gains (as
//! ffmpeg's `swresample` does by default), so full scale on every channel at once is full
//! scale at most. A stereo or mono sink's gains sum to 1 and pass unchanged; a 5.1 sink's sum
//! to 2.414, so each of its channels reaches the listener 7.7 dB lower than its own level
//! (FL alone: 0.414, FC: 0.293 on each side); a 7.1 sink's to 3.121 (9.9 dB).

use tributary_dsp::{AudioBuffer, ChannelLayout, MixMatrix, MAX_CHANNELS};

/// Gains from a sink's channels to the left and right of its listening outputs.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct StereoFold {
    channels: usize,
    gains: [[f32; MAX_CHANNELS]; 2],
}

impl StereoFold {
    /// The normalised down-mix of `layout` (built off the audio thread, with the sink).
    pub fn for_layout(layout: ChannelLayout) -> Self {
        let m = MixMatrix::default_for(layout, ChannelLayout::STEREO);
        let channels = layout.channels();
        let mut gains = [[0.0; MAX_CHANNELS]; 2];
        for (side, row) in gains.iter_mut().enumerate() {
            for (i, g) in row.iter_mut().enumerate().take(channels) {
                *g = m.gain(side, i);
            }
        }
        let largest = gains
            .iter()
            .map(|row| row.iter().map(|g| g.abs()).sum::<f32>())
            .fold(0.0_f32, f32::max);
        if largest > 1.0 {
            for g in gains.iter_mut().flatten() {
                *g /= largest;
            }
        }
        Self { channels, gains }
    }

    /// The gain from channel `input` to `side` (0 left, 1 right).
    pub fn gain(&self, side: usize, input: usize) -> f32 {
        self.gains[side][input]
    }

    /// The left (`side` 0) or right (1) sample of `frame` of `buf`, clamped to +-1 (the
    /// sink's mix may exceed full scale before its own output converts it). Allocates nothing.
    #[inline]
    pub fn sample(&self, buf: &AudioBuffer, frame: usize, side: usize) -> f32 {
        let row = &self.gains[side];
        let mut v = 0.0;
        for (c, g) in row
            .iter()
            .enumerate()
            .take(self.channels.min(buf.channels()))
        {
            if *g != 0.0 {
                v += g * buf.channel(c)[frame];
            }
        }
        v.clamp(-1.0, 1.0)
    }
}

impl Default for StereoFold {
    fn default() -> Self {
        Self::for_layout(ChannelLayout::STEREO)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn buffer(channels: usize, values: &[f32]) -> AudioBuffer {
        let mut b = AudioBuffer::new(channels, 1);
        b.set_frames(1);
        for (c, v) in values.iter().enumerate() {
            b.channel_mut(c)[0] = *v;
        }
        b
    }

    #[test]
    fn stereo_and_mono_pass_unchanged() {
        let stereo = StereoFold::for_layout(ChannelLayout::STEREO);
        let b = buffer(2, &[0.25, -0.5]);
        assert_eq!(stereo.sample(&b, 0, 0), 0.25);
        assert_eq!(stereo.sample(&b, 0, 1), -0.5);
        let mono = StereoFold::for_layout(ChannelLayout::MONO);
        let b = buffer(1, &[0.75]);
        assert_eq!((mono.sample(&b, 0, 0), mono.sample(&b, 0, 1)), (0.75, 0.75));
    }

    #[test]
    fn five_one_follows_itu_coefficients_normalised_and_drops_lfe() {
        let f = StereoFold::for_layout(ChannelLayout::LAYOUT_5_1);
        let k = 1.0 / (1.0 + 2.0 * std::f32::consts::FRAC_1_SQRT_2);
        let c = std::f32::consts::FRAC_1_SQRT_2 * k;
        // FL FR FC LFE BL BR
        let left = [k, 0.0, c, 0.0, c, 0.0];
        let right = [0.0, k, c, 0.0, 0.0, c];
        for i in 0..6 {
            assert!((f.gain(0, i) - left[i]).abs() < 1e-6, "left from {i}");
            assert!((f.gain(1, i) - right[i]).abs() < 1e-6, "right from {i}");
        }
        // Only the LFE playing: nothing reaches the listener.
        let b = buffer(6, &[0.0, 0.0, 0.0, 1.0, 0.0, 0.0]);
        assert_eq!((f.sample(&b, 0, 0), f.sample(&b, 0, 1)), (0.0, 0.0));
        // The centre alone: equal on both sides.
        let b = buffer(6, &[0.0, 0.0, 0.5, 0.0, 0.0, 0.0]);
        assert!((f.sample(&b, 0, 0) - 0.5 * c).abs() < 1e-6);
        assert_eq!(f.sample(&b, 0, 0), f.sample(&b, 0, 1));
    }

    #[test]
    fn full_scale_on_every_channel_never_clips() {
        for layout in [
            ChannelLayout::LAYOUT_3_1,
            ChannelLayout::QUAD,
            ChannelLayout::SURROUND,
            ChannelLayout::LAYOUT_5_1,
            ChannelLayout::LAYOUT_5_1_SIDE,
            ChannelLayout::LAYOUT_7_1,
        ] {
            let f = StereoFold::for_layout(layout);
            let n = layout.channels();
            for sign in [1.0, -1.0] {
                let b = buffer(n, &vec![sign; n]);
                for side in 0..2 {
                    let unclamped: f32 = (0..n).map(|i| f.gain(side, i) * sign).sum();
                    assert!(unclamped.abs() <= 1.0 + 1e-6, "{layout:?} side {side}");
                    assert!(
                        unclamped.abs() >= 0.99,
                        "{layout:?} side {side} is full scale"
                    );
                    assert!((f.sample(&b, 0, side) - unclamped).abs() < 1e-6);
                }
            }
        }
    }
}
