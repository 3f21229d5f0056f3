//! The biquad cascade kernels: a scalar reference and a pipelined ("wavefront") kernel.
//!
//! The pipelined kernel lays the (stage, channel) pairs out as vector lanes, lane = stage x C +
//! channel. At step t, stage k works on sample t - k, so every lane's input is the previous
//! step's output of the lane C below it: all lanes of a step are independent and the compiler
//! vectorises them (8 wide with AVX2). The first and last S - 1 steps of a block only run the
//! lanes that have a sample, so no state is left in flight between calls. The portable version
//! is identical, operation for operation, to the scalar reference; the AVX2 version keeps the
//! lanes in registers and uses fused multiply-adds (equal within rounding).

use super::design::{Coefs, BANDS};
use crate::buffer::MAX_CHANNELS;
use crate::simd::Isa;

/// Lanes for 18 stages x 8 channels, plus one channel group of spill-over for the shifted
/// stores and padding to a multiple of 8.
pub(crate) const LANES: usize = BANDS * MAX_CHANNELS + MAX_CHANNELS;

/// One peaking-biquad step in transposed direct form II, rewritten with the identities of a
/// peaking filter, `b1 = a1` and `b2 - a2 = 1 - b0 = d2`: with `e = x - y = d2 x - s1`,
/// `s1' = a1 e + s2` and `s2' = a2 e + d2 x`, evaluated as `s1' = (a1 d2) x + s2 - a1 s1` and
/// `s2' = ((1 + a2) d2) x - a2 s1` (coefficients precomputed in f64). Five operations and the
/// dependency chains of the textbook form, but every term is small, so there is no nearly
/// cancelling pair of large products: ~20 dB less round-off at low centres. Both kernels use
/// exactly this expression.
#[inline(always)]
fn tdf2(c: &Coefs, s1: &mut f32, s2: &mut f32, x: f32) -> f32 {
    let y = c.b0 * x + *s1;
    let old = *s1;
    *s1 = (c.a1d2 * x + *s2) - c.a1 * old;
    *s2 = c.c2 * x - c.a2 * old;
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
    a1d2: Vec<f32>,
    c2: Vec<f32>,
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
            a1d2: z(),
            c2: z(),
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
    // The register kernel holds at most 8 lane vectors (64 lanes): run wide layouts as groups
    // of channels (e.g. 6 channels x 18 bands as two groups of 3).
    let group = (MAIN_LANES / stages.len()).max(1);
    if isa == Isa::Avx2 && channels > group {
        for first in (0..channels).step_by(group) {
            let n = group.min(channels - first);
            run_group(
                isa,
                lanes,
                stages,
                state,
                first,
                &mut data[first * cap..],
                cap,
                n,
                frames,
            );
        }
        return;
    }
    run_group(isa, lanes, stages, state, 0, data, cap, channels, frames);
}

/// Lanes the AVX2 register kernel handles (8 vectors of 8).
const MAIN_LANES: usize = 64;

/// [`run_pipelined`] for channels `first..first + channels` (`data` starts at channel `first`).
#[allow(clippy::too_many_arguments)]
fn run_group(
    isa: Isa,
    lanes: &mut Lanes,
    stages: &[Coefs],
    state: &mut [[(f32, f32); MAX_CHANNELS]],
    first: usize,
    data: &mut [f32],
    cap: usize,
    channels: usize,
    frames: usize,
) {
    let c = channels;
    let s = stages.len();
    debug_assert!(s <= BANDS && first + c <= MAX_CHANNELS);
    let l = s * c;
    let padded = l.div_ceil(8) * 8;
    for k in 0..s {
        for ch in 0..c {
            let i = k * c + ch;
            lanes.b0[i] = stages[k].b0;
            lanes.a1d2[i] = stages[k].a1d2;
            lanes.c2[i] = stages[k].c2;
            lanes.a1[i] = stages[k].a1;
            lanes.a2[i] = stages[k].a2;
            (lanes.s1[i], lanes.s2[i]) = state[k][first + ch];
        }
    }
    for i in l..padded {
        lanes.b0[i] = 0.0;
        lanes.a1d2[i] = 0.0;
        lanes.c2[i] = 0.0;
        lanes.a1[i] = 0.0;
        lanes.a2[i] = 0.0;
        lanes.s1[i] = 0.0;
        lanes.s2[i] = 0.0;
    }
    // Step t: stage k works on sample t - k. All lanes are busy for t in s-1..frames; the
    // s-1 steps before and after only run the stages that have a sample.
    let steps = frames + s - 1;
    let full = if frames >= s - 1 {
        s - 1..frames
    } else {
        steps..steps
    };
    for ch in 0..c {
        lanes.pa[ch] = data[ch * cap];
    }
    generic_steps(lanes, data, cap, c, s, frames, padded, 0..full.start);
    match isa {
        #[cfg(target_arch = "x86_64")]
        // SAFETY: Isa::Avx2 is only chosen after the CPU reported AVX2 and FMA.
        Isa::Avx2 if padded <= MAIN_LANES => unsafe {
            main_avx2(lanes, data, cap, c, s, frames, padded / 8, full.clone())
        },
        // Beyond 8 lane vectors the register version spills; the portable loop does better.
        #[cfg(target_arch = "x86_64")]
        // SAFETY: as above.
        Isa::Avx2 => unsafe {
            generic_steps_avx2(lanes, data, cap, c, s, frames, padded, full.clone())
        },
        _ => generic_steps(lanes, data, cap, c, s, frames, padded, full.clone()),
    }
    generic_steps(lanes, data, cap, c, s, frames, padded, full.end..steps);
    for k in 0..s {
        for ch in 0..c {
            let i = k * c + ch;
            state[k][first + ch] = (lanes.s1[i], lanes.s2[i]);
        }
    }
}

/// Runs steps `range` with portable code. `lanes.pa` holds the inputs of the first step on
/// entry and of the step after the range on exit.
#[allow(clippy::too_many_arguments)]
#[inline(always)]
fn generic_steps(
    lanes: &mut Lanes,
    data: &mut [f32],
    cap: usize,
    c: usize,
    s: usize,
    frames: usize,
    padded: usize,
    range: std::ops::Range<usize>,
) {
    let l = s * c;
    let Lanes {
        b0,
        a1d2,
        c2,
        a1,
        a2,
        s1,
        s2,
        pa,
        pb,
    } = lanes;
    let (mut pa, mut pb) = (&mut pa[..], &mut pb[..]);
    let odd = range.len() % 2 == 1;
    for t in range {
        let first = t.saturating_sub(frames - 1);
        let last = t.min(s - 1);
        let (lo, hi) = if first == 0 && last == s - 1 {
            (0, padded)
        } else {
            (first * c, (last + 1) * c)
        };
        step(
            &b0[lo..hi],
            &a1d2[lo..hi],
            &c2[lo..hi],
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
    if odd {
        // `pa` now names the struct's second buffer: move the pending inputs home.
        pb[..padded + c].copy_from_slice(&pa[..padded + c]);
    }
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
#[allow(clippy::too_many_arguments)]
unsafe fn generic_steps_avx2(
    lanes: &mut Lanes,
    data: &mut [f32],
    cap: usize,
    c: usize,
    s: usize,
    frames: usize,
    padded: usize,
    range: std::ops::Range<usize>,
) {
    generic_steps(lanes, data, cap, c, s, frames, padded, range)
}

/// The all-lanes-busy steps with AVX2/FMA, every lane vector in a register: per step five
/// FMA-class operations per vector, then a lane rotation by C with a blend to feed each stage
/// the previous step's output of the stage below.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2,fma")]
#[allow(clippy::too_many_arguments)]
unsafe fn main_avx2(
    lanes: &mut Lanes,
    data: &mut [f32],
    cap: usize,
    c: usize,
    s: usize,
    frames: usize,
    vectors: usize,
    range: std::ops::Range<usize>,
) {
    macro_rules! dispatch {
        ($($v:literal)*) => {
            match vectors {
                // SAFETY: same CPU features as this function.
                $($v => unsafe { main_avx2_v::<$v>(lanes, data, cap, c, s, frames, range) },)*
                _ => unreachable!("called with at most 8 lane vectors"),
            }
        };
    }
    dispatch!(1 2 3 4 5 6 7 8)
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2,fma")]
unsafe fn main_avx2_v<const V: usize>(
    lanes: &mut Lanes,
    data: &mut [f32],
    cap: usize,
    c: usize,
    s: usize,
    frames: usize,
    range: std::ops::Range<usize>,
) {
    use std::arch::x86_64::*;
    if range.is_empty() {
        return;
    }
    let load = |v: &[f32]| -> [__m256; V] {
        // SAFETY: lane arrays hold LANES + 8 >= V * 8 floats.
        std::array::from_fn(|i| unsafe { _mm256_loadu_ps(v.as_ptr().add(i * 8)) })
    };
    let (b0, a1d2, c2, a1, a2) = (
        load(&lanes.b0),
        load(&lanes.a1d2),
        load(&lanes.c2),
        load(&lanes.a1),
        load(&lanes.a2),
    );
    let (mut s1, mut s2, mut x) = (load(&lanes.s1), load(&lanes.s2), load(&lanes.pa));
    let rot: [i32; 8] = std::array::from_fn(|k| ((k + 8 - c) % 8) as i32);
    let low: [i32; 8] = std::array::from_fn(|k| if k < c { -1 } else { 0 });
    // SAFETY: arrays of 8 i32 are valid for 256-bit unaligned loads.
    let (rot, low) = unsafe {
        (
            _mm256_loadu_si256(rot.as_ptr().cast()),
            _mm256_castsi256_ps(_mm256_loadu_si256(low.as_ptr().cast())),
        )
    };
    let out_lane = (s - 1) * c;
    let (ov, off) = (out_lane / 8, out_lane % 8);
    let mut tmp = [0.0f32; 16];
    let mut inp = [0.0f32; 8];
    for t in range {
        let mut y = [_mm256_setzero_ps(); V];
        for v in 0..V {
            y[v] = _mm256_fmadd_ps(b0[v], x[v], s1[v]);
            let old = s1[v];
            s1[v] = _mm256_fnmadd_ps(a1[v], old, _mm256_fmadd_ps(a1d2[v], x[v], s2[v]));
            s2[v] = _mm256_fnmadd_ps(a2[v], old, _mm256_mul_ps(c2[v], x[v]));
        }
        // SAFETY: tmp has room for two vectors.
        unsafe {
            _mm256_storeu_ps(tmp.as_mut_ptr(), y[ov]);
            if ov + 1 < V {
                _mm256_storeu_ps(tmp.as_mut_ptr().add(8), y[ov + 1]);
            }
        }
        let n = t + 1 - s;
        for ch in 0..c {
            data[ch * cap + n] = tmp[off + ch];
        }
        for ch in 0..c {
            inp[ch] = if t + 1 < frames {
                data[ch * cap + t + 1]
            } else {
                0.0
            };
        }
        // SAFETY: inp holds 8 floats.
        let fresh = unsafe { _mm256_loadu_ps(inp.as_ptr()) };
        let mut below = fresh;
        for v in 0..V {
            let r = _mm256_permutevar8x32_ps(y[v], rot);
            x[v] = _mm256_blendv_ps(r, below, low);
            below = r;
        }
    }
    let store = |dst: &mut [f32], src: &[__m256; V]| {
        for (i, v) in src.iter().enumerate() {
            // SAFETY: lane arrays hold LANES + 8 >= V * 8 floats.
            unsafe { _mm256_storeu_ps(dst.as_mut_ptr().add(i * 8), *v) };
        }
    };
    store(&mut lanes.s1, &s1);
    store(&mut lanes.s2, &s2);
    store(&mut lanes.pa, &x);
}

#[inline(always)]
#[allow(clippy::too_many_arguments)]
fn step(
    b0: &[f32],
    a1d2: &[f32],
    c2: &[f32],
    a1: &[f32],
    a2: &[f32],
    s1: &mut [f32],
    s2: &mut [f32],
    x: &[f32],
    y: &mut [f32],
) {
    let n = x.len();
    let (b0, a1d2, c2, a1, a2) = (&b0[..n], &a1d2[..n], &c2[..n], &a1[..n], &a2[..n]);
    let (s1, s2, y) = (&mut s1[..n], &mut s2[..n], &mut y[..n]);
    for i in 0..n {
        let c = Coefs {
            b0: b0[i],
            a1: a1[i],
            a2: a2[i],
            a1d2: a1d2[i],
            c2: c2[i],
            ..Coefs::default()
        };
        y[i] = tdf2(&c, &mut s1[i], &mut s2[i], x[i]);
    }
}
