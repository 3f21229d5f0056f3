//! The equalizer's coefficients and filter states in the order its pipelined kernels read them,
//! kept that way between calls.
//!
//! The kernels lay the (stage, channel) pairs of a group of channels out as vector lanes, lane =
//! stage x C + channel (see `cascade.rs`). The portable kernel takes every channel as one group;
//! the register kernels take channels in pairs, and pad each group's last lane vector with
//! identity stages (y = x) so its output lanes sit at a fixed place. Only a change of which
//! bands run ([`Lanes::arrange`], on a ramp's start or a filter's stop) moves states between
//! lanes; a ramp rewrites the coefficients of the bands it moves ([`Lanes::set_coefs`]);
//! nothing is copied per call.

use super::design::{Coefs, BANDS};
use crate::buffer::MAX_CHANNELS;
use crate::simd::Isa;

/// Lanes of the widest group (18 stages x 8 channels), one channel group of spill-over for the
/// shifted stores, and padding to a multiple of 8.
pub(crate) const LANES: usize = BANDS * MAX_CHANNELS + MAX_CHANNELS;
/// Steps the register kernel runs between refills of its staging buffers.
pub(crate) const STAGE_STEPS: usize = 128;

/// The samples a kernel runs over: `channels` planes of `frames` samples, `cap` apart.
pub(crate) struct Planes<'a> {
    pub data: &'a mut [f32],
    pub cap: usize,
    pub channels: usize,
    pub frames: usize,
}

/// Stages in band order, as the scalar reference runs them: coefficients, and the (s1, s2) of
/// each stage and channel.
pub(crate) struct Stages<'a> {
    pub coefs: &'a [Coefs],
    pub state: &'a mut [[(f32, f32); MAX_CHANNELS]],
}

/// The lanes of one group of channels.
#[derive(Clone, Debug)]
pub(crate) struct Group {
    /// First channel of the group and how many it has (1-2 for the register kernels).
    pub first: usize,
    pub channels: usize,
    /// Stages laid out: the running bands, then identity stages filling the last vector.
    pub stages: usize,
    /// Lanes in use, a multiple of 8.
    pub padded: usize,
    pub b0: Vec<f32>,
    pub a1d2: Vec<f32>,
    pub c2: Vec<f32>,
    pub a1: Vec<f32>,
    pub a2: Vec<f32>,
    pub s1: Vec<f32>,
    pub s2: Vec<f32>,
}

impl Group {
    fn new(first: usize, channels: usize) -> Self {
        let z = || vec![0.0f32; LANES + MAX_CHANNELS];
        Group {
            first,
            channels,
            stages: 0,
            padded: 0,
            b0: z(),
            a1d2: z(),
            c2: z(),
            a1: z(),
            a2: z(),
            s1: z(),
            s2: z(),
        }
    }

    fn write_coefs(&mut self, stage: usize, c: &Coefs) {
        for lane in stage * self.channels..(stage + 1) * self.channels {
            self.b0[lane] = c.b0;
            self.a1d2[lane] = c.a1d2;
            self.c2[lane] = c.c2;
            self.a1[lane] = c.a1;
            self.a2[lane] = c.a2;
        }
    }
}

/// Scratch the kernels share between groups and calls (no state lives here between calls).
#[derive(Clone, Debug)]
pub(crate) struct Scratch {
    /// The inputs of the current and the next step, per lane.
    pub pa: Vec<f32>,
    pub pb: Vec<f32>,
    /// Frame-interleaved staging of the register kernel's inputs and outputs (one vector load
    /// and one vector store per step instead of a scalar loop per channel; x86-64 only).
    #[cfg_attr(not(target_arch = "x86_64"), allow(dead_code))]
    pub xin: Vec<f32>,
    #[cfg_attr(not(target_arch = "x86_64"), allow(dead_code))]
    pub yout: Vec<f32>,
}

impl Scratch {
    pub fn new() -> Self {
        Scratch {
            pa: vec![0.0; LANES + MAX_CHANNELS],
            pb: vec![0.0; LANES + MAX_CHANNELS],
            xin: vec![0.0; STAGE_STEPS * MAX_CHANNELS + 8],
            yout: vec![0.0; STAGE_STEPS * MAX_CHANNELS + 8],
        }
    }
}

/// Every group's lanes, the bands they hold, and the kernel they are laid out for.
#[derive(Clone, Debug)]
pub(crate) struct Lanes {
    /// Laid out for the register kernels (channel pairs, identity padding).
    pub register: bool,
    pub groups: Vec<Group>,
    /// The bands that run, in order: stage k is band `bands[k]`.
    bands: [usize; BANDS],
    count: usize,
    scratch: Scratch,
}

impl Lanes {
    /// Empty lanes (no band runs) for `channels` channels and the kernel `isa` runs.
    pub fn new(isa: Isa, channels: usize) -> Self {
        let register = isa != Isa::Baseline && cfg!(target_arch = "x86_64");
        let groups = if register {
            (0..channels)
                .step_by(2)
                .map(|first| Group::new(first, 2.min(channels - first)))
                .collect()
        } else {
            vec![Group::new(0, channels)]
        };
        Lanes {
            register,
            groups,
            bands: [0; BANDS],
            count: 0,
            scratch: Scratch::new(),
        }
    }

    /// The bands laid out, in order.
    pub fn bands(&self) -> &[usize] {
        &self.bands[..self.count]
    }

    /// The groups and the kernels' scratch.
    pub fn parts(&mut self) -> (&mut [Group], &mut Scratch) {
        (&mut self.groups, &mut self.scratch)
    }

    /// Lays out `bands` (in band order) with their coefficients: a band that was laid out keeps
    /// its state, a band new to the lanes starts from silence (the state of a band that does
    /// not run is silence, see [`super::Equalizer`]).
    pub fn arrange(&mut self, bands: &[usize], coefs: &[Coefs; BANDS]) {
        let mut states = [[(0.0f32, 0.0f32); MAX_CHANNELS]; BANDS];
        self.read_states(&mut states);
        self.count = bands.len();
        self.bands[..bands.len()].copy_from_slice(bands);
        let register = self.register;
        for g in &mut self.groups {
            let c = g.channels;
            g.padded = (bands.len() * c).div_ceil(8) * 8;
            // The register kernels fill the last vector with identity stages; the portable
            // kernel runs only the real ones (zero coefficients beyond: no output, no state).
            g.stages = if register { g.padded / c } else { bands.len() };
            for lane in 0..g.padded + c {
                let k = lane / c;
                let (coefs, state) = match bands.get(k) {
                    Some(&b) => (coefs[b], states[b][g.first + lane % c]),
                    None if k < g.stages => (IDENTITY, (0.0, 0.0)),
                    None => (Coefs::default(), (0.0, 0.0)),
                };
                g.b0[lane] = coefs.b0;
                g.a1d2[lane] = coefs.a1d2;
                g.c2[lane] = coefs.c2;
                g.a1[lane] = coefs.a1;
                g.a2[lane] = coefs.a2;
                (g.s1[lane], g.s2[lane]) = state;
            }
        }
    }

    /// New coefficients for band `band` (a ramp step), if it is laid out.
    pub fn set_coefs(&mut self, band: usize, c: &Coefs) {
        if let Some(k) = self.bands().iter().position(|&b| b == band) {
            for g in &mut self.groups {
                g.write_coefs(k, c);
            }
        }
    }

    /// Silence in the past of band `band` (every channel).
    pub fn clear(&mut self, band: usize) {
        if let Some(k) = self.bands().iter().position(|&b| b == band) {
            for g in &mut self.groups {
                let lanes = k * g.channels..(k + 1) * g.channels;
                g.s1[lanes.clone()].fill(0.0);
                g.s2[lanes].fill(0.0);
            }
        }
    }

    /// Silence in the past of every band.
    pub fn clear_all(&mut self) {
        for g in &mut self.groups {
            g.s1.fill(0.0);
            g.s2.fill(0.0);
        }
    }

    /// Clears any state that is not finite (a NaN or infinity that got in must not poison a
    /// filter forever). One pass over the states in use; nothing is written when all are.
    pub fn sanitize(&mut self) {
        for g in &mut self.groups {
            let n = g.padded;
            let sum: f32 = g.s1[..n]
                .iter()
                .chain(&g.s2[..n])
                .fold(0.0, |a, x| a + x * 0.0);
            if sum == 0.0 {
                continue;
            }
            for lane in 0..n {
                if !(g.s1[lane].is_finite() && g.s2[lane].is_finite()) {
                    (g.s1[lane], g.s2[lane]) = (0.0, 0.0);
                }
            }
        }
    }

    /// The states of the laid-out bands, in band order (for the scalar reference and for a
    /// change of layout).
    pub fn read_states(&self, states: &mut [[(f32, f32); MAX_CHANNELS]; BANDS]) {
        for (k, &b) in self.bands().iter().enumerate() {
            for g in &self.groups {
                for ch in 0..g.channels {
                    let lane = k * g.channels + ch;
                    states[b][g.first + ch] = (g.s1[lane], g.s2[lane]);
                }
            }
        }
    }

    /// Sets the states of the laid-out bands from band order (after the scalar reference).
    pub fn write_states(&mut self, states: &[[(f32, f32); MAX_CHANNELS]; BANDS]) {
        for (k, &b) in self.bands[..self.count].iter().enumerate() {
            for g in &mut self.groups {
                for ch in 0..g.channels {
                    let lane = k * g.channels + ch;
                    (g.s1[lane], g.s2[lane]) = states[b][g.first + ch];
                }
            }
        }
    }

    /// Lanes holding `stages` as given (tests: any cascade, not only an equalizer's bands).
    #[cfg(test)]
    pub fn of_stages(isa: Isa, channels: usize, stages: &Stages) -> Self {
        assert!(stages.coefs.len() <= BANDS);
        let mut lanes = Lanes::new(isa, channels);
        let mut coefs = [Coefs::default(); BANDS];
        coefs[..stages.coefs.len()].copy_from_slice(stages.coefs);
        let bands: Vec<usize> = (0..stages.coefs.len()).collect();
        lanes.arrange(&bands, &coefs);
        let mut states = [[(0.0f32, 0.0f32); MAX_CHANNELS]; BANDS];
        states[..stages.state.len()].copy_from_slice(stages.state);
        lanes.write_states(&states);
        lanes
    }

    /// Copies the states back to `stages` (tests).
    #[cfg(test)]
    pub fn store_into(&self, stages: Stages) {
        let mut states = [[(0.0f32, 0.0f32); MAX_CHANNELS]; BANDS];
        self.read_states(&mut states);
        let n = stages.state.len();
        stages.state.copy_from_slice(&states[..n]);
    }
}

/// A stage that passes its input through (pads the register kernel's last vector).
const IDENTITY: Coefs = Coefs {
    b0: 1.0,
    b1: 0.0,
    b2: 0.0,
    a1: 0.0,
    a2: 0.0,
    d2: 0.0,
    a1d2: 0.0,
    c2: 0.0,
};
