//! The register kernel of the biquad cascade (x86-64): the pipelined kernel of `cascade.rs` for
//! one or two channels at a time, with every lane in a vector register. Defined for AVX2/FMA
//! and with AVX-512 enabled, where the same code has 32 vector registers and keeps every state
//! in one (a spill in the recurrence would add a store-to-load delay per step).
#![cfg(target_arch = "x86_64")]

use super::lanes::{Group, Planes, Scratch, STAGE_STEPS};

/// The register kernel for the channels of group `g` (1 or 2; `block` starts at its first
/// channel). Identity stages fill the last lane vector, so the last stage's lanes are its top
/// lanes. `wide`: the AVX-512 instantiation (the CPU must have it).
pub(crate) unsafe fn run(wide: bool, g: &mut Group, scratch: &mut Scratch, block: Planes) {
    let (c, padded, s) = (g.channels, g.padded, g.stages);
    let Planes {
        data, cap, frames, ..
    } = block;
    for ch in 0..c {
        scratch.pa[ch] = data[ch * cap];
    }
    macro_rules! dispatch {
        ($(($v:literal, $c:literal))*) => {
            match (padded / 8, c) {
                // SAFETY: the caller checked the CPU features.
                $(($v, $c) => unsafe {
                    if wide {
                        main_avx512::<$v, $c>(g, scratch, data, cap, s, frames)
                    } else {
                        main_avx2::<$v, $c>(g, scratch, data, cap, s, frames)
                    }
                },)*
                _ => unreachable!("18 bands x 1-2 channels fill at most 5 lane vectors"),
            }
        };
    }
    dispatch!((1, 1)(2, 1)(3, 1)(1, 2)(2, 2)(3, 2)(4, 2)(5, 2));
}

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
            g: &mut Group,
            scratch: &mut Scratch,
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
                load(&g.b0),
                load(&g.a1d2),
                load(&g.c2),
                load(&g.a1),
                load(&g.a2),
            );
            let (mut s1, mut s2, mut x) = (load(&g.s1), load(&g.s2), load(&scratch.pa));
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
                unsafe { stage_in(&mut scratch.xin, data, cap, c, frames, t0 + 1, n) };
                let (xin, yout) = (scratch.xin.as_ptr(), scratch.yout.as_mut_ptr());
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
                let yout_done = &scratch.yout[skip * c..];
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
            store(&mut g.s1, &s1);
            store(&mut g.s2, &s2);
            store(&mut scratch.pa, &x);
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
