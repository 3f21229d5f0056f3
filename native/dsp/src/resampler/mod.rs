//! Band-limited sample-rate conversion with a continuously adjustable ratio.
//!
//! A polyphase windowed-sinc interpolator: a Kaiser-windowed sinc (110 dB design, pass band to
//! 20 kHz at 44.1 kHz, stop band from the lower Nyquist frequency) tabulated at 512 sub-sample
//! phases, with linear interpolation between neighbouring phases. Any position between two
//! input samples can be evaluated, so the conversion ratio is a real number that can be nudged
//! a little at every output sample ([`Resampler::set_ratio_adjust`]) for clock-drift
//! correction: the phase stays continuous, so nudges never click. Measured quality is in the
//! tests (pass band within +-0.1 dB to 20 kHz, aliasing and imaging below -100 dB). While the
//! ratio has never been adjusted and is a simple fraction (every pair of the supported rates),
//! an exact table with one row per output phase replaces the interpolation: the same filter,
//! computed directly, at about half the cost.
//!
//! Why not `rubato`: its asynchronous sinc resampler computes the same kind of interpolated
//! windowed sinc, but per channel; this one interpolates the coefficients once per output frame
//! and shares them across channels, which is faster at equal quality (see the criterion bench
//! `resampler`, which runs both).

#[cfg(target_arch = "x86_64")]
mod batched;
mod filter;

pub use filter::{PASS_EDGE, PHASES, STOPBAND_DB, STOP_EDGE};

use filter::PolyphaseTable;

use crate::buffer::AudioBuffer;
use crate::error::{check_channels, invalid, DspError};
use crate::simd::{dot, Isa};

/// The rates Tributary streams use; any rate in [`MIN_RATE`, `MAX_RATE`] works.
pub const SUPPORTED_RATES: [u32; 5] = [44_100, 48_000, 88_200, 96_000, 192_000];
pub const MIN_RATE: u32 = 8_000;
pub const MAX_RATE: u32 = 384_000;
/// Largest relative ratio adjustment accepted by [`Resampler::set_ratio_adjust`] (+-5 %).
pub const MAX_RATIO_ADJUST: f64 = 0.05;
/// How fast the applied adjustment follows a new target: a full 2 % swing takes 100 ms.
pub const ADJUST_SLEW_PER_SECOND: f64 = 0.2;

/// A multichannel resampler. Allocates in [`Resampler::new`] only.
#[derive(Clone, Debug)]
pub struct Resampler {
    in_rate: u32,
    out_rate: u32,
    channels: usize,
    isa: Isa,
    table: PolyphaseTable,
    base_step: f64,
    adjust: f64,
    adjust_target: f64,
    adjust_slew: f64,
    history: Vec<f32>,
    hist_cap: usize,
    hist_len: usize,
    /// Integer part of the next output's position in the history.
    ipos: usize,
    /// Fractional part, in [0, 1); kept apart so block boundaries never change rounding.
    frac: f64,
    max_block: usize,
    coef: Vec<f32>,
    /// Exact table for the nominal rational ratio and its input step (see [`Resampler::reset`]).
    exact: Option<(PolyphaseTable, usize)>,
    /// True while the position is on the rational grid (no adjustment ever applied).
    exact_active: bool,
    /// Numerator of the fractional position over the exact table's phase count.
    exact_phase: usize,
    /// The exact step as (whole input samples, remaining phases, phase count).
    exact_step: (usize, usize, usize),
}

/// Where the scalar reference and the optimised kernel differ: how the coefficients are formed.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Kernel {
    Fast,
    Reference,
}

impl Resampler {
    /// A resampler from `in_rate` to `out_rate` Hz for `channels` channels. `max_block` is the
    /// largest input block processed at once (larger inputs are split internally); it sizes the
    /// history buffer.
    pub fn new(
        in_rate: u32,
        out_rate: u32,
        channels: usize,
        max_block: usize,
    ) -> Result<Self, DspError> {
        for (what, r) in [("input", in_rate), ("output", out_rate)] {
            if !(MIN_RATE..=MAX_RATE).contains(&r) {
                return Err(invalid(format!(
                    "{what} sample rate must be {MIN_RATE}-{MAX_RATE} Hz, got {r}"
                )));
            }
        }
        check_channels(channels)?;
        if max_block == 0 {
            return Err(invalid("max_block must be at least 1 frame"));
        }
        let table = filter::design(in_rate, out_rate);
        let taps = table.taps;
        let hist_cap = taps + max_block + 8;
        let mut r = Resampler {
            in_rate,
            out_rate,
            channels,
            isa: Isa::detect(),
            base_step: in_rate as f64 / out_rate as f64,
            adjust: 0.0,
            adjust_target: 0.0,
            adjust_slew: ADJUST_SLEW_PER_SECOND / out_rate as f64,
            history: vec![0.0; channels * hist_cap],
            hist_cap,
            hist_len: 0,
            ipos: 0,
            frac: 0.0,
            max_block,
            coef: vec![0.0; taps],
            exact: filter::design_exact(in_rate, out_rate),
            exact_step: (0, 0, 1),
            exact_active: false,
            exact_phase: 0,
            table,
        };
        r.reset();
        Ok(r)
    }

    /// Forces the portable kernel (for tests and benchmarks).
    pub fn with_isa(mut self, isa: Isa) -> Self {
        self.isa = isa;
        self
    }

    pub fn in_rate(&self) -> u32 {
        self.in_rate
    }

    pub fn out_rate(&self) -> u32 {
        self.out_rate
    }

    pub fn channels(&self) -> usize {
        self.channels
    }

    /// Filter length in input samples.
    pub fn taps(&self) -> usize {
        self.table.taps
    }

    /// Delay through the filter, in input frames.
    pub fn latency_frames(&self) -> usize {
        self.table.taps / 2
    }

    /// Clears the history (silence) and the applied adjustment.
    pub fn reset(&mut self) {
        self.history.fill(0.0);
        let half = self.table.taps / 2;
        self.hist_len = half - 1;
        self.ipos = half - 1;
        self.frac = 0.0;
        self.adjust = self.adjust_target;
        self.exact_phase = 0;
        self.exact_active = self.exact.is_some() && self.adjust == 0.0;
        if let Some((table, step)) = &self.exact {
            self.exact_step = (step / table.phases, step % table.phases, table.phases);
        }
    }

    /// Sets the target relative ratio adjustment: the resampler then consumes
    /// `in_rate / out_rate * (1 + adjust)` input frames per output frame. Positive values drain
    /// input faster (use when the sender's clock runs fast and input piles up). The applied value
    /// slews towards the target at [`ADJUST_SLEW_PER_SECOND`], so changes never step.
    pub fn set_ratio_adjust(&mut self, adjust: f64) -> Result<(), DspError> {
        if !adjust.is_finite() || adjust.abs() > MAX_RATIO_ADJUST {
            return Err(invalid(format!(
                "ratio adjustment must be within +-{MAX_RATIO_ADJUST}, got {adjust}"
            )));
        }
        self.adjust_target = adjust;
        if adjust != 0.0 && self.exact_active {
            // Off the rational grid from now on: the interpolated table takes over from the
            // exact position (same filter), so the switch is seamless.
            self.exact_active = false;
            self.frac = self.exact_phase as f64 / self.exact_step.2 as f64;
        }
        Ok(())
    }

    /// The adjustment currently applied (it slews towards the last target).
    pub fn ratio_adjust(&self) -> f64 {
        self.adjust
    }

    pub fn ratio_adjust_target(&self) -> f64 {
        self.adjust_target
    }

    /// The most output frames `input_frames` more input can produce (size output buffers with it).
    pub fn max_output_frames(&self, input_frames: usize) -> usize {
        let min_step = self.base_step * (1.0 - MAX_RATIO_ADJUST);
        ((input_frames + 1) as f64 / min_step).ceil() as usize + 2
    }

    /// Resamples `input.frames()` frames into `output` (which must have room for
    /// [`Resampler::max_output_frames`]); returns the frames produced and sets `output.frames()`.
    pub fn process_into(
        &mut self,
        input: &AudioBuffer,
        output: &mut AudioBuffer,
    ) -> Result<usize, DspError> {
        self.process_with(input, output, Kernel::Fast)
    }

    /// The scalar reference: same arithmetic definition, computed term by term in one loop.
    pub fn process_into_reference(
        &mut self,
        input: &AudioBuffer,
        output: &mut AudioBuffer,
    ) -> Result<usize, DspError> {
        self.process_with(input, output, Kernel::Reference)
    }

    fn process_with(
        &mut self,
        input: &AudioBuffer,
        output: &mut AudioBuffer,
        kernel: Kernel,
    ) -> Result<usize, DspError> {
        for b in [input.channels(), output.channels()] {
            if b != self.channels {
                return Err(DspError::ChannelMismatch {
                    expected: self.channels,
                    actual: b,
                });
            }
        }
        let needed = self.max_output_frames(input.frames());
        if needed > output.capacity() {
            return Err(DspError::OutputTooSmall {
                needed,
                available: output.capacity(),
            });
        }
        let mut produced = 0;
        let mut offset = 0;
        while offset < input.frames() {
            let n = (input.frames() - offset).min(self.max_block);
            self.push(input, offset, n);
            offset += n;
            produced += self.run(output, produced, kernel);
        }
        output.set_frames(produced);
        Ok(produced)
    }

    /// Appends input frames `offset..offset + n` to the history.
    fn push(&mut self, input: &AudioBuffer, offset: usize, n: usize) {
        for c in 0..self.channels {
            let start = c * self.hist_cap + self.hist_len;
            self.history[start..start + n].copy_from_slice(&input.channel(c)[offset..offset + n]);
        }
        self.hist_len += n;
    }

    /// Produces every output the history allows, then drops history no longer needed.
    fn run(&mut self, output: &mut AudioBuffer, out_offset: usize, kernel: Kernel) -> usize {
        let produced = match (kernel, self.isa) {
            (Kernel::Reference, _) => self.run_reference(output, out_offset),
            (Kernel::Fast, Isa::Baseline) => self.run_fast(output, out_offset),
            #[cfg(target_arch = "x86_64")]
            // SAFETY: `isa` is Avx2 or Avx512 only when the CPU reported AVX2 and FMA
            // (Isa::detect).
            (Kernel::Fast, Isa::Avx2) if self.channels <= 2 => unsafe {
                self.run_batched_avx2(output, out_offset)
            },
            #[cfg(target_arch = "x86_64")]
            // SAFETY: `isa` is Avx512 only when the CPU reported AVX-512F/VL too.
            (Kernel::Fast, Isa::Avx512) if self.channels <= 2 => unsafe {
                self.run_batched_avx512(output, out_offset)
            },
            #[cfg(target_arch = "x86_64")]
            // SAFETY: as above.
            (Kernel::Fast, Isa::Avx2 | Isa::Avx512) => unsafe {
                self.run_fast_avx2(output, out_offset)
            },
            #[cfg(not(target_arch = "x86_64"))]
            (Kernel::Fast, Isa::Avx2 | Isa::Avx512) => self.run_fast(output, out_offset),
        };
        let half = self.table.taps / 2;
        let first_needed = (self.ipos + 1).saturating_sub(half).min(self.hist_len);
        if first_needed > 0 {
            for c in 0..self.channels {
                let base = c * self.hist_cap;
                self.history
                    .copy_within(base + first_needed..base + self.hist_len, base);
            }
            self.hist_len -= first_needed;
            self.ipos -= first_needed;
        }
        produced
    }

    /// AVX2/FMA kernel: per output frame, one pass over the taps forms the interpolated
    /// coefficients in registers and accumulates every channel with them.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2,fma")]
    unsafe fn run_fast_avx2(&mut self, output: &mut AudioBuffer, out_offset: usize) -> usize {
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

    #[inline(always)]
    fn advance(&mut self) {
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
    fn next_tap(&self, produced: usize, out_cap: usize) -> Option<(usize, usize, f32)> {
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
    fn rows(&self, phase: usize) -> (&[f32], &[f32]) {
        rows(&self.exact, self.exact_active, &self.table, phase)
    }

    fn run_fast(&mut self, output: &mut AudioBuffer, out_offset: usize) -> usize {
        let taps = self.table.taps;
        let out_cap = output.capacity();
        let mut n = 0;
        while let Some((start, phase, w)) = self.next_tap(out_offset + n, out_cap) {
            let (c0, c1) = rows(&self.exact, self.exact_active, &self.table, phase);
            for ((c, a), b) in self.coef.iter_mut().zip(c0).zip(c1) {
                *c = a + w * (b - a);
            }
            let raw = output.raw_mut();
            for ch in 0..self.channels {
                let h =
                    &self.history[ch * self.hist_cap + start..ch * self.hist_cap + start + taps];
                raw[ch * out_cap + out_offset + n] = dot(h, &self.coef);
            }
            n += 1;
            self.advance();
        }
        n
    }

    fn run_reference(&mut self, output: &mut AudioBuffer, out_offset: usize) -> usize {
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

#[cfg(test)]
mod tests;
