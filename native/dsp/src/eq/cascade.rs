//! The biquad cascade kernels: a scalar reference and a pipelined ("wavefront") kernel.
//!
//! The pipelined kernel lays the (stage, channel) pairs out as vector lanes, lane = stage x C +
//! channel. At step t, stage k works on sample t - k, so every lane's input is the previous
//! step's output of the lane C below it: all lanes of a step are independent and the compiler
//! vectorises them (8 wide with AVX2). The first and last S - 1 steps of a block only run the
//! lanes that have a sample, so no state is left in flight between calls. The portable version
//! is identical, operation for operation, to the scalar reference. The AVX2 version takes one or
//! two channels at a time, pads the last lane vector with identity stages so the output lanes
//! are at a fixed place, keeps the lanes in registers (all of them with AVX-512's 32 registers,
//! so no state goes through memory in the recurrence) and uses fused multiply-adds (equal
//! within rounding).

use super::design::{Coefs, BANDS};
use crate::buffer::MAX_CHANNELS;
use crate::simd::Isa;

/// Lanes for 18 stages x 8 channels, plus one channel group of spill-over for the shifted
/// stores and padding to a multiple of 8.
pub(crate) const LANES: usize = BANDS * MAX_CHANNELS + MAX_CHANNELS;

/// The samples a kernel runs over: `channels` planes of `frames` samples, `cap` apart.
pub(crate) struct Planes<'a> {
    pub data: &'a mut [f32],
    pub cap: usize,
    pub channels: usize,
    pub frames: usize,
}

/// The stages that run: coefficients, and the (s1, s2) of each stage and channel.
pub(crate) struct Stages<'a> {
    pub coefs: &'a [Coefs],
    pub state: &'a mut [[(f32, f32); MAX_CHANNELS]],
}

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
pub(crate) fn run_reference(stages: Stages, block: Planes) {
    let Planes {
        data,
        cap,
        channels,
        frames,
    } = block;
    for (k, c) in stages.coefs.iter().enumerate() {
        for ch in 0..channels {
            let (mut s1, mut s2) = stages.state[k][ch];
            for x in &mut data[ch * cap..ch * cap + frames] {
                *x = tdf2(c, &mut s1, &mut s2, *x);
            }
            stages.state[k][ch] = (s1, s2);
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
    /// Frame-interleaved staging of the AVX2 kernel's inputs and outputs (one vector load and
    /// one vector store per step instead of a scalar loop per channel).
    xin: Vec<f32>,
    yout: Vec<f32>,
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
            xin: vec![0.0; STAGE_STEPS * MAX_CHANNELS + 8],
            yout: vec![0.0; STAGE_STEPS * MAX_CHANNELS + 8],
        }
    }
}

/// The pipelined kernel; same contract as [`run_reference`].
pub(crate) fn run_pipelined(isa: Isa, lanes: &mut Lanes, stages: Stages, block: Planes) {
    if stages.coefs.is_empty() || block.frames == 0 {
        return;
    }
    if isa == Isa::Baseline || cfg!(not(target_arch = "x86_64")) {
        return run_portable(lanes, stages, block);
    }
    // The register kernel takes a pair of channels at a time (6 channels as three pairs, each
    // 18 bands x 2 channels in 5 vectors): its output lanes are then at a fixed place.
    #[cfg(target_arch = "x86_64")]
    for first in (0..block.channels).step_by(2) {
        let pair = Planes {
            data: &mut block.data[first * block.cap..],
            channels: 2.min(block.channels - first),
            ..block
        };
        let stages = Stages {
            coefs: stages.coefs,
            state: &mut *stages.state,
        };
        // SAFETY: Isa::Avx2 and Isa::Avx512 are only chosen after the CPU reported their
        // features (Isa::detect).
        unsafe { run_simd(isa == Isa::Avx512, lanes, stages, first, pair) }
    }
}

/// Copies coefficients and states into lane order, lane = stage x C + channel, for `s` stage
/// slots: the real stages, then identity stages (y = x, state 0) up to `s`, then zeros up to
/// the next multiple of 8 lanes; and the block's first frame as the first step's input.
/// Returns the padded lane count.
fn fill_lanes(lanes: &mut Lanes, stages: &Stages, first: usize, block: &Planes, s: usize) -> usize {
    let c = block.channels;
    for ch in 0..c {
        lanes.pa[ch] = block.data[ch * block.cap];
    }
    debug_assert!(stages.coefs.len() <= BANDS && s >= stages.coefs.len());
    debug_assert!(first + c <= MAX_CHANNELS);
    let padded = (s * c).div_ceil(8) * 8;
    let identity = Coefs {
        b0: 1.0,
        ..Coefs::default()
    };
    for i in 0..padded {
        let (k, ch) = (i / c, i % c);
        let (coefs, (s1, s2)) = match stages.coefs.get(k) {
            Some(coefs) => (coefs, stages.state[k][first + ch]),
            None if k < s => (&identity, (0.0, 0.0)),
            None => (&Coefs::default(), (0.0, 0.0)),
        };
        lanes.b0[i] = coefs.b0;
        lanes.a1d2[i] = coefs.a1d2;
        lanes.c2[i] = coefs.c2;
        lanes.a1[i] = coefs.a1;
        lanes.a2[i] = coefs.a2;
        (lanes.s1[i], lanes.s2[i]) = (s1, s2);
    }
    padded
}

/// Copies the states of the real stages back from lane order.
fn store_states(lanes: &Lanes, stages: Stages, first: usize, c: usize) {
    for k in 0..stages.coefs.len() {
        for ch in 0..c {
            let i = k * c + ch;
            stages.state[k][first + ch] = (lanes.s1[i], lanes.s2[i]);
        }
    }
}

/// The portable kernel, every channel at once; operation for operation the scalar reference.
fn run_portable(lanes: &mut Lanes, stages: Stages, block: Planes) {
    let s = stages.coefs.len();
    let padded = fill_lanes(lanes, &stages, 0, &block, s);
    let Planes {
        data,
        cap,
        channels: c,
        frames,
    } = block;
    // Step t: stage k works on sample t - k. All lanes are busy for t in s-1..frames; the
    // s-1 steps before and after only run the stages that have a sample.
    let steps = frames + s - 1;
    let full = if frames >= s - 1 {
        s - 1..frames
    } else {
        steps..steps
    };
    for range in [0..full.start, full.clone(), full.end..steps] {
        generic_steps(lanes, data, cap, c, s, frames, padded, range);
    }
    store_states(lanes, stages, 0, c);
}

/// The register kernel for channels `first..first + c` (1 or 2; `block` starts at channel
/// `first`). Identity stages fill the last lane vector, so the last stage's lanes are its top
/// lanes. `wide`: the AVX-512 instantiation (the CPU must have it).
#[cfg(target_arch = "x86_64")]
unsafe fn run_simd(wide: bool, lanes: &mut Lanes, stages: Stages, first: usize, block: Planes) {
    let c = block.channels;
    let padded = (stages.coefs.len() * c).div_ceil(8) * 8;
    let s = padded / c;
    fill_lanes(lanes, &stages, first, &block, s);
    let Planes {
        data, cap, frames, ..
    } = block;
    macro_rules! dispatch {
        ($(($v:literal, $c:literal))*) => {
            match (padded / 8, c) {
                // SAFETY: the caller checked the CPU features.
                $(($v, $c) => unsafe {
                    if wide {
                        main_avx512::<$v, $c>(lanes, data, cap, s, frames)
                    } else {
                        main_avx2::<$v, $c>(lanes, data, cap, s, frames)
                    }
                },)*
                _ => unreachable!("18 bands x 1-2 channels fill at most 5 lane vectors"),
            }
        };
    }
    dispatch!((1, 1)(2, 1)(3, 1)(1, 2)(2, 2)(3, 2)(4, 2)(5, 2));
    store_states(lanes, stages, first, c);
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
        ..
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

/// Steps the register kernel runs between refills of its staging buffers.
const STAGE_STEPS: usize = 128;

/// The register kernel: `C` channels (1 or 2) in `V` lane vectors, every lane busy
/// (identity stages pad the last vector), so the last stage's `C` lanes are the top lanes of
/// vector `V - 1`. Per step five FMA-class operations per vector, then a lane rotation by `C`
/// with a blend to feed each stage the previous step's output of the stage below. Inputs and
/// outputs pass through frame-interleaved staging buffers; the steps that fill and drain the
/// pipeline advance only the states of the stages that have a sample. Defined twice, for
/// AVX2/FMA and with AVX-512 enabled, where the same code has 32 vector registers and keeps
/// every state in one (a spill in the recurrence would add a store-to-load delay per step).
macro_rules! register_kernel {
    ($name:ident, $features:literal) => {
        #[cfg(target_arch = "x86_64")]
        #[target_feature(enable = $features)]
        unsafe fn $name<const V: usize, const C: usize>(
            lanes: &mut Lanes,
            data: &mut [f32],
            cap: usize,
            s: usize,
            frames: usize,
        ) {
            use std::arch::x86_64::*;
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
            let vector = |v: [i32; 8]| {
                // SAFETY: an array of 8 i32 is valid for a 256-bit unaligned load.
                unsafe { _mm256_loadu_si256(v.as_ptr().cast()) }
            };
            let c = C;
            debug_assert!(s * C == V * 8);
            // Each stage takes the previous step's output of the stage below (C lanes lower);
            // the first C lanes take the fresh input.
            let rot = vector(std::array::from_fn(|k| ((k + 8 - C) % 8) as i32));
            let low = _mm256_castsi256_ps(vector(std::array::from_fn(|k| -i32::from(k < C))));
            // The steps before and after the busy ones update only the lanes of the stages that
            // have a sample: stage k (lanes k*c..k*c+c) runs at step t when t - k is a frame.
            let index: [__m256i; V] =
                std::array::from_fn(|v| vector(std::array::from_fn(|k| (v * 8 + k) as i32)));
            let steps = frames + s - 1;
            let mut t0 = 0;
            while t0 < steps {
                let n = STAGE_STEPS.min(steps - t0);
                // Step t consumes frame t + 1 (zero past the end) and completes frame t + 1 - s.
                // SAFETY: same CPU features as this function.
                unsafe { stage_in(&mut lanes.xin, data, cap, c, frames, t0 + 1, n) };
                let (xin, yout) = (lanes.xin.as_ptr(), lanes.yout.as_mut_ptr());
                // One step; `busy` is the mask of lanes whose state advances (None: all).
                let mut step = |k: usize, busy: Option<[__m256; V]>| {
                    let mut y = [_mm256_setzero_ps(); V];
                    for v in 0..V {
                        y[v] = _mm256_fmadd_ps(b0[v], x[v], s1[v]);
                        let old = s1[v];
                        let new1 =
                            _mm256_fnmadd_ps(a1[v], old, _mm256_fmadd_ps(a1d2[v], x[v], s2[v]));
                        let new2 = _mm256_fnmadd_ps(a2[v], old, _mm256_mul_ps(c2[v], x[v]));
                        match busy {
                            Some(m) => {
                                s1[v] = _mm256_blendv_ps(old, new1, m[v]);
                                s2[v] = _mm256_blendv_ps(s2[v], new2, m[v]);
                            }
                            None => (s1[v], s2[v]) = (new1, new2),
                        }
                    }
                    // SAFETY: the staging buffers hold STAGE_STEPS * 8 + 8 floats, and k * C + 8
                    // is within that.
                    let fresh = unsafe {
                        let top = _mm256_extractf128_ps(y[V - 1], 1);
                        if C == 1 {
                            _mm_store_ss(yout.add(k), _mm_permute_ps(top, 0b11_11_11_11));
                        } else {
                            _mm_storeh_pd(yout.add(k * 2).cast(), _mm_castps_pd(top));
                        }
                        _mm256_loadu_ps(xin.add(k * C))
                    };
                    let mut below = fresh;
                    for v in 0..V {
                        let r = _mm256_permutevar8x32_ps(y[v], rot);
                        x[v] = _mm256_blendv_ps(r, below, low);
                        below = r;
                    }
                };
                let edge = |t: usize| -> [__m256; V] {
                    let lo = _mm256_set1_epi32(((t + 1).saturating_sub(frames) * c) as i32 - 1);
                    let hi = _mm256_set1_epi32(((t.min(s - 1) + 1) * c) as i32);
                    std::array::from_fn(|v| {
                        _mm256_castsi256_ps(_mm256_and_si256(
                            _mm256_cmpgt_epi32(index[v], lo),
                            _mm256_cmpgt_epi32(hi, index[v]),
                        ))
                    })
                };
                // Steps t0..t0 + n: filling the pipeline, all lanes busy, draining it.
                let busy_from = (s - 1).saturating_sub(t0).min(n);
                let busy_to = frames.saturating_sub(t0).clamp(busy_from, n);
                for k in 0..busy_from {
                    step(k, Some(edge(t0 + k)));
                }
                for k in busy_from..busy_to {
                    step(k, None);
                }
                for k in busy_to..n {
                    step(k, Some(edge(t0 + k)));
                }
                // Steps before s - 1 complete no frame.
                let skip = (s - 1).saturating_sub(t0).min(n);
                let yout_done = &lanes.yout[skip * c..];
                // SAFETY: as above.
                unsafe { stage_out(yout_done, data, cap, c, t0 + skip + 1 - s, n - skip) };
                t0 += n;
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
    };
}

register_kernel!(main_avx2, "avx2,fma");
register_kernel!(main_avx512, "avx2,fma,avx512f,avx512vl");

/// Interleaves frames `first..first + n` of the `c` channels into `xin` (zeros past `frames`).
#[cfg(target_arch = "x86_64")]
#[inline(always)]
unsafe fn stage_in(
    xin: &mut [f32],
    data: &[f32],
    cap: usize,
    c: usize,
    frames: usize,
    first: usize,
    n: usize,
) {
    use std::arch::x86_64::*;
    let avail = frames.saturating_sub(first).min(n);
    let mut done = 0;
    if c == 2 && avail >= 8 {
        let (l, r) = (
            &data[first..first + avail],
            &data[cap + first..cap + first + avail],
        );
        let dst = &mut xin[..avail * 2];
        while done + 8 <= avail {
            // SAFETY: 8 frames of both planes and 16 floats of `dst` from `done` are in bounds.
            unsafe {
                let (lv, rv) = (
                    _mm256_loadu_ps(l.as_ptr().add(done)),
                    _mm256_loadu_ps(r.as_ptr().add(done)),
                );
                let (a, b) = (_mm256_unpacklo_ps(lv, rv), _mm256_unpackhi_ps(lv, rv));
                let p = dst.as_mut_ptr().add(done * 2);
                _mm256_storeu_ps(p, _mm256_permute2f128_ps(a, b, 0x20));
                _mm256_storeu_ps(p.add(8), _mm256_permute2f128_ps(a, b, 0x31));
            }
            done += 8;
        }
    }
    for ch in 0..c {
        for k in done..avail {
            xin[k * c + ch] = data[ch * cap + first + k];
        }
    }
    xin[avail * c..n * c].fill(0.0);
}

/// Writes `n` interleaved frames of `yout` back to frames `first..first + n` of `data`.
#[cfg(target_arch = "x86_64")]
#[inline(always)]
unsafe fn stage_out(yout: &[f32], data: &mut [f32], cap: usize, c: usize, first: usize, n: usize) {
    use std::arch::x86_64::*;
    let mut done = 0;
    if c == 2 && n >= 8 {
        let (l, r) = data.split_at_mut(cap);
        let (l, r) = (&mut l[first..first + n], &mut r[first..first + n]);
        let src = &yout[..n * 2];
        while done + 8 <= n {
            // SAFETY: 16 floats of `src` and 8 frames of both planes from `done` are in bounds.
            unsafe {
                let p = src.as_ptr().add(done * 2);
                let (v0, v1) = (_mm256_loadu_ps(p), _mm256_loadu_ps(p.add(8)));
                let a = _mm256_permute2f128_ps(v0, v1, 0x20);
                let b = _mm256_permute2f128_ps(v0, v1, 0x31);
                _mm256_storeu_ps(
                    l.as_mut_ptr().add(done),
                    _mm256_shuffle_ps(a, b, 0b10_00_10_00),
                );
                _mm256_storeu_ps(
                    r.as_mut_ptr().add(done),
                    _mm256_shuffle_ps(a, b, 0b11_01_11_01),
                );
            }
            done += 8;
        }
    }
    for ch in 0..c {
        for k in done..n {
            data[ch * cap + first + k] = yout[k * c + ch];
        }
    }
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
