//! The per-path 8x8 channel gain matrix and its defaults for every pair of layouts.
//!
//! Defaults, in this order:
//! 1. A speaker present in both layouts passes at gain 1.
//! 2. Down-mix (ITU-R BS.775 style, not normalised): a missing centre goes to FL/FR at -3 dB
//!    (0.7071); missing back (side) speakers go to the side (back) pair at 1, else to FL/FR at
//!    -3 dB; a missing back centre goes to BL/BR (else SL/SR) at -3 dB, else to FL/FR at -6 dB
//!    (0.5); FLC/FRC go to FL/FR. A mono input (FC without FL/FR) is duplicated to FL/FR at 1. LFE is dropped when the output has none (as ITU says).
//!    A mono output is the stereo down-mix averaged: 0.5 (L + R).
//! 3. Duplicating up-mix: an output speaker that nothing reached copies its nearest input:
//!    FL/FR from FC (mono), FC from 0.5 (FL + FR), back and side pairs from each other or from
//!    FL/FR, BC from the average of a pair, FLC/FRC from FL/FR. LFE is never synthesised
//!    (full-range content does not belong on a subwoofer feed).

use crate::buffer::{AudioBuffer, MAX_CHANNELS};
use crate::error::{invalid, DspError};
use crate::layout::{ChannelLayout, Speaker};

const MINUS_3DB: f32 = std::f32::consts::FRAC_1_SQRT_2;

/// Gains from up to 8 input channels to up to 8 output channels: `gain(out, in)`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct MixMatrix {
    inputs: usize,
    outputs: usize,
    gains: [[f32; MAX_CHANNELS]; MAX_CHANNELS],
}

impl MixMatrix {
    /// All-zero matrix (silence) of the given size.
    pub fn zeros(inputs: usize, outputs: usize) -> Result<Self, DspError> {
        for (what, n) in [("inputs", inputs), ("outputs", outputs)] {
            if n == 0 || n > MAX_CHANNELS {
                return Err(invalid(format!(
                    "matrix {what} must be 1-{MAX_CHANNELS}, got {n}"
                )));
            }
        }
        Ok(MixMatrix {
            inputs,
            outputs,
            gains: [[0.0; MAX_CHANNELS]; MAX_CHANNELS],
        })
    }

    /// Channel i to channel i at gain 1.
    pub fn identity(channels: usize) -> Result<Self, DspError> {
        let mut m = MixMatrix::zeros(channels, channels)?;
        for c in 0..channels {
            m.gains[c][c] = 1.0;
        }
        Ok(m)
    }

    /// From rows (one per output channel, one gain per input channel).
    pub fn from_rows(rows: &[&[f32]]) -> Result<Self, DspError> {
        let inputs = rows.first().map_or(0, |r| r.len());
        let mut m = MixMatrix::zeros(inputs, rows.len())?;
        for (o, row) in rows.iter().enumerate() {
            if row.len() != inputs {
                return Err(invalid(
                    "every matrix row must have one gain per input channel",
                ));
            }
            for (i, g) in row.iter().enumerate() {
                m.set_gain(o, i, *g)?;
            }
        }
        Ok(m)
    }

    /// The default mapping between two layouts (see the module documentation).
    pub fn default_for(input: ChannelLayout, output: ChannelLayout) -> MixMatrix {
        let mut m = MixMatrix::zeros(input.channels(), output.channels())
            .expect("layouts hold 1-8 channels");
        let has_front_pair = output.has(Speaker::FrontLeft) && output.has(Speaker::FrontRight);
        if !has_front_pair {
            // Mono-like output: average the stereo down-mix into FC; keep LFE if both have it.
            let stereo = MixMatrix::default_for(input, ChannelLayout::STEREO);
            for out_speaker in output.speakers() {
                let o = output.index_of(out_speaker).unwrap_or(0);
                if out_speaker == Speaker::FrontCenter {
                    for i in 0..input.channels() {
                        m.gains[o][i] = 0.5 * (stereo.gains[0][i] + stereo.gains[1][i]);
                    }
                } else if let Some(i) = input.index_of(out_speaker) {
                    m.gains[o][i] = 1.0;
                } else if let Some(fc) = output.index_of(Speaker::FrontCenter) {
                    // Other speakers of an odd layout without FL/FR copy the centre feed.
                    m.gains[o] = m.gains[fc];
                }
            }
            return m;
        }
        use Speaker::*;
        let add = |m: &mut MixMatrix, to: Speaker, from_index: usize, g: f32| {
            if let Some(o) = output.index_of(to) {
                m.gains[o][from_index] += g;
            }
        };
        // 1 + 2: direct and down-mix.
        for (i, s) in input.speakers().enumerate() {
            if output.has(s) {
                add(&mut m, s, i, 1.0);
                continue;
            }
            let pair = |l: Speaker, r: Speaker| output.has(l) && output.has(r);
            match s {
                FrontCenter => {
                    // A centre with no front pair beside it (mono) is duplicated, not folded.
                    let g = if input.has(FrontLeft) || input.has(FrontRight) {
                        MINUS_3DB
                    } else {
                        1.0
                    };
                    add(&mut m, FrontLeft, i, g);
                    add(&mut m, FrontRight, i, g);
                }
                BackLeft | BackRight | SideLeft | SideRight => {
                    let left = matches!(s, BackLeft | SideLeft);
                    let (other_l, other_r) = if matches!(s, BackLeft | BackRight) {
                        (SideLeft, SideRight)
                    } else {
                        (BackLeft, BackRight)
                    };
                    if pair(other_l, other_r) {
                        add(&mut m, if left { other_l } else { other_r }, i, 1.0);
                    } else {
                        add(
                            &mut m,
                            if left { FrontLeft } else { FrontRight },
                            i,
                            MINUS_3DB,
                        );
                    }
                }
                BackCenter => {
                    if pair(BackLeft, BackRight) {
                        add(&mut m, BackLeft, i, MINUS_3DB);
                        add(&mut m, BackRight, i, MINUS_3DB);
                    } else if pair(SideLeft, SideRight) {
                        add(&mut m, SideLeft, i, MINUS_3DB);
                        add(&mut m, SideRight, i, MINUS_3DB);
                    } else {
                        add(&mut m, FrontLeft, i, 0.5);
                        add(&mut m, FrontRight, i, 0.5);
                    }
                }
                FrontLeftOfCenter => add(&mut m, FrontLeft, i, 1.0),
                FrontRightOfCenter => add(&mut m, FrontRight, i, 1.0),
                LowFrequency | FrontLeft | FrontRight => {}
            }
        }
        // 3: duplicating up-mix for outputs nothing reached.
        let fed = |m: &MixMatrix, o: usize| m.gains[o].iter().any(|g| *g != 0.0);
        let src = |s: Speaker| input.index_of(s);
        for (o, s) in output.speakers().enumerate() {
            if s == LowFrequency || fed(&m, o) {
                continue;
            }
            let pick_pair =
                |l: Speaker, r: Speaker| -> Option<(usize, usize)> { Some((src(l)?, src(r)?)) };
            let first_pair =
                |pairs: &[(Speaker, Speaker)]| pairs.iter().find_map(|(l, r)| pick_pair(*l, *r));
            let side_of = |left: bool, pairs: &[(Speaker, Speaker)]| {
                first_pair(pairs).map(|(l, r)| if left { l } else { r })
            };
            match s {
                FrontLeft | FrontRight | FrontLeftOfCenter | FrontRightOfCenter => {
                    let left = matches!(s, FrontLeft | FrontLeftOfCenter);
                    if let Some(i) = side_of(left, &[(FrontLeft, FrontRight)]).or(src(FrontCenter))
                    {
                        m.gains[o][i] = 1.0;
                    }
                }
                FrontCenter => {
                    if let Some((l, r)) = pick_pair(FrontLeft, FrontRight) {
                        m.gains[o][l] = 0.5;
                        m.gains[o][r] = 0.5;
                    }
                }
                BackLeft | BackRight | SideLeft | SideRight => {
                    let left = matches!(s, BackLeft | SideLeft);
                    let order: &[(Speaker, Speaker)] = if matches!(s, BackLeft | BackRight) {
                        &[(SideLeft, SideRight), (FrontLeft, FrontRight)]
                    } else {
                        &[(BackLeft, BackRight), (FrontLeft, FrontRight)]
                    };
                    if let Some(i) = side_of(left, order)
                        .or(src(BackCenter))
                        .or(src(FrontCenter))
                    {
                        m.gains[o][i] = 1.0;
                    }
                }
                BackCenter => {
                    if let Some((l, r)) = first_pair(&[
                        (BackLeft, BackRight),
                        (SideLeft, SideRight),
                        (FrontLeft, FrontRight),
                    ]) {
                        m.gains[o][l] = 0.5;
                        m.gains[o][r] = 0.5;
                    } else if let Some(i) = src(FrontCenter) {
                        m.gains[o][i] = 1.0;
                    }
                }
                LowFrequency => {}
            }
        }
        m
    }

    pub fn inputs(&self) -> usize {
        self.inputs
    }

    pub fn outputs(&self) -> usize {
        self.outputs
    }

    pub fn gain(&self, output: usize, input: usize) -> f32 {
        self.gains[output][input]
    }

    /// Sets one gain; it must be finite and within +-8 (+18 dB).
    pub fn set_gain(&mut self, output: usize, input: usize, gain: f32) -> Result<(), DspError> {
        if output >= self.outputs || input >= self.inputs {
            return Err(invalid(format!(
                "matrix entry ({output}, {input}) is outside {}x{}",
                self.outputs, self.inputs
            )));
        }
        if !gain.is_finite() || gain.abs() > 8.0 {
            return Err(invalid(format!(
                "matrix gain must be finite and within -8..8, got {gain}"
            )));
        }
        self.gains[output][input] = gain;
        Ok(())
    }

    /// True when applying the matrix changes nothing (square identity).
    pub fn is_identity(&self) -> bool {
        self.inputs == self.outputs
            && (0..self.outputs).all(|o| {
                (0..self.inputs).all(|i| self.gains[o][i] == if o == i { 1.0 } else { 0.0 })
            })
    }

    /// `output = matrix * input`, frame by frame. `output` gets `input.frames()` frames.
    pub fn apply_into(
        &self,
        input: &AudioBuffer,
        output: &mut AudioBuffer,
    ) -> Result<(), DspError> {
        if input.channels() != self.inputs {
            return Err(DspError::ChannelMismatch {
                expected: self.inputs,
                actual: input.channels(),
            });
        }
        if output.channels() != self.outputs {
            return Err(DspError::ChannelMismatch {
                expected: self.outputs,
                actual: output.channels(),
            });
        }
        let frames = input.frames();
        if frames > output.capacity() {
            return Err(DspError::OutputTooSmall {
                needed: frames,
                available: output.capacity(),
            });
        }
        output.set_frames(frames);
        for o in 0..self.outputs {
            let row = &self.gains[o][..self.inputs];
            let out = output.channel_mut(o);
            let mut first = true;
            for (i, &g) in row.iter().enumerate() {
                if g == 0.0 {
                    continue;
                }
                let inp = input.channel(i);
                match (first, g == 1.0) {
                    (true, true) => out.copy_from_slice(inp),
                    (true, false) => out.iter_mut().zip(inp).for_each(|(y, x)| *y = g * x),
                    (false, true) => out.iter_mut().zip(inp).for_each(|(y, x)| *y += x),
                    (false, false) => out.iter_mut().zip(inp).for_each(|(y, x)| *y += g * x),
                }
                first = false;
            }
            if first {
                out.fill(0.0);
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::layout::NAMED_LAYOUTS;

    fn layout(name: &str) -> ChannelLayout {
        name.parse().unwrap()
    }

    fn row(
        m: &MixMatrix,
        out: ChannelLayout,
        s: Speaker,
        inp: ChannelLayout,
    ) -> Vec<(Speaker, f32)> {
        let o = out.index_of(s).unwrap();
        inp.speakers()
            .enumerate()
            .filter(|(i, _)| m.gain(o, *i) != 0.0)
            .map(|(i, sp)| (sp, m.gain(o, i)))
            .collect()
    }

    #[test]
    fn every_layout_pair_has_a_sane_default() {
        for (a, _) in NAMED_LAYOUTS {
            for (b, _) in NAMED_LAYOUTS {
                let (la, lb) = (layout(a), layout(b));
                let m = MixMatrix::default_for(la, lb);
                assert_eq!((m.inputs(), m.outputs()), (la.channels(), lb.channels()));
                if la == lb {
                    assert!(m.is_identity(), "{a}->{b}");
                }
                // Every non-LFE input is heard somewhere; every non-LFE output gets something.
                for (i, s) in la.speakers().enumerate() {
                    if s != Speaker::LowFrequency {
                        assert!(
                            (0..m.outputs()).any(|o| m.gain(o, i) > 0.0),
                            "{a}->{b}: {s:?} lost"
                        );
                    }
                }
                for (o, s) in lb.speakers().enumerate() {
                    if s != Speaker::LowFrequency {
                        assert!(
                            (0..m.inputs()).any(|i| m.gain(o, i) > 0.0),
                            "{a}->{b}: {s:?} silent"
                        );
                    }
                    // No output sums more than 1 + 3 x 0.7071 (7.1 -> stereo: L + C + BL + SL).
                    let sum: f32 = (0..m.inputs()).map(|i| m.gain(o, i)).sum();
                    assert!(sum <= 3.122, "{a}->{b}: row sum {sum}");
                }
            }
        }
    }

    #[test]
    fn itu_downmix_and_duplicating_upmix() {
        let (st, s51, mono, s71) = (
            layout("stereo"),
            layout("5.1"),
            layout("mono"),
            layout("7.1"),
        );
        let m = MixMatrix::default_for(s51, st);
        assert_eq!(
            row(&m, st, Speaker::FrontLeft, s51),
            [
                (Speaker::FrontLeft, 1.0),
                (Speaker::FrontCenter, MINUS_3DB),
                (Speaker::BackLeft, MINUS_3DB)
            ]
        );
        let m = MixMatrix::default_for(st, mono);
        assert_eq!(
            row(&m, mono, Speaker::FrontCenter, st),
            [(Speaker::FrontLeft, 0.5), (Speaker::FrontRight, 0.5)]
        );
        let m = MixMatrix::default_for(mono, st);
        assert_eq!(
            row(&m, st, Speaker::FrontRight, mono),
            [(Speaker::FrontCenter, 1.0)]
        );
        let m = MixMatrix::default_for(st, s71);
        assert_eq!(
            row(&m, s71, Speaker::SideRight, st),
            [(Speaker::FrontRight, 1.0)]
        );
        assert_eq!(
            row(&m, s71, Speaker::FrontCenter, st),
            [(Speaker::FrontLeft, 0.5), (Speaker::FrontRight, 0.5)]
        );
        assert!(row(&m, s71, Speaker::LowFrequency, st).is_empty());
        let m = MixMatrix::default_for(s71, layout("5.1"));
        assert_eq!(
            row(&m, s51, Speaker::BackLeft, s71),
            [(Speaker::BackLeft, 1.0), (Speaker::SideLeft, 1.0)]
        );
    }

    #[test]
    fn apply_mixes_and_validates() {
        let m = MixMatrix::from_rows(&[&[0.5, 0.5]]).unwrap();
        let inp = AudioBuffer::from_planes(&[&[1.0, 0.0], &[0.0, -1.0]]).unwrap();
        let mut out = AudioBuffer::new(1, 4);
        m.apply_into(&inp, &mut out).unwrap();
        assert_eq!(out.channel(0), &[0.5, -0.5]);
        let mut wrong = AudioBuffer::new(2, 4);
        assert!(m.apply_into(&inp, &mut wrong).is_err());
        let mut m2 = MixMatrix::identity(2).unwrap();
        assert!(m2.set_gain(0, 1, f32::NAN).is_err());
        assert!(m2.set_gain(2, 0, 1.0).is_err());
        assert!(MixMatrix::zeros(9, 1).is_err());
    }
}
