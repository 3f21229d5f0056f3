//! Band-limited sample-rate conversion with a continuously adjustable ratio.
//!
//! A polyphase windowed-sinc interpolator: a Kaiser-windowed sinc (110 dB design, pass band to
//! 20 kHz, or 0.4535 of the lower rate below 44.1 kHz; stop band from the lower Nyquist
//! frequency) tabulated at 512 sub-sample
//! phases, with linear interpolation between neighbouring phases. Any position between two
//! input samples can be evaluated, so the conversion ratio is a real number that can be nudged
//! a little at every output sample ([`Resampler::set_ratio_adjust`]) for clock-drift
//! correction: the phase stays continuous, so nudges never click. Measured quality is in the
//! tests (pass band within +-0.1 dB to 20 kHz, aliasing and imaging below -100 dB). While the
//! ratio has never been adjusted and is a simple fraction (every pair of the supported rates),
//! an exact table with one row per output phase replaces the interpolation: the same filter,
//! computed directly, at about half the cost. At equal rates that table's one row is a unit
//! impulse, so the samples are copied through until the ratio is first nudged.
//!
//! Why not `rubato`: its asynchronous sinc resampler computes the same kind of interpolated
//! windowed sinc, but per channel; this one interpolates the coefficients once per output frame
//! and shares them across channels, which is faster at equal quality (see the criterion bench
//! `resampler`, which runs both).

#[cfg(target_arch = "x86_64")]
mod batched;
mod filter;
mod kernels;

pub use filter::{pass_edge, PASS_EDGE, PASS_EDGE_HZ, PHASES, STOPBAND_DB, STOP_EDGE};

use filter::PolyphaseTable;

use crate::buffer::check_channels;
use crate::buffer::AudioBuffer;
use crate::error::{invalid, DspError};
use crate::simd::Isa;

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
            // Equal rates on the exact grid: the one row is a unit impulse, so each output is
            // one history sample. Copied, not multiplied by the 150-odd taps of that row.
            (Kernel::Fast, _) if self.exact_active && self.in_rate == self.out_rate => {
                self.run_identity(output, out_offset)
            }
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
}

#[cfg(test)]
mod tests;
