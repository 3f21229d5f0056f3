//! The biquad cascade kernels: a scalar reference and a pipelined ("wavefront") kernel.
//!
//! The pipelined kernel lays the (stage, channel) pairs out as vector lanes, lane = stage x C +
//! channel (kept in that order between calls, see `lanes.rs`). At step t, stage k works on
//! sample t - k, so every lane's input is the previous step's output of the lane C below it:
//! all lanes of a step are independent and the compiler vectorises them (8 wide with AVX2). The
//! first and last S - 1 steps of a block only run the lanes that have a sample, so no state is
//! left in flight between calls. The portable version is identical, operation for operation, to
//! the scalar reference. The register version (`register.rs`) takes one or two channels at a
//! time and keeps the lanes in registers (equal within rounding).

use super::design::Coefs;
use super::lanes::{Group, Lanes, Planes, Scratch, Stages};
use crate::simd::Isa;

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

/// The pipelined kernel over `lanes` (laid out for `isa`'s kernel); same results as
/// [`run_reference`] over the same stages.
pub(crate) fn run_pipelined(isa: Isa, lanes: &mut Lanes, block: Planes) {
    if lanes.bands().is_empty() || block.frames == 0 {
        return;
    }
    let register = lanes.register;
    let (groups, scratch) = lanes.parts();
    if !register {
        return run_portable(&mut groups[0], scratch, block);
    }
    // The register kernel takes a pair of channels at a time (6 channels as three pairs, each
    // 18 bands x 2 channels in 5 vectors): its output lanes are then at a fixed place.
    #[cfg(target_arch = "x86_64")]
    for g in groups {
        let pair = Planes {
            data: &mut block.data[g.first * block.cap..],
            channels: g.channels,
            ..block
        };
        // SAFETY: lanes are laid out for the register kernel only when `isa` is Avx2 or Avx512,
        // which Isa::detect chooses only after the CPU reported their features.
        unsafe { super::register::run(isa == Isa::Avx512, g, scratch, pair) }
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = (isa, groups, scratch);
}

/// The portable kernel, every channel at once; operation for operation the scalar reference.
fn run_portable(g: &mut Group, scratch: &mut Scratch, block: Planes) {
    let (s, padded) = (g.stages, g.padded);
    let Planes {
        data,
        cap,
        channels: c,
        frames,
    } = block;
    for ch in 0..c {
        scratch.pa[ch] = data[ch * cap];
    }
    // Step t: stage k works on sample t - k. All lanes are busy for t in s-1..frames; the
    // s-1 steps before and after only run the stages that have a sample.
    let steps = frames + s - 1;
    let full = if frames >= s - 1 {
        s - 1..frames
    } else {
        steps..steps
    };
    for range in [0..full.start, full.clone(), full.end..steps] {
        generic_steps(g, scratch, data, cap, c, s, frames, padded, range);
    }
}

/// Runs steps `range` with portable code. `scratch.pa` holds the inputs of the first step on
/// entry and of the step after the range on exit.
#[allow(clippy::too_many_arguments)]
#[inline(always)]
fn generic_steps(
    g: &mut Group,
    scratch: &mut Scratch,
    data: &mut [f32],
    cap: usize,
    c: usize,
    s: usize,
    frames: usize,
    padded: usize,
    range: std::ops::Range<usize>,
) {
    let l = s * c;
    let Group {
        b0,
        a1d2,
        c2,
        a1,
        a2,
        s1,
        s2,
        ..
    } = g;
    let Scratch { pa, pb, .. } = scratch;
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
