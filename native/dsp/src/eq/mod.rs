//! The 18-band equalizer: peaking biquads at half-octave centres, smoothed live changes.
//!
//! Gains are linear amplitude factors 0.0-2.0 per band (1.0 flat); the decibel mapping is
//! [`gain_to_db`]. A change ramps each band linearly in dB over [`RAMP_MS`], recomputing the
//! coefficients every [`SUBBLOCK`] frames, so no step exceeds a fraction of a dB (no zipper
//! noise). Bands at 1.0 that are not ramping are not run at all.

mod cascade;
mod design;
#[cfg(test)]
mod reference_tests;
#[cfg(test)]
mod tests;

pub use design::{
    centre, gain_to_db, magnitude, response_db, Coefs, PeakingShape, BANDS, BAND_CENTRES, BAND_Q,
    MAX_CENTRE_FRACTION, MAX_GAIN, MIN_GAIN,
};

use cascade::{Lanes, Planes, Stages};

use crate::buffer::{AudioBuffer, MAX_CHANNELS};
use crate::denormal::FlushDenormals;
use crate::error::{check_channels, invalid, DspError};
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
    shapes: [PeakingShape; BANDS],
    gains: [f32; BANDS],
    target_db: [f64; BANDS],
    current_db: [f64; BANDS],
    step_db: [f64; BANDS],
    steps_left: [usize; BANDS],
    /// Frames a band that ramped back to flat keeps running so its state decays smoothly.
    linger: [usize; BANDS],
    coefs: [Coefs; BANDS],
    state: [[(f32, f32); MAX_CHANNELS]; BANDS],
    // Per call: the coefficients and states of the bands that run, in band order.
    active: [usize; BANDS],
    active_coefs: [Coefs; BANDS],
    active_state: [[(f32, f32); MAX_CHANNELS]; BANDS],
    lanes: Lanes,
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
        let shapes = std::array::from_fn(|b| PeakingShape::new(centre(b, rate), rate, BAND_Q));
        let mut eq = Equalizer {
            rate,
            channels,
            isa: Isa::detect(),
            shapes,
            gains,
            target_db: [0.0; BANDS],
            current_db: [0.0; BANDS],
            step_db: [0.0; BANDS],
            steps_left: [0; BANDS],
            linger: [0; BANDS],
            coefs: [Coefs::default(); BANDS],
            state: [[(0.0, 0.0); MAX_CHANNELS]; BANDS],
            active: [0; BANDS],
            active_coefs: [Coefs::default(); BANDS],
            active_state: [[(0.0, 0.0); MAX_CHANNELS]; BANDS],
            lanes: Lanes::new(),
        };
        for b in 0..BANDS {
            let db = if gains[b] == 1.0 {
                0.0
            } else {
                gain_to_db(gains[b] as f64)
            };
            eq.target_db[b] = db;
            eq.current_db[b] = db;
            eq.coefs[b] = eq.shapes[b].coefs(db);
        }
        Ok(eq)
    }

    /// Forces the portable kernel (tests, benchmarks).
    pub fn with_isa(mut self, isa: Isa) -> Self {
        self.isa = isa;
        self
    }

    pub fn rate(&self) -> u32 {
        self.rate
    }

    pub fn channels(&self) -> usize {
        self.channels
    }

    /// The target gains.
    pub fn gains(&self) -> &[f32; BANDS] {
        &self.gains
    }

    /// The gain in dB a band applies right now (it ramps towards the target).
    pub fn current_db(&self, band: usize) -> f64 {
        self.current_db[band]
    }

    /// True when every band is at 1.0 and none is ramping: processing is then a no-op.
    pub fn is_flat(&self) -> bool {
        (0..BANDS).all(|b| !self.band_runs(b))
    }

    fn band_runs(&self, b: usize) -> bool {
        self.current_db[b] != 0.0 || self.steps_left[b] > 0 || self.linger[b] > 0
    }

    /// Sets new target gains; each changed band ramps over [`RAMP_MS`]. Never allocates.
    pub fn set_gains(&mut self, gains: &[f32]) -> Result<(), DspError> {
        let gains = validate_gains(gains)?;
        let ramp_blocks = ((RAMP_MS / 1000.0 * self.rate as f64) / SUBBLOCK as f64)
            .ceil()
            .max(1.0);
        for b in 0..BANDS {
            if gains[b] == self.gains[b] {
                continue;
            }
            let db = if gains[b] == 1.0 {
                0.0
            } else {
                gain_to_db(gains[b] as f64)
            };
            self.target_db[b] = db;
            self.step_db[b] = (db - self.current_db[b]) / ramp_blocks;
            self.steps_left[b] = ramp_blocks as usize;
        }
        self.gains = gains;
        Ok(())
    }

    /// Clears the filter states (silence in the past).
    pub fn reset(&mut self) {
        self.state = [[(0.0, 0.0); MAX_CHANNELS]; BANDS];
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
        Ok(())
    }

    fn advance_ramps(&mut self) {
        for b in 0..BANDS {
            if self.steps_left[b] > 0 {
                self.steps_left[b] -= 1;
                self.current_db[b] = if self.steps_left[b] == 0 {
                    if self.target_db[b] == 0.0 {
                        self.linger[b] = self.rate as usize / 10;
                    }
                    self.target_db[b]
                } else {
                    self.current_db[b] + self.step_db[b]
                };
                self.coefs[b] = self.shapes[b].coefs(self.current_db[b]);
            }
        }
    }

    /// Runs the active bands over `n` frames starting at the front of `data` (channel stride
    /// `cap`).
    fn run(&mut self, kernel: Kernel, data: &mut [f32], cap: usize, n: usize) {
        let mut count = 0;
        for b in 0..BANDS {
            if self.band_runs(b) {
                self.active[count] = b;
                self.active_coefs[count] = self.coefs[b];
                self.active_state[count] = self.state[b];
                count += 1;
            }
        }
        let stages = Stages {
            coefs: &self.active_coefs[..count],
            state: &mut self.active_state[..count],
        };
        let block = Planes {
            data,
            cap,
            channels: self.channels,
            frames: n,
        };
        match kernel {
            Kernel::Reference => cascade::run_reference(stages, block),
            Kernel::Pipelined => cascade::run_pipelined(self.isa, &mut self.lanes, stages, block),
        }
        for k in 0..count {
            let b = self.active[k];
            self.state[b] = self.active_state[k];
            if self.linger[b] > 0 {
                self.linger[b] = self.linger[b].saturating_sub(n);
                if self.linger[b] == 0 && self.current_db[b] == 0.0 {
                    // Flat again and settled: the filter is the identity, its state is spent.
                    self.state[b] = [(0.0, 0.0); MAX_CHANNELS];
                }
            }
            // A NaN or infinity that got in must not poison the filter forever.
            for s in &mut self.state[b][..self.channels] {
                if !(s.0.is_finite() && s.1.is_finite()) {
                    *s = (0.0, 0.0);
                }
            }
        }
    }
}
