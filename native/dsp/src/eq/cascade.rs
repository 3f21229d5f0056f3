//! The biquad cascade kernels: a scalar reference and a pipelined ("wavefront") kernel.
//!
//! The pipelined kernel lays the (stage, channel) pairs out as vector lanes, lane = stage x C +
//! channel. At step t, stage k works on sample t - k, so every lane's input is the previous
//! step's output of the lane C below it: all lanes of a step are independent and the compiler
//! vectorises them (8 wide with AVX2). The first and last S - 1 steps of a block only run the
//! lanes that have a sample, so no state is left in flight between calls and the result is
//! identical, operation for operation, to the scalar reference.

use super::design::{Coefs, BANDS};
use crate::buffer::MAX_CHANNELS;
use crate::simd::Isa;

/// Lanes for 18 stages x 8 channels, plus one channel group of spill-over for the shifted
/// stores and padding to a multiple of 8.
pub(crate) const LANES: usize = BANDS * MAX_CHANNELS + MAX_CHANNELS;

/// One biquad step in transposed direct form II. Both kernels use exactly this expression.
#[inline(always)]
fn tdf2(c: &Coefs, s1: &mut f32, s2: &mut f32, x: f32) -> f32 {
    let y = c.b0 * x + *s1;
    *s1 = c.b1 * x - c.a1 * y + *s2;
    *s2 = c.b2 * x - c.a2 * y;
    y
}

/// Scalar reference: stage after stage over the whole block, channel by channel.
/// `stages[k]` are the coefficients, `state[k][c]` the (s1, s2) of stage k, channel c.
pub(crate) fn run_reference(
    stages: &[Coefs],
    state: &mut [[(f32, f32); MAX_CHANNELS]],
    data: &mut [f32],
    cap: usize,
    channels: usize,
    frames: usize,
) {
    for (k, c) in stages.iter().enumerate() {
        for ch in 0..channels {
            let (mut s1, mut s2) = state[k][ch];
            for x in &mut data[ch * cap..ch * cap + frames] {
                *x = tdf2(c, &mut s1, &mut s2, *x);
            }
            state[k][ch] = (s1, s2);
        }
    }
}

/// Lane-major scratch for the pipelined kernel (allocated once per equalizer).
#[derive(Clone, Debug)]
pub(crate) struct Lanes {
    b0: Vec<f32>,
    b1: Vec<f32>,
    b2: Vec<f32>,
    a1: Vec<f32>,
    a2: Vec<f32>,
    s1: Vec<f32>,
    s2: Vec<f32>,
    pa: Vec<f32>,
    pb: Vec<f32>,
}

impl Lanes {
    pub(crate) fn new() -> Self {
        let z = || vec![0.0f32; LANES + MAX_CHANNELS];
        Lanes {
            b0: z(),
            b1: z(),
            b2: z(),
            a1: z(),
            a2: z(),
            s1: z(),
            s2: z(),
            pa: z(),
            pb: z(),
        }
    }
}

/// The pipelined kernel; same contract as [`run_reference`].
#[allow(clippy::too_many_arguments)]
pub(crate) fn run_pipelined(
    isa: Isa,
    lanes: &mut Lanes,
    stages: &[Coefs],
    state: &mut [[(f32, f32); MAX_CHANNELS]],
    data: &mut [f32],
    cap: usize,
    channels: usize,
    frames: usize,
) {
    if stages.is_empty() || frames == 0 {
        return;
    }
    let c = channels;
    let s = stages.len();
    let l = s * c;
    let padded = l.div_ceil(8) * 8;
    for k in 0..s {
        for ch in 0..c {
            let i = k * c + ch;
            lanes.b0[i] = stages[k].b0;
            lanes.b1[i] = stages[k].b1;
            lanes.b2[i] = stages[k].b2;
            lanes.a1[i] = stages[k].a1;
            lanes.a2[i] = stages[k].a2;
            (lanes.s1[i], lanes.s2[i]) = state[k][ch];
        }
    }
    for i in l..padded {
        lanes.b0[i] = 0.0;
        lanes.b1[i] = 0.0;
        lanes.b2[i] = 0.0;
        lanes.a1[i] = 0.0;
        lanes.a2[i] = 0.0;
        lanes.s1[i] = 0.0;
        lanes.s2[i] = 0.0;
    }
    match isa {
        #[cfg(target_arch = "x86_64")]
        // SAFETY: Isa::Avx2 is only chosen after the CPU reported AVX2.
        Isa::Avx2 => unsafe { wavefront_avx2(lanes, data, cap, c, s, frames, padded) },
        _ => wavefront(lanes, data, cap, c, s, frames, padded),
    }
    for k in 0..s {
        for ch in 0..c {
            let i = k * c + ch;
            state[k][ch] = (lanes.s1[i], lanes.s2[i]);
        }
    }
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
unsafe fn wavefront_avx2(
    lanes: &mut Lanes,
    data: &mut [f32],
    cap: usize,
    c: usize,
    s: usize,
    frames: usize,
    padded: usize,
) {
    wavefront(lanes, data, cap, c, s, frames, padded)
}

#[inline(always)]
fn wavefront(
    lanes: &mut Lanes,
    data: &mut [f32],
    cap: usize,
    c: usize,
    s: usize,
    frames: usize,
    padded: usize,
) {
    let l = s * c;
    let Lanes {
        b0,
        b1,
        b2,
        a1,
        a2,
        s1,
        s2,
        pa,
        pb,
    } = lanes;
    let (mut pa, mut pb) = (&mut pa[..], &mut pb[..]);
    for ch in 0..c {
        pa[ch] = data[ch * cap];
    }
    let steps = frames + s - 1;
    for t in 0..steps {
        // Lanes with a sample at this step: stages max(0, t - frames + 1) ..= min(t, s - 1).
        let first = t.saturating_sub(frames - 1);
        let last = t.min(s - 1);
        let (lo, hi) = if first == 0 && last == s - 1 {
            (0, padded)
        } else {
            (first * c, (last + 1) * c)
        };
        step(
            &b0[lo..hi],
            &b1[lo..hi],
            &b2[lo..hi],
            &a1[lo..hi],
            &a2[lo..hi],
            &mut s1[lo..hi],
            &mut s2[lo..hi],
            &pa[lo..hi],
            &mut pb[lo + c..hi + c],
        );
        if t + 1 < frames {
            for ch in 0..c {
                pb[ch] = data[ch * cap + t + 1];
            }
        }
        if t + 1 >= s {
            let n = t + 1 - s;
            for ch in 0..c {
                data[ch * cap + n] = pb[l + ch];
            }
        }
        std::mem::swap(&mut pa, &mut pb);
    }
}

#[inline(always)]
#[allow(clippy::too_many_arguments)]
fn step(
    b0: &[f32],
    b1: &[f32],
    b2: &[f32],
    a1: &[f32],
    a2: &[f32],
    s1: &mut [f32],
    s2: &mut [f32],
    x: &[f32],
    y: &mut [f32],
) {
    let n = x.len();
    let (b0, b1, b2, a1, a2) = (&b0[..n], &b1[..n], &b2[..n], &a1[..n], &a2[..n]);
    let (s1, s2, y) = (&mut s1[..n], &mut s2[..n], &mut y[..n]);
    for i in 0..n {
        let c = Coefs {
            b0: b0[i],
            b1: b1[i],
            b2: b2[i],
            a1: a1[i],
            a2: a2[i],
        };
        y[i] = tdf2(&c, &mut s1[i], &mut s2[i], x[i]);
    }
}
