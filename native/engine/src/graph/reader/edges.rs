//! The edges of what a reader plays: fades around starts and around moves that cannot
//! crossfade ([`Ramp`]), and
//! concealment of absent audio (a lost packet, or the buffer running dry) by mirroring the
//! audio before the gap backwards while fading it out.

use super::{Ramp, SourceReader};
use crate::source::buffer::SourceBuffer;

impl SourceReader {
    pub(super) fn apply_ramp(&mut self, out: &mut [f32]) {
        let c = self.channels;
        match self.ramp {
            Ramp::Steady | Ramp::Cross => {}
            Ramp::In(done) => {
                let mut k = done;
                for frame in out.chunks_exact_mut(c) {
                    if k >= self.out_fade {
                        break;
                    }
                    let g = k as f32 / self.out_fade as f32;
                    frame.iter_mut().for_each(|s| *s *= g);
                    k += 1;
                }
                self.ramp = if k >= self.out_fade {
                    Ramp::Steady
                } else {
                    Ramp::In(k)
                };
            }
            Ramp::Out(done, position) => {
                let mut k = done;
                for frame in out.chunks_exact_mut(c) {
                    let g = 1.0 - (k as f32 / self.out_fade as f32).min(1.0);
                    frame.iter_mut().for_each(|s| *s *= g);
                    k += 1;
                }
                if k >= self.out_fade {
                    // The rest of the block after the fade is silence.
                    let silent = (k - self.out_fade.max(done)) as u64;
                    self.glitches.silence_frames += self.to_source_frames(silent);
                    self.jump_to(position);
                    self.ramp = Ramp::In(0);
                } else {
                    self.ramp = Ramp::Out(k, position);
                }
            }
        }
    }

    /// Reads the next `count` source frames into `stage` from frame `first` on, concealing
    /// absent ones.
    pub(super) fn fetch_run(&mut self, src: &SourceBuffer, now_s: f64, first: usize, count: usize) {
        let c = self.channels;
        let tl = &src.timeline;
        let mut done = 0;
        while done < count {
            let pos = self.next_in + done as u64;
            let at = (first + done) * c;
            let run = tl.present_run(pos, (count - done) as u64) as usize;
            if run > 0 {
                let dst = &mut self.stage[at..at + run * c];
                tl.copy_out(pos, dst);
                if self.in_hole {
                    self.in_hole = false;
                    self.fade_in_left = self.fade_len;
                }
                for frame in dst.chunks_exact_mut(c) {
                    if self.fade_in_left == 0 {
                        break;
                    }
                    let g = 1.0 - self.fade_in_left as f32 / self.fade_len as f32;
                    frame.iter_mut().for_each(|s| *s *= g);
                    self.fade_in_left -= 1;
                }
                done += run;
                continue;
            }
            if !self.in_hole {
                self.in_hole = true;
                self.hole_start = pos;
                self.hole_k = 0;
                self.hole_at_head = pos >= tl.write_head() && src.is_active(now_s);
                self.ran_dry |= self.hole_at_head;
                // Before the stream's first frame (a delayed path waiting for it) nothing is
                // missing.
                if !self.hole_at_head && pos < tl.write_head() && pos >= src.stream_start_pos {
                    self.glitches.concealed += 1;
                }
            }
            // Mirror the audio before the gap backwards while fading it out: continuous at the
            // edge, silent after FADE_S.
            let frame = &mut self.stage[at..at + c];
            if self.hole_k < self.fade_len && self.hole_start > self.hole_k as u64 {
                let mirror = self.hole_start - 1 - self.hole_k as u64;
                if tl.read_frame(mirror, frame) {
                    let g = 1.0 - self.hole_k as f32 / self.fade_len as f32;
                    frame.iter_mut().for_each(|s| *s *= g);
                }
            } else {
                frame.fill(0.0);
            }
            if !self.hole_at_head && pos >= src.stream_start_pos {
                self.glitches.concealed_frames += 1;
            }
            self.hole_k += 1;
            done += 1;
        }
        self.next_in += count as u64;
    }
}
