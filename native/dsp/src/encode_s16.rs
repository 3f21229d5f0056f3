//! 16-bit encoding of mono and stereo, the common stream formats, with or without TPDF dither.
//!
//! Same results, bit for bit, as the general encoder in [`crate::sample_format`] (tested against
//! it): the sample is scaled by 32768, the dither added (a multiply then an add, never fused),
//! clamped, rounded half away from zero, NaN to 0. The AVX2 kernel does eight frames per step
//! and draws the dither eight values at a time from the same eight xorshift lanes as
//! [`Tpdf::next_lsb`], in the same order, so the output does not depend on the kernel.

use crate::buffer::AudioBuffer;
use crate::dither::Tpdf;
use crate::simd::Isa;

const SCALE: f32 = 32_768.0;

/// Clamps and rounds half away from zero; NaN maps to 0 (Rust's saturating float cast).
#[inline(always)]
pub(crate) fn quantize(v: f32, min: f32, max: f32) -> i32 {
    let v = v.clamp(min, max);
    (v + 0.5f32.copysign(v)) as i32
}

#[inline(always)]
fn sample(x: f32, dither: &mut Option<&mut Tpdf>) -> [u8; 2] {
    let v = match dither {
        Some(d) => x * SCALE + d.next_lsb(),
        None => x * SCALE,
    };
    (quantize(v, -SCALE, SCALE - 1.0) as i16).to_le_bytes()
}

/// Encodes `input` (1 or 2 channels) as s16 into `out`, which holds at least
/// `frames * channels * 2` bytes.
pub(crate) fn encode(
    isa: Isa,
    big_endian: bool,
    input: &AudioBuffer,
    out: &mut [u8],
    mut dither: Option<&mut Tpdf>,
) {
    #[cfg_attr(not(target_arch = "x86_64"), allow(unused_mut))]
    let mut done = 0;
    #[cfg(target_arch = "x86_64")]
    if isa.has_avx2() {
        // Whole frames one by one until the dither is at a batch boundary.
        let frames = input.frames();
        while done < frames && !dither.as_ref().is_none_or(|d| d.at_batch_start()) {
            scalar(big_endian, input, out, done..done + 1, &mut dither);
            done += 1;
        }
        // SAFETY: has_avx2 is only true after the CPU reported AVX2 and FMA.
        done += unsafe { avx2(big_endian, input, out, done, dither.as_deref_mut()) };
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = isa;
    scalar(big_endian, input, out, done..input.frames(), &mut dither);
}

/// The portable loop over `frames`.
fn scalar(
    big_endian: bool,
    input: &AudioBuffer,
    out: &mut [u8],
    frames: std::ops::Range<usize>,
    dither: &mut Option<&mut Tpdf>,
) {
    let channels = input.channels();
    let cap = input.capacity();
    let raw = input.raw();
    for f in frames {
        for c in 0..channels {
            let mut b = sample(raw[c * cap + f], dither);
            if big_endian {
                b.reverse();
            }
            let at = (f * channels + c) * 2;
            out[at..at + 2].copy_from_slice(&b);
        }
    }
}

/// Eight frames per step from frame `first` on; returns the frames done (a multiple of 8).
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
unsafe fn avx2(
    big_endian: bool,
    input: &AudioBuffer,
    out: &mut [u8],
    first: usize,
    dither: Option<&mut Tpdf>,
) -> usize {
    use std::arch::x86_64::*;
    let channels = input.channels();
    let cap = input.capacity();
    let steps = (input.frames() - first) / 8;
    let raw = input.raw();
    assert!(out.len() >= (first + steps * 8) * channels * 2);
    let scale = _mm256_set1_ps(SCALE);
    let (lo, hi) = (_mm256_set1_ps(-SCALE), _mm256_set1_ps(SCALE - 1.0));
    let half = _mm256_set1_ps(0.5);
    let sign = _mm256_set1_ps(-0.0);
    let swap = _mm256_setr_epi8(
        1, 0, 3, 2, 5, 4, 7, 6, 9, 8, 11, 10, 13, 12, 15, 14, 1, 0, 3, 2, 5, 4, 7, 6, 9, 8, 11, 10,
        13, 12, 15, 14,
    );
    let has_dither = dither.is_some();
    let mut state_slot = [0u32; 8];
    let state_ref = match dither {
        Some(d) => d.state_mut(),
        None => &mut state_slot,
    };
    // SAFETY: 8 u32 are valid for a 256-bit unaligned load.
    let mut state = unsafe { _mm256_loadu_si256(state_ref.as_ptr().cast()) };
    let xorshift = |x: __m256i| {
        let x = _mm256_xor_si256(x, _mm256_slli_epi32(x, 13));
        let x = _mm256_xor_si256(x, _mm256_srli_epi32(x, 17));
        _mm256_xor_si256(x, _mm256_slli_epi32(x, 5))
    };
    let unit = |x: __m256i| {
        _mm256_mul_ps(
            _mm256_cvtepi32_ps(_mm256_srli_epi32(x, 8)),
            _mm256_set1_ps(1.0 / 16_777_216.0),
        )
    };
    let mut next_dither = || {
        let a = xorshift(state);
        let b = xorshift(a);
        state = b;
        _mm256_sub_ps(_mm256_add_ps(unit(a), unit(b)), _mm256_set1_ps(1.0))
    };
    // Scaled samples (in the interleaved order of the output) to 8 rounded i32.
    let quantize = |v: __m256| {
        let nan = _mm256_cmp_ps(v, v, _CMP_UNORD_Q);
        let c = _mm256_min_ps(_mm256_max_ps(v, lo), hi);
        let r = _mm256_add_ps(c, _mm256_or_ps(_mm256_and_ps(c, sign), half));
        _mm256_andnot_si256(_mm256_castps_si256(nan), _mm256_cvttps_epi32(r))
    };
    let store = |ptr: *mut u8, a: __m256i, b: __m256i| {
        // packs works per 128-bit half: reorder the 64-bit quarters back into sequence.
        let v = _mm256_permute4x64_epi64(_mm256_packs_epi32(a, b), 0b11_01_10_00);
        let v = if big_endian {
            _mm256_shuffle_epi8(v, swap)
        } else {
            v
        };
        // SAFETY: the caller checked `out` holds the 32 bytes at `ptr`.
        unsafe { _mm256_storeu_si256(ptr.cast(), v) };
    };
    for k in 0..steps {
        let f = first + k * 8;
        // SAFETY: frames f..f + 8 are valid in every channel; `out` was checked above.
        unsafe {
            let dst = out.as_mut_ptr().add(f * channels * 2);
            let l = _mm256_mul_ps(_mm256_loadu_ps(raw.as_ptr().add(f)), scale);
            if channels == 1 {
                let v = if has_dither {
                    _mm256_add_ps(l, next_dither())
                } else {
                    l
                };
                let i = quantize(v);
                // 8 samples: pack with itself and store the low 16 bytes.
                let p = _mm256_permute4x64_epi64(_mm256_packs_epi32(i, i), 0b11_01_10_00);
                let p = if big_endian {
                    _mm256_shuffle_epi8(p, swap)
                } else {
                    p
                };
                _mm_storeu_si128(dst.cast(), _mm256_castsi256_si128(p));
            } else {
                let r = _mm256_mul_ps(_mm256_loadu_ps(raw.as_ptr().add(cap + f)), scale);
                // Interleave: frames 0-3 then 4-7, left and right alternating.
                let (a, b) = (_mm256_unpacklo_ps(l, r), _mm256_unpackhi_ps(l, r));
                let mut v0 = _mm256_permute2f128_ps(a, b, 0x20);
                let mut v1 = _mm256_permute2f128_ps(a, b, 0x31);
                if has_dither {
                    v0 = _mm256_add_ps(v0, next_dither());
                    v1 = _mm256_add_ps(v1, next_dither());
                }
                store(dst, quantize(v0), quantize(v1));
            }
        }
    }
    // SAFETY: as above.
    unsafe { _mm256_storeu_si256(state_ref.as_mut_ptr().cast(), state) };
    steps * 8
}
