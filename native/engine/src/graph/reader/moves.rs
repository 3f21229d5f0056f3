//! A reader's moves (skips and repeats) as crossfades: choosing the aligned position
//! ([`crate::graph::crossfade`]) and mixing the two stretches as the source is read.

use super::{Ramp, SourceReader};
use crate::graph::crossfade::{align, Crossfade, CORRELATED};
use crate::source::buffer::SourceBuffer;

impl SourceReader {
    /// Moves the read position from where it is towards `to` (within `lowest..=highest`, the
    /// audio the source holds): a crossfade to the best-aligned stretch near `to` when both
    /// stretches are there in full, otherwise a fade out and in. Counts the move.
    pub(super) fn begin_move(&mut self, src: &SourceBuffer, to: i64, lowest: i64, highest: i64) {
        let tl = &src.timeline;
        let c = self.channels;
        let from = self.next_in;
        let len = (tl.present_run(from, self.xfade_len as u64) as usize).min(self.xfade_len);
        if len >= self.min_xfade {
            let to = to.clamp(lowest, (highest - len as i64).max(lowest));
            let lo = (to - self.search as i64).max(lowest);
            let hi = (to + self.search as i64).min(highest - len as i64);
            let span = (hi - lo).max(0) as usize + len;
            if hi >= lo && tl.present_run(lo as u64, span as u64) as usize == span {
                tl.copy_out(from, &mut self.xold[..len * c]);
                tl.copy_out(lo as u64, &mut self.xregion[..span * c]);
                let last = (hi - lo) as usize;
                let preferred = (to - lo).clamp(0, hi - lo) as usize;
                let (offset, corr) = align(&self.xold, &self.xregion, c, len, last, preferred);
                let aligned = lo as u64 + offset as u64;
                if aligned != from {
                    self.count_move(aligned as i64 - from as i64);
                    self.xfade = Some(Crossfade {
                        to: aligned,
                        len,
                        done: 0,
                        equal_power: corr < CORRELATED,
                    });
                    self.ramp = Ramp::Cross;
                }
                return;
            }
        }
        let to = to.clamp(lowest, highest.max(lowest));
        if to != from as i64 {
            self.count_move(to - from as i64);
            self.ramp = Ramp::Out(0, to as u64);
        }
    }

    fn count_move(&mut self, moved: i64) {
        if moved > 0 {
            self.glitches.skips += 1;
            self.glitches.skipped_frames += moved as u64;
        } else if moved < 0 {
            self.glitches.repeats += 1;
            self.glitches.repeated_frames += moved.unsigned_abs();
        }
    }

    /// Reads the next `count` source frames into `stage`: through a crossfade in progress
    /// (the reader's own position mixed with the new stretch), then on from wherever that
    /// leaves it.
    pub(super) fn fetch(&mut self, src: &SourceBuffer, now_s: f64, count: usize) {
        let c = self.channels;
        let mut first = 0;
        if let Some(mut x) = self.xfade {
            let m = (x.len - x.done).min(count);
            self.fetch_run(src, now_s, 0, m);
            for k in 0..m {
                let (a, b) = x.gains(x.done + k);
                let frame = &mut self.xold[..c];
                src.timeline.read_frame(x.to + (x.done + k) as u64, frame);
                for (s, n) in self.stage[k * c..(k + 1) * c].iter_mut().zip(frame.iter()) {
                    *s = a * *s + b * n;
                }
            }
            x.done += m;
            first = m;
            if x.done >= x.len {
                // Carry on from the end of the new stretch; the converter never stopped.
                self.next_in = x.to + x.len as u64;
                self.in_hole = false;
                self.fade_in_left = 0;
                self.ran_dry = false;
                self.dry_frames = 0;
                self.xfade = None;
                self.ramp = Ramp::Steady;
            } else {
                self.xfade = Some(x);
            }
        }
        if first < count {
            self.fetch_run(src, now_s, first, count - first);
        }
    }
}
