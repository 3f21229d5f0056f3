//! Skips and repeats as true crossfades: when the clock asks a reader to move (too much or
//! too little queued), the audio at the old position fades out while the audio at the new one
//! fades in over [`XFADE_S`], in the source domain before the rate converter, so the converter
//! runs on without a reset and nothing falls silent.
//!
//! The new position is not taken blindly: within [`SEARCH_S`] of where the clock asked to go,
//! the reader picks the offset whose audio best matches what it would have played (the
//! normalised cross-correlation of the two overlapping stretches, summed over channels), the
//! way time-scale modification aligns its overlaps (WSOLA). A periodic sound (a held note, a
//! test tone) then continues in phase across the jump, and its pitch is not disturbed. Aligned
//! stretches (correlation at least [`CORRELATED`]) are mixed with complementary raised-cosine
//! gains (their sum is 1, so a correlated signal keeps its amplitude); unrelated ones with
//! equal-power gains (the squares sum to 1, so uncorrelated signals keep their loudness).
//!
//! Everything here runs on the audio thread: buffers are allocated with the reader, and a
//! search costs `(2 * search + 1) * len * channels` multiply-adds (231,000 for 48 kHz stereo,
//! about a tenth of a millisecond), once per move.

/// Length of a skip or repeat crossfade.
pub const XFADE_S: f64 = 0.010;
/// Shortest crossfade worth making; with less audio at hand the reader fades out and in.
pub const MIN_XFADE_S: f64 = 0.0025;
/// How far from the asked-for position the alignment may go, either way (half a period of
/// 200 Hz: enough to align the fundamentals of voices and most instruments; two readers of one
/// source that move at once stay within this of each other, and the clock steers the rest).
pub const SEARCH_S: f64 = 0.0025;
/// Correlation from which the stretches count as aligned (mixed to keep amplitude).
pub const CORRELATED: f32 = 0.5;

/// A crossfade in progress: the reader's own position fades out while `to + done` fades in.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Crossfade {
    /// First frame of the new stretch.
    pub to: u64,
    /// Frames of the crossfade.
    pub len: usize,
    /// Frames already mixed.
    pub done: usize,
    /// Equal-power gains (unrelated stretches) instead of amplitude-complementary ones.
    pub equal_power: bool,
}

impl Crossfade {
    /// Gains (old, new) for frame `k` of the crossfade.
    pub fn gains(&self, k: usize) -> (f32, f32) {
        let t = (k as f32 + 0.5) / self.len as f32;
        if self.equal_power {
            let a = t * std::f32::consts::FRAC_PI_2;
            (a.cos(), a.sin())
        } else {
            let w = 0.5 - 0.5 * (t * std::f32::consts::PI).cos();
            (1.0 - w, w)
        }
    }
}

/// The best alignment of `old` (interleaved, `c` channels, `len` frames) against `region`
/// (interleaved, `len + last` frames: the candidate stretches start at offsets `0..=last`).
/// Returns (offset, normalised correlation); silence on either side correlates 0 and stays at
/// `preferred` (the asked-for position), and near-ties keep the offset nearest it.
pub fn align(
    old: &[f32],
    region: &[f32],
    c: usize,
    len: usize,
    last: usize,
    preferred: usize,
) -> (usize, f32) {
    let c = c.max(1);
    let old = &old[..len * c];
    let energy_old: f32 = old.iter().map(|v| v * v).sum();
    if energy_old <= 1e-12 {
        return (preferred, 0.0);
    }
    let mut best = (preferred, 0.0f32, usize::MAX);
    // Energy of the candidate stretch, slid one frame at a time.
    let mut energy_new: f32 = region[..len * c].iter().map(|v| v * v).sum();
    for offset in 0..=last {
        if offset > 0 {
            let leaving = &region[(offset - 1) * c..offset * c];
            let entering = &region[(offset + len - 1) * c..(offset + len) * c];
            energy_new += entering.iter().map(|v| v * v).sum::<f32>()
                - leaving.iter().map(|v| v * v).sum::<f32>();
        }
        let cand = &region[offset * c..(offset + len) * c];
        let dot: f32 = old.iter().zip(cand).map(|(a, b)| a * b).sum();
        let norm = (energy_old * energy_new.max(0.0)).sqrt();
        let corr = if norm > 1e-12 { dot / norm } else { 0.0 };
        let distance = offset.abs_diff(preferred);
        if corr > best.1 + 1e-4 || ((corr - best.1).abs() <= 1e-4 && distance < best.2) {
            best = (offset, corr, distance);
        }
    }
    (best.0, best.1)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sine(start: usize, frames: usize, period: f32) -> Vec<f32> {
        (start..start + frames)
            .flat_map(|n| {
                let v = (n as f32 * std::f32::consts::TAU / period).sin();
                [v, 0.5 * v]
            })
            .collect()
    }

    #[test]
    fn a_periodic_sound_is_aligned_in_phase() {
        // The reader is at frame 1,000 of a 48-frame period (1 kHz at 48 kHz) and asked to go
        // to 1,530: 1,530 - 120 + offset must be a whole number of periods ahead of 1,000.
        let (len, search) = (480, 120);
        let old = sine(1_000, len, 48.0);
        let region = sine(1_530 - search, len + 2 * search, 48.0);
        let (offset, corr) = align(&old, &region, 2, len, 2 * search, search);
        let to = 1_530 - search + offset;
        assert_eq!((to - 1_000) % 48, 0, "to {to}");
        assert!(corr > 0.999, "{corr}");
        // The nearest of the in-phase offsets to the asked-for position.
        assert!(to.abs_diff(1_530) <= 24, "to {to}");
    }

    #[test]
    fn unrelated_audio_is_not_called_aligned_and_silence_stays_put() {
        let (len, search) = (480, 120);
        let mut seed = 7u32;
        let mut noise = |n: usize| -> Vec<f32> {
            (0..n * 2)
                .map(|_| {
                    seed = seed.wrapping_mul(1_664_525).wrapping_add(1_013_904_223);
                    (seed >> 8) as f32 / (1u32 << 24) as f32 - 0.5
                })
                .collect()
        };
        let old = noise(len);
        let region = noise(len + 2 * search);
        let (_, corr) = align(&old, &region, 2, len, 2 * search, search);
        assert!(corr < CORRELATED, "{corr}");
        let silent = vec![0.0; len * 2];
        assert_eq!(
            align(&silent, &region, 2, len, 2 * search, search),
            (search, 0.0)
        );
    }

    #[test]
    fn gains_keep_amplitude_or_power_and_end_at_the_new_audio() {
        for equal_power in [false, true] {
            let x = Crossfade {
                to: 0,
                len: 480,
                done: 0,
                equal_power,
            };
            let mut last_new = 0.0;
            for k in 0..480 {
                let (a, b) = x.gains(k);
                let kept = if equal_power { a * a + b * b } else { a + b };
                assert!((kept - 1.0).abs() < 1e-5, "{equal_power} {k}: {a} {b}");
                assert!(b >= last_new, "the new audio only rises");
                last_new = b;
            }
            let (a, b) = x.gains(479);
            assert!(a < 0.01 && b > 0.99, "{a} {b}");
        }
    }
}
