//! The resampler's kernels: per output frame, the coefficient row(s) for its phase and one
//! dot product per channel over the history. The portable kernel, the AVX2/FMA kernel and the
//! scalar reference the others are tested against.

use super::filter::PolyphaseTable;
use super::Resampler;
use crate::buffer::AudioBuffer;
use crate::simd::dot;

impl Resampler {
    /// AVX2/FMA kernel: per output frame, one pass over the taps forms the interpolated
    /// coefficients in registers and accumulates every channel with them.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2,fma")]
    pub(super) unsafe fn run_fast_avx2(
        &mut self,
        output: &mut AudioBuffer,
        out_offset: usize,
    ) -> usize {
        macro_rules! by_channels {
            ($lerp:literal) => {
                // SAFETY (all arms): same CPU features as this function.
                unsafe {
                    match self.channels {
                        1 => self.run_avx2::<1, $lerp>(output, out_offset),
                        2 => self.run_avx2::<2, $lerp>(output, out_offset),
                        3 => self.run_avx2::<3, $lerp>(output, out_offset),
                        4 => self.run_avx2::<4, $lerp>(output, out_offset),
                        5 => self.run_avx2::<5, $lerp>(output, out_offset),
                        6 => self.run_avx2::<6, $lerp>(output, out_offset),
                        7 => self.run_avx2::<7, $lerp>(output, out_offset),
                        _ => self.run_avx2::<8, $lerp>(output, out_offset),
                    }
                }
            };
        }
        // On the exact rational grid the coefficients need no interpolation.
        if self.exact_active {
            by_channels!(false)
        } else {
            by_channels!(true)
        }
    }

    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2,fma")]
    unsafe fn run_avx2<const C: usize, const LERP: bool>(
        &mut self,
        output: &mut AudioBuffer,
        out_offset: usize,
    ) -> usize {
        use std::arch::x86_64::*;
        let taps = self.table.taps;
        debug_assert!(taps.is_multiple_of(8) && self.channels == C);
        let out_cap = output.capacity();
        let mut n = 0;
        while let Some((start, phase, w)) = self.next_tap(out_offset + n, out_cap) {
            let (r0, r1) = self.rows(phase);
            let (c0, c1) = (r0.as_ptr(), r1.as_ptr());
            let mut h = [std::ptr::null::<f32>(); C];
            for (ch, p) in h.iter_mut().enumerate() {
                *p = self.history[ch * self.hist_cap + start..ch * self.hist_cap + start + taps]
                    .as_ptr();
            }
            // SAFETY: every pointer is valid for `taps` floats (row and history slices above)
            // and `j + 8 <= taps` since taps is a multiple of 8.
            let sums = unsafe {
                let wv = _mm256_set1_ps(w);
                // Several accumulators per channel break the FMA dependency chain (latency 4):
                // 4 each for 1-2 channels, 2 for 3-4, 1 beyond (constant-folded per C).
                let unroll = if C <= 2 {
                    4
                } else if C <= 4 {
                    2
                } else {
                    1
                };
                let mut acc = [[_mm256_setzero_ps(); 4]; C];
                let coef_at = |j: usize| {
                    let a = _mm256_loadu_ps(c0.add(j));
                    if LERP {
                        let b = _mm256_loadu_ps(c1.add(j));
                        _mm256_fmadd_ps(wv, _mm256_sub_ps(b, a), a)
                    } else {
                        a
                    }
                };
                let mut j = 0;
                while j + 8 * unroll <= taps {
                    for u in 0..unroll {
                        let coef = coef_at(j + 8 * u);
                        for ch in 0..C {
                            acc[ch][u] = _mm256_fmadd_ps(
                                _mm256_loadu_ps(h[ch].add(j + 8 * u)),
                                coef,
                                acc[ch][u],
                            );
                        }
                    }
                    j += 8 * unroll;
                }
                while j < taps {
                    let coef = coef_at(j);
                    for ch in 0..C {
                        acc[ch][0] =
                            _mm256_fmadd_ps(_mm256_loadu_ps(h[ch].add(j)), coef, acc[ch][0]);
                    }
                    j += 8;
                }
                acc.map(|a| {
                    let v = _mm256_add_ps(_mm256_add_ps(a[0], a[1]), _mm256_add_ps(a[2], a[3]));
                    let s = _mm_add_ps(_mm256_castps256_ps128(v), _mm256_extractf128_ps(v, 1));
                    let s = _mm_add_ps(s, _mm_movehl_ps(s, s));
                    _mm_cvtss_f32(_mm_add_ss(s, _mm_shuffle_ps(s, s, 1)))
                })
            };
            let raw = output.raw_mut();
            for (ch, v) in sums.iter().enumerate() {
                raw[ch * out_cap + out_offset + n] = *v;
            }
            n += 1;
            self.advance();
        }
        n
    }

    /// Equal rates on the exact grid (never nudged): output frame k is history sample `ipos`,
    /// the one the exact row's unit impulse picks, so whole runs are copied. Produces what
    /// [`Resampler::next_tap`] would allow, frame for frame.
    pub(super) fn run_identity(&mut self, output: &mut AudioBuffer, out_offset: usize) -> usize {
        debug_assert!(self.exact_active && self.exact_step == (1, 0, 1));
        let half = self.table.taps / 2;
        let out_cap = output.capacity();
        let n = (self.hist_len.saturating_sub(self.ipos + half))
            .min(out_cap.saturating_sub(out_offset));
        let raw = output.raw_mut();
        for ch in 0..self.channels {
            let from = ch * self.hist_cap + self.ipos;
            let to = ch * out_cap + out_offset;
            raw[to..to + n].copy_from_slice(&self.history[from..from + n]);
        }
        self.ipos += n;
        n
    }

    #[inline(always)]
    pub(super) fn advance(&mut self) {
        if self.exact_active {
            // No division per sample: whole input samples and the remainder of the step are
            // precomputed; `frac` is derived only when leaving the exact grid.
            let (whole, rest, phases) = self.exact_step;
            self.exact_phase += rest;
            self.ipos += whole;
            if self.exact_phase >= phases {
                self.exact_phase -= phases;
                self.ipos += 1;
            }
            return;
        }
        let d = self.adjust_target - self.adjust;
        if d != 0.0 {
            self.adjust += d.clamp(-self.adjust_slew, self.adjust_slew);
        }
        self.frac += self.base_step * (1.0 + self.adjust);
        let whole = self.frac.floor();
        self.ipos += whole as usize;
        self.frac -= whole;
    }

    /// Where the next output comes from: (first history index, table phase, weight between the
    /// phase and the next), or `None` when the history or the output is exhausted. On the exact
    /// rational grid the phase indexes the exact table and the weight is 0.
    #[inline(always)]
    pub(super) fn next_tap(&self, produced: usize, out_cap: usize) -> Option<(usize, usize, f32)> {
        let half = self.table.taps / 2;
        if self.ipos + half >= self.hist_len || produced >= out_cap {
            return None;
        }
        if self.exact_active {
            return Some((self.ipos + 1 - half, self.exact_phase, 0.0));
        }
        let frac_phase = self.frac * self.table.phases as f64;
        let phase = (frac_phase as usize).min(self.table.phases - 1);
        Some((
            self.ipos + 1 - half,
            phase,
            (frac_phase - phase as f64) as f32,
        ))
    }

    /// The two coefficient rows to interpolate between (the same row twice on the exact grid).
    #[inline(always)]
    pub(super) fn rows(&self, phase: usize) -> (&[f32], &[f32]) {
        rows(&self.exact, self.exact_active, &self.table, phase)
    }

    pub(super) fn run_fast(&mut self, output: &mut AudioBuffer, out_offset: usize) -> usize {
        let taps = self.table.taps;
        let out_cap = output.capacity();
        let mut n = 0;
        while let Some((start, phase, w)) = self.next_tap(out_offset + n, out_cap) {
            let (c0, c1) = rows(&self.exact, self.exact_active, &self.table, phase);
            // On the exact grid the row is the coefficients; off it, interpolated first.
            let coef = if self.exact_active {
                c0
            } else {
                for ((c, a), b) in self.coef.iter_mut().zip(c0).zip(c1) {
                    *c = a + w * (b - a);
                }
                &self.coef[..]
            };
            let raw = output.raw_mut();
            for ch in 0..self.channels {
                let h =
                    &self.history[ch * self.hist_cap + start..ch * self.hist_cap + start + taps];
                raw[ch * out_cap + out_offset + n] = dot(h, coef);
            }
            n += 1;
            self.advance();
        }
        n
    }

    pub(super) fn run_reference(&mut self, output: &mut AudioBuffer, out_offset: usize) -> usize {
        let taps = self.table.taps;
        let out_cap = output.capacity();
        let mut n = 0;
        while let Some((start, phase, w)) = self.next_tap(out_offset + n, out_cap) {
            for ch in 0..self.channels {
                let mut acc = 0.0f32;
                let (r0, r1) = self.rows(phase);
                for j in 0..taps {
                    let (a, b) = (r0[j], r1[j]);
                    acc += self.history[ch * self.hist_cap + start + j] * (a + w * (b - a));
                }
                output.raw_mut()[ch * out_cap + out_offset + n] = acc;
            }
            n += 1;
            self.advance();
        }
        n
    }
}

/// See [`Resampler::rows`]; a free function so callers can borrow other fields meanwhile.
#[inline(always)]
fn rows<'a>(
    exact: &'a Option<(PolyphaseTable, usize)>,
    exact_active: bool,
    table: &'a PolyphaseTable,
    phase: usize,
) -> (&'a [f32], &'a [f32]) {
    match (exact, exact_active) {
        (Some((t, _)), true) => (t.row(phase), t.row(phase)),
        _ => (table.row(phase), table.row(phase + 1)),
    }
}
