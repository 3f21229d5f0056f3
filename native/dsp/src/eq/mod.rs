//! The 18-band graphic equalizer: peaking biquads designed so the response follows the
//! sliders, smoothed live changes.
//!
//! Gains are linear amplitude factors 0.0-2.0 per band (1.0 flat); the decibel mapping is
//! [`gain_to_db`]. [`Designer`] turns them into 18 filters (gains and widths) whose cascade
//! matches the slider values at the band centres and the curve between them (see
//! `graphic.rs`); that runs when gains change, never per sample. A change ramps each filter's
//! gain linearly in dB and its width in log over [`RAMP_MS`], recomputing the coefficients every
//! [`SUBBLOCK`] frames, so no step exceeds a fraction of a dB (no zipper noise). Filters the
//! design leaves flat are not run at all; all sliders at 1.0 run nothing.

mod cascade;
mod design;
#[cfg(test)]
mod design_tests;
mod fit;
mod graphic;
mod lanes;
mod lsq;
#[cfg(test)]
mod reference_tests;
#[cfg(target_arch = "x86_64")]
mod register;
#[cfg(test)]
mod tests;

pub use design::{
    centre, gain_to_db, magnitude, Coefs, PeakingShape, BANDS, BAND_CENTRES, BAND_OCTAVES,
    MAX_CENTRE_FRACTION, MAX_GAIN, MIN_GAIN,
};
pub use fit::{FILTER_MAX_DB, FILTER_MIN_DB, MAX_DECAY_S};
pub use graphic::{slider_curve_db, Design, Designer, FLOOR_DB};

use lanes::{Lanes, Planes, Stages};

use crate::buffer::check_channels;
use crate::buffer::{AudioBuffer, MAX_CHANNELS};
use crate::denormal::FlushDenormals;
use crate::error::{invalid, DspError};
use crate::simd::Isa;

/// Duration of a gain change.
pub const RAMP_MS: f64 = 50.0;
/// Frames between coefficient updates while a band ramps.
pub const SUBBLOCK: usize = 16;

/// Flat gains.
pub const FLAT: [f32; BANDS] = [1.0; BANDS];

/// Which kernel runs the cascade.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kernel {
    Pipelined,
    Reference,
}

/// A multichannel 18-band equalizer. Allocates only in [`Equalizer::new`].
#[derive(Clone, Debug)]
pub struct Equalizer {
    rate: u32,
    channels: usize,
    isa: Isa,
    designer: Designer,
    /// The design being played or ramped to.
    design: Design,
    current_db: [f64; BANDS],
    step_db: [f64; BANDS],
    /// Each filter's width as `ln(alpha)`, ramped with its gain.
    ln_alpha: [f64; BANDS],
    step_ln_alpha: [f64; BANDS],
    steps_left: [usize; BANDS],
    /// Frames a filter that ramped back to flat keeps running so its state decays smoothly.
    linger: [usize; BANDS],
    /// Each band's coefficients now (a ramp moves them every [`SUBBLOCK`] frames).
    coefs: [Coefs; BANDS],
    /// The bands that run, their coefficients and filter states, in the kernels' lane order.
    /// The state of a band that does not run is silence.
    lanes: Lanes,
    /// No band ramps or lingers and the lanes hold exactly the bands that run: a call runs the
    /// kernel and nothing else (the checks of which bands run are skipped).
    settled: bool,
}

/// Checks 18 gains: finite, 0.0-2.0.
pub fn validate_gains(gains: &[f32]) -> Result<[f32; BANDS], DspError> {
    let arr: [f32; BANDS] = gains.try_into().map_err(|_| {
        invalid(format!(
            "equalizer needs {BANDS} band gains, got {}",
            gains.len()
        ))
    })?;
    for (i, g) in arr.iter().enumerate() {
        if !g.is_finite() || *g < 0.0 || *g as f64 > MAX_GAIN {
            return Err(invalid(format!(
                "equalizer band b{} must be 0.0-2.0, got {g}",
                i + 1
            )));
        }
    }
    Ok(arr)
}

impl Equalizer {
    /// An equalizer at `rate` for `channels` channels, starting at `gains` (no ramp).
    pub fn new(rate: u32, channels: usize, gains: &[f32; BANDS]) -> Result<Self, DspError> {
        check_channels(channels)?;
        if rate < 8_000 {
            return Err(invalid(format!(
                "sample rate must be at least 8000 Hz, got {rate}"
            )));
        }
        let gains = validate_gains(gains)?;
        let designer = Designer::new(rate);
        let design = designer.design(&gains);
        let isa = Isa::detect();
        let mut eq = Equalizer {
            rate,
            channels,
            isa,
            designer,
            design,
            current_db: design.gain_db,
            step_db: [0.0; BANDS],
            ln_alpha: design.shapes.map(|s| s.alpha().ln()),
            step_ln_alpha: [0.0; BANDS],
            steps_left: [0; BANDS],
            linger: [0; BANDS],
            coefs: [Coefs::default(); BANDS],
            lanes: Lanes::new(isa, channels),
            settled: false,
        };
        for b in 0..BANDS {
            eq.coefs[b] = design.shapes[b].coefs(design.gain_db[b]);
        }
        // Nothing ramps yet: settled, with the running bands laid out.
        eq.settle();
        Ok(eq)
    }

    /// Forces the kernel of `isa` (tests, benchmarks); the filters keep their states.
    pub fn with_isa(mut self, isa: Isa) -> Self {
        let mut states = [[(0.0, 0.0); MAX_CHANNELS]; BANDS];
        self.lanes.read_states(&mut states);
        self.isa = isa;
        self.lanes = Lanes::new(isa, self.channels);
        self.lay_out();
        self.lanes.write_states(&states);
        self.settle();
        self
    }

    pub fn rate(&self) -> u32 {
        self.rate
    }

    pub fn channels(&self) -> usize {
        self.channels
    }

    /// The target gains (slider values).
    pub fn gains(&self) -> &[f32; BANDS] {
        &self.design.gains
    }

    /// The design played (or ramped to): its `response_db` is the equalizer's response.
    pub fn design(&self) -> &Design {
        &self.design
    }

    /// The designer for this equalizer's rate, to design away from the audio thread.
    pub fn designer(&self) -> &Designer {
        &self.designer
    }

    /// The gain in dB band `band`'s filter applies right now (it ramps towards the design's).
    pub fn current_db(&self, band: usize) -> f64 {
        self.current_db[band]
    }

    /// True when every filter is flat and none is ramping: processing is then a no-op.
    pub fn is_flat(&self) -> bool {
        if self.settled {
            return self.lanes.bands().is_empty();
        }
        (0..BANDS).all(|b| !self.band_runs(b))
    }

    /// Marks the equalizer settled when no band ramps or lingers, laying out the bands that
    /// run (see `settled`).
    fn settle(&mut self) {
        self.settled =
            self.steps_left.iter().all(|&s| s == 0) && self.linger.iter().all(|&l| l == 0);
        if self.settled {
            self.lay_out();
        }
    }

    fn band_runs(&self, b: usize) -> bool {
        self.current_db[b] != 0.0 || self.steps_left[b] > 0 || self.linger[b] > 0
    }

    /// Sets new target gains: designs the filters (a few hundred microseconds, no allocation),
    /// then ramps to them as [`Equalizer::set_design`]. Same gains again do nothing.
    pub fn set_gains(&mut self, gains: &[f32]) -> Result<(), DspError> {
        let gains = validate_gains(gains)?;
        if gains == self.design.gains {
            return Ok(());
        }
        let design = self.designer.design(&gains);
        self.set_design(&design)
    }

    /// Ramps to a design made elsewhere (`Designer::new(rate).design(&gains)`, on a control
    /// thread): each changed filter moves over [`RAMP_MS`]. Cheap and allocation-free; refused
    /// when the design is for another sample rate.
    pub fn set_design(&mut self, design: &Design) -> Result<(), DspError> {
        if design.rate != self.rate {
            return Err(invalid(format!(
                "equalizer design is for {} Hz, the equalizer runs at {} Hz",
                design.rate, self.rate
            )));
        }
        validate_gains(&design.gains)?;
        for b in 0..BANDS {
            let (db, shape) = (design.gain_db[b], design.shapes[b]);
            let alpha = shape.alpha();
            let sound = (FILTER_MIN_DB..=FILTER_MAX_DB).contains(&db)
                && alpha.is_finite()
                && alpha > 0.0
                && self.designer.same_centre(b, &shape);
            if !sound {
                return Err(invalid(format!(
                    "equalizer design: filter {} must be {FILTER_MIN_DB} to {FILTER_MAX_DB} dB with \
                     a positive width at this equalizer's centre, got {db} dB, alpha {alpha}",
                    b + 1
                )));
            }
        }
        let ramp_blocks = ((RAMP_MS / 1000.0 * self.rate as f64) / SUBBLOCK as f64)
            .ceil()
            .max(1.0);
        for b in 0..BANDS {
            let (db, shape) = (design.gain_db[b], design.shapes[b]);
            if db == self.design.gain_db[b] && shape == self.design.shapes[b] {
                continue;
            }
            let ln_alpha = shape.alpha().ln();
            if self.current_db[b] == 0.0 {
                // A flat filter is the identity whatever its width: start at the new width.
                self.ln_alpha[b] = ln_alpha;
            }
            self.step_db[b] = (db - self.current_db[b]) / ramp_blocks;
            self.step_ln_alpha[b] = if db == 0.0 {
                0.0
            } else {
                (ln_alpha - self.ln_alpha[b]) / ramp_blocks
            };
            self.steps_left[b] = ramp_blocks as usize;
            self.settled = false;
        }
        self.design = *design;
        Ok(())
    }

    /// Clears the filter states (silence in the past).
    pub fn reset(&mut self) {
        self.lanes.clear_all();
    }

    /// Equalizes `buf` in place.
    pub fn process(&mut self, buf: &mut AudioBuffer) -> Result<(), DspError> {
        self.process_with(buf, Kernel::Pipelined)
    }

    /// The scalar reference of [`Equalizer::process`]; bit-identical results.
    pub fn process_reference(&mut self, buf: &mut AudioBuffer) -> Result<(), DspError> {
        self.process_with(buf, Kernel::Reference)
    }

    fn process_with(&mut self, buf: &mut AudioBuffer, kernel: Kernel) -> Result<(), DspError> {
        if buf.channels() != self.channels {
            return Err(DspError::ChannelMismatch {
                expected: self.channels,
                actual: buf.channels(),
            });
        }
        if self.is_flat() || buf.frames() == 0 {
            return Ok(());
        }
        let _ftz = FlushDenormals::new();
        let frames = buf.frames();
        let cap = buf.capacity();
        if self.settled {
            let block = Planes {
                data: buf.raw_mut(),
                cap,
                channels: self.channels,
                frames,
            };
            self.kernel(kernel, block);
            return Ok(());
        }
        let mut offset = 0;
        while offset < frames {
            let ramping = self.steps_left.iter().any(|s| *s > 0);
            let n = if ramping {
                self.advance_ramps();
                SUBBLOCK.min(frames - offset)
            } else {
                frames - offset
            };
            self.run(kernel, &mut buf.raw_mut()[offset..], cap, n);
            offset += n;
        }
        self.settle();
        Ok(())
    }

    fn advance_ramps(&mut self) {
        for b in 0..BANDS {
            if self.steps_left[b] > 0 {
                self.steps_left[b] -= 1;
                let shape = if self.steps_left[b] == 0 {
                    self.current_db[b] = self.design.gain_db[b];
                    if self.current_db[b] == 0.0 {
                        self.linger[b] = self.decay_frames(b);
                    } else {
                        self.ln_alpha[b] = self.design.shapes[b].alpha().ln();
                    }
                    // The design's exact coefficients, as `Design::response_db` computes them.
                    self.design.shapes[b]
                } else {
                    self.current_db[b] += self.step_db[b];
                    self.ln_alpha[b] += self.step_ln_alpha[b];
                    self.design.shapes[b].with_alpha(self.ln_alpha[b].exp())
                };
                self.coefs[b] = shape.coefs(self.current_db[b]);
                self.lanes.set_coefs(b, &self.coefs[b]);
            }
        }
    }

    /// Frames for filter `b`, now flat, to let its state decay by 120 dB through its poles
    /// (radius^2 = (1 - alpha) / (1 + alpha) at 0 dB) before it stops: a narrow former notch
    /// takes longer than the 0.1 s that is the least.
    fn decay_frames(&self, b: usize) -> usize {
        let alpha = self.ln_alpha[b].exp();
        let per_frame_db = -10.0 * ((1.0 - alpha) / (1.0 + alpha)).log10();
        let frames = (120.0 / per_frame_db).ceil();
        let rate = self.rate as usize;
        if frames.is_finite() {
            (frames as usize).clamp(rate / 10, 4 * rate)
        } else {
            4 * rate
        }
    }

    /// Lays out the bands that run now, if they are not the ones laid out (a ramp began, or a
    /// filter that went flat has stopped); returns how many run.
    fn lay_out(&mut self) -> usize {
        let mut running = [0usize; BANDS];
        let mut count = 0;
        for b in 0..BANDS {
            if self.band_runs(b) {
                running[count] = b;
                count += 1;
            }
        }
        if self.lanes.bands() != &running[..count] {
            self.lanes.arrange(&running[..count], &self.coefs);
        }
        count
    }

    /// Runs the bands that run over `n` frames starting at the front of `data` (channel stride
    /// `cap`).
    fn run(&mut self, kernel: Kernel, data: &mut [f32], cap: usize, n: usize) {
        let count = self.lay_out();
        let block = Planes {
            data,
            cap,
            channels: self.channels,
            frames: n,
        };
        self.kernel(kernel, block);
        for k in 0..count {
            let b = self.lanes.bands()[k];
            if self.linger[b] > 0 {
                self.linger[b] = self.linger[b].saturating_sub(n);
                if self.linger[b] == 0 && self.current_db[b] == 0.0 {
                    // Flat again and settled: the filter is the identity, its state is spent.
                    self.lanes.clear(b);
                }
            }
        }
    }

    /// Runs the laid-out bands over `block` with `kernel`, then clears a state a NaN or an
    /// infinity got into.
    fn kernel(&mut self, kernel: Kernel, block: Planes) {
        let count = self.lanes.bands().len();
        match kernel {
            Kernel::Pipelined => cascade::run_pipelined(self.isa, &mut self.lanes, block),
            Kernel::Reference => {
                // Band order, stage after stage: the states go through band order and back.
                let mut states = [[(0.0, 0.0); MAX_CHANNELS]; BANDS];
                self.lanes.read_states(&mut states);
                let mut coefs = [Coefs::default(); BANDS];
                let mut state = [[(0.0, 0.0); MAX_CHANNELS]; BANDS];
                for (k, &b) in self.lanes.bands().iter().enumerate() {
                    (coefs[k], state[k]) = (self.coefs[b], states[b]);
                }
                let stages = Stages {
                    coefs: &coefs[..count],
                    state: &mut state[..count],
                };
                cascade::run_reference(stages, block);
                for (k, &b) in self.lanes.bands().iter().enumerate() {
                    states[b] = state[k];
                }
                self.lanes.write_states(&states);
            }
        }
        // A NaN or infinity that got in must not poison the filter forever.
        self.lanes.sanitize();
    }
}
