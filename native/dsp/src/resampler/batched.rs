//! The resampler's batched kernel for mono and stereo: eight (output frame, channel) dot
//! products at once.
//!
//! The per-output kernel ends every output frame with a horizontal sum per channel, a chain of
//! dependent shuffles and adds as long as the dot product itself, so the processor could overlap
//! little of one frame with the next. Here 8 / C output frames are formed together: eight
//! accumulators (one per frame and channel) advance through the taps side by side, then one
//! transposing tree of `hadd`s reduces all eight at once into one vector of results. Exact and
//! interpolated (drift-nudged) coefficients use the same loop. Defined twice, for AVX2/FMA and
//! with AVX-512 enabled (32 registers: the accumulators, coefficients and pointers all stay in
//! registers). Same results as the scalar reference within f32 summation order (tested).

use std::arch::x86_64::*;

use super::Resampler;
use crate::buffer::AudioBuffer;

macro_rules! batched_kernel {
    ($dispatch:ident, $name:ident, $features:literal) => {
        impl Resampler {
            /// Runs the batched kernel for 1 or 2 channels; returns the frames produced.
            #[target_feature(enable = $features)]
            pub(super) unsafe fn $dispatch(
                &mut self,
                output: &mut AudioBuffer,
                out_offset: usize,
            ) -> usize {
                // SAFETY (all arms): same CPU features as this function.
                unsafe {
                    match (self.channels, self.exact_active) {
                        (1, true) => self.$name::<1, 8, false>(output, out_offset),
                        (1, false) => self.$name::<1, 8, true>(output, out_offset),
                        (2, true) => self.$name::<2, 4, false>(output, out_offset),
                        _ => self.$name::<2, 4, true>(output, out_offset),
                    }
                }
            }

            /// `K` output frames of `C` channels per batch (`K * C == 8`); `LERP`: interpolate
            /// between two table rows (off the exact rational grid).
            #[target_feature(enable = $features)]
            unsafe fn $name<const C: usize, const K: usize, const LERP: bool>(
                &mut self,
                output: &mut AudioBuffer,
                out_offset: usize,
            ) -> usize {
                debug_assert!(self.channels == C && K * C == 8);
                let taps = self.table.taps;
                let out_cap = output.capacity();
                let mut n = 0;
                loop {
                    // The batch's positions; a short batch (end of input or output) repeats
                    // its last position and discards those results.
                    let mut pos = [(0usize, 0usize, 0f32); K];
                    let mut got = 0;
                    while got < K {
                        match self.next_tap(out_offset + n + got, out_cap) {
                            Some(p) => {
                                pos[got] = p;
                                got += 1;
                                self.advance();
                            }
                            None => break,
                        }
                    }
                    if got == 0 {
                        return n;
                    }
                    for k in got..K {
                        pos[k] = pos[got - 1];
                    }
                    let mut coef0 = [std::ptr::null::<f32>(); K];
                    let mut coef1 = [std::ptr::null::<f32>(); K];
                    let mut weight = [_mm256_setzero_ps(); K];
                    let mut hist = [[std::ptr::null::<f32>(); C]; K];
                    for k in 0..K {
                        let (start, phase, w) = pos[k];
                        let (r0, r1) = self.rows(phase);
                        (coef0[k], coef1[k]) = (r0.as_ptr(), r1.as_ptr());
                        weight[k] = _mm256_set1_ps(w);
                        for ch in 0..C {
                            let at = ch * self.hist_cap + start;
                            hist[k][ch] = self.history[at..at + taps].as_ptr();
                        }
                    }
                    let mut acc = [_mm256_setzero_ps(); 8];
                    let mut j = 0;
                    while j < taps {
                        for k in 0..K {
                            // SAFETY: rows and history windows hold `taps` floats (sliced
                            // above) and j + 8 <= taps, taps being a multiple of 8.
                            unsafe {
                                let a = _mm256_loadu_ps(coef0[k].add(j));
                                let coef = if LERP {
                                    let b = _mm256_loadu_ps(coef1[k].add(j));
                                    _mm256_fmadd_ps(weight[k], _mm256_sub_ps(b, a), a)
                                } else {
                                    a
                                };
                                for ch in 0..C {
                                    let x = _mm256_loadu_ps(hist[k][ch].add(j));
                                    acc[k * C + ch] = _mm256_fmadd_ps(x, coef, acc[k * C + ch]);
                                }
                            }
                        }
                        j += 8;
                    }
                    // Lane i of `sums` is the sum of accumulator i (frame i / C, channel i % C).
                    let t0 = _mm256_hadd_ps(acc[0], acc[1]);
                    let t1 = _mm256_hadd_ps(acc[2], acc[3]);
                    let t2 = _mm256_hadd_ps(acc[4], acc[5]);
                    let t3 = _mm256_hadd_ps(acc[6], acc[7]);
                    let (u0, u1) = (_mm256_hadd_ps(t0, t1), _mm256_hadd_ps(t2, t3));
                    let sums = _mm256_add_ps(
                        _mm256_permute2f128_ps(u0, u1, 0x20),
                        _mm256_permute2f128_ps(u0, u1, 0x31),
                    );
                    let raw = output.raw_mut();
                    let at = out_offset + n;
                    if got == K && C == 1 {
                        // SAFETY: next_tap checked that frames at..at + K fit the output.
                        unsafe { _mm256_storeu_ps(raw[at..at + K].as_mut_ptr(), sums) };
                    } else if got == K {
                        // Frames 0..4 of channel 0 from the even lanes, of channel 1 from the
                        // odd ones.
                        let split = _mm256_setr_epi32(0, 2, 4, 6, 1, 3, 5, 7);
                        let planar = _mm256_permutevar8x32_ps(sums, split);
                        // SAFETY: as above, for both channels.
                        unsafe {
                            _mm_storeu_ps(
                                raw[at..at + K].as_mut_ptr(),
                                _mm256_castps256_ps128(planar),
                            );
                            _mm_storeu_ps(
                                raw[out_cap + at..out_cap + at + K].as_mut_ptr(),
                                _mm256_extractf128_ps(planar, 1),
                            );
                        }
                    } else {
                        let mut lanes = [0.0f32; 8];
                        // SAFETY: `lanes` holds 8 floats.
                        unsafe { _mm256_storeu_ps(lanes.as_mut_ptr(), sums) };
                        for k in 0..got {
                            for ch in 0..C {
                                raw[ch * out_cap + at + k] = lanes[k * C + ch];
                            }
                        }
                    }
                    n += got;
                    if got < K {
                        return n;
                    }
                }
            }
        }
    };
}

batched_kernel!(run_batched_avx2, batched_avx2, "avx2,fma");
batched_kernel!(
    run_batched_avx512,
    batched_avx512,
    "avx2,fma,avx512f,avx512vl"
);
