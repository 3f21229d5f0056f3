//! A source read at one delay and converted to one sink rate: reads the source's
//! [`SourceBuffer`] at the delay, converts the rate with a drift-corrected ratio, conceals gaps
//! with short fades, and keeps the queued audio at the jitter target. Nothing here depends on
//! the path, so one reader serves every path with the same (source, sink rate, delay): a
//! [`crate::graph::tap::Tap`] runs it once and its paths copy the result.
//!
//! Rate control: `step = source_rate / sink_rate * (1 + drift) * (1 + correction)`, where
//! `drift` is the source's measured clock error (feed-forward) and `correction` a proportional
//! term on the average buffer error over 100 ms windows (+-0.5 %, inaudible), updated only
//! while packets flow. The buffer is measured against the source's continuous head
//! ([`SourceBuffer::head_at`]), not the write head that steps once per packet, so the play
//! position for a given time does not depend on where in the packet cycle a sink's tick falls:
//! sinks ticking at different instants stay aligned, and latency stays put as the sender's and
//! the router's clocks slide past each other. Too much queued (beyond `max(2 x target, 50 ms)`) is fixed with a jump
//! ahead (fade out, move, fade in); too little never jumps back (that would replay audio): the
//! path slows down, and if it runs dry it holds silence until a full target is queued again.
//!
//! The conversion itself is the DSP core's band-limited polyphase [`Resampler`], whose ratio
//! adjustment carries drift and correction; it is fed on demand so each call yields exactly the
//! frames the sink's tick needs.

use crate::source::buffer::SourceBuffer;
use tributary_dsp::{AudioBuffer, Resampler};

/// Proportional gain: 10 ms of error gives a 0.1 % rate change.
const GAIN_PER_S: f64 = 0.1;
const MAX_CORRECTION: f64 = 0.005;
const WINDOW_S: f64 = 0.1;
/// Length of concealment and jump fades.
const FADE_S: f64 = 0.005;

#[derive(Clone, Copy, Debug, PartialEq)]
enum Ramp {
    Steady,
    /// Fading out (frames done) before jumping to the position.
    Out(usize, u64),
    /// Fading in (frames done).
    In(usize),
}

/// Reads one source at one delay and sink rate. Allocated once; `render` never allocates.
pub struct SourceReader {
    channels: usize,
    step_nominal: f64,
    sink_rate: f64,
    next_in: u64,
    resampler: Resampler,
    /// Source frames fetched for one push (interleaved), then the same planar.
    stage: Vec<f32>,
    in_buf: AudioBuffer,
    res_out: AudioBuffer,
    /// Converted frames not yet rendered (interleaved).
    fifo: Vec<f32>,
    fifo_len: usize,
    /// Most source frames pushed at once.
    chunk: usize,
    correction: f64,
    err_sum: f64,
    err_frames: usize,
    window: usize,
    delay: u64,
    locked: bool,
    fade_len: usize,
    in_hole: bool,
    hole_start: u64,
    hole_k: usize,
    hole_at_head: bool,
    fade_in_left: usize,
    ramp: Ramp,
    out_fade: usize,
    /// Set when this block ran past the newest audio while the source is sending.
    ran_dry: bool,
    /// Holding silence (since this time) until the buffer refills after running dry.
    stalled_since: Option<f64>,
    /// The current hold is the initial prebuffer, not an underrun.
    prebuffering: bool,
    /// Times the buffer ran dry while the source was sending (a glitch, concealed).
    pub underruns: u64,
    /// Gaps concealed because packets were lost.
    pub concealed: u64,
    /// Jumps made to re-centre the buffer.
    pub jumps: u64,
}

impl SourceReader {
    /// A reader from a source (`channels` at `source_rate`) to a sink at `sink_rate`, rendering
    /// at most `max_frames_out` frames per call, `delay_s` behind the jitter target.
    pub fn new(
        channels: usize,
        source_rate: u32,
        sink_rate: u32,
        max_frames_out: usize,
        delay_s: f64,
    ) -> Self {
        let step_nominal = f64::from(source_rate) / f64::from(sink_rate.max(1));
        let chunk = (max_frames_out as f64 * step_nominal * 1.06).ceil() as usize + 8;
        let resampler = converter(source_rate, sink_rate, channels, chunk);
        let res_frames = resampler.max_output_frames(chunk);
        Self {
            channels,
            step_nominal,
            sink_rate: f64::from(sink_rate),
            next_in: 0,
            resampler,
            stage: vec![0.0; chunk * channels],
            in_buf: AudioBuffer::new(channels, chunk),
            res_out: AudioBuffer::new(channels, res_frames),
            fifo: vec![0.0; (max_frames_out + res_frames) * channels],
            fifo_len: 0,
            chunk,
            correction: 0.0,
            err_sum: 0.0,
            err_frames: 0,
            window: (WINDOW_S * f64::from(sink_rate)) as usize,
            delay: delay_frames(delay_s, source_rate),
            locked: false,
            fade_len: ((FADE_S * f64::from(source_rate)) as usize).max(1),
            in_hole: false,
            hole_start: 0,
            hole_k: 0,
            hole_at_head: false,
            fade_in_left: 0,
            ramp: Ramp::Steady,
            ran_dry: false,
            stalled_since: None,
            prebuffering: false,
            out_fade: ((FADE_S * f64::from(sink_rate)) as usize).max(1),
            underruns: 0,
            concealed: 0,
            jumps: 0,
        }
    }

    /// The source position this path is playing, as if it had no delay.
    pub fn play_position(&self) -> u64 {
        self.current_position().round() as u64 + self.delay
    }

    /// The current rate correction in ppm (excluding the source's measured drift).
    pub fn correction_ppm(&self) -> f64 {
        self.correction * 1e6
    }

    pub fn is_locked(&self) -> bool {
        self.locked
    }

    fn current_position(&self) -> f64 {
        self.next_in as f64
            - self.resampler.latency_frames() as f64
            - self.fifo_len as f64 * self.step_nominal
    }

    /// Starts a reader that is not reading yet at zero-delay source position `position` (it
    /// then plays its delay behind that), at once, without a prebuffer: so a path moving here
    /// from a reader of the same source at another delay moves by exactly the difference.
    pub fn start_at(&mut self, position: u64) {
        if self.locked {
            return;
        }
        // After a jump the filter's history is silence centred on the first frame fetched, so
        // that frame is the first one out.
        self.jump_to(position.saturating_sub(self.delay));
        self.locked = true;
        self.prebuffering = false;
        self.stalled_since = None;
        self.correction = 0.0;
        self.ramp = Ramp::In(0);
    }

    fn jump_to(&mut self, position: u64) {
        self.next_in = position;
        self.fifo_len = 0;
        self.resampler.reset();
        self.err_sum = 0.0;
        self.err_frames = 0;
        self.in_hole = false;
        self.fade_in_left = self.fade_len;
    }

    /// Renders `out.len() / channels` frames at the sink rate (source channel layout). Returns
    /// true when the block is silence because nothing plays (not started, prebuffering, idle),
    /// so what follows can skip work on it.
    pub fn render(&mut self, src: &SourceBuffer, now_s: f64, out: &mut [f32]) -> bool {
        let c = self.channels;
        let frames_out = out.len() / c;
        let target = src.target_frames();
        if self.locked && self.is_spent(src, now_s) {
            // The stream ended and everything it sent has played (its fade and the filter's
            // tail too): release, so an idle source costs nothing. A new stream starts the way
            // the first one did (its first frame, after a prebuffer).
            self.locked = false;
            self.correction = 0.0;
        }
        if !self.locked {
            if !src.is_active(now_s) {
                out.fill(0.0);
                return true;
            }
            // Start with the stream's first frame when it only just began (nothing of it is
            // skipped), or a target behind the newest audio when joining a running stream; then
            // prebuffer: hold silence until a full target is queued.
            let head = src.timeline.write_head();
            let start = src.stream_start_pos.max(head.saturating_sub(target as u64));
            self.jump_to(start.saturating_sub(self.delay));
            self.locked = true;
            self.prebuffering = true;
            self.stalled_since = Some(now_s);
        }
        if let Some(since) = self.stalled_since {
            // Measured as if there were no delay, so a delayed path keeps exactly its delay
            // behind an undelayed one.
            let fill = src.head_at(now_s) - self.next_in as f64 - self.delay as f64;
            if fill < target {
                out.fill(0.0);
                return true;
            }
            // Refilled: a short glitch is an underrun; a long wait was the sender pausing; the
            // first fill is just the start.
            let first = std::mem::take(&mut self.prebuffering);
            if now_s - since < 0.5 && !first {
                self.underruns += 1;
                // A glitch, not the end of a stream: queue more from now on.
                src.note_underrun();
            }
            self.stalled_since = None;
            self.ramp = Ramp::In(0);
        }
        // Control only while packets flow: at the end of a stream (or in a pause) the queue
        // shrinks because nothing arrives, which is not a clock error.
        if !src.is_flowing(now_s) {
            self.err_sum = 0.0;
            self.err_frames = 0;
        } else if self.ramp == Ramp::Steady {
            let fill = src.head_at(now_s) - self.current_position() - self.delay as f64;
            self.err_sum += (fill - target) * frames_out as f64;
            self.err_frames += frames_out;
            if self.err_frames >= self.window {
                let err = self.err_sum / self.err_frames as f64;
                self.err_sum = 0.0;
                self.err_frames = 0;
                let err_s = err / f64::from(src.rate());
                // Far too much queued (a burst, a sender catching up): skip ahead. Too little is
                // corrected by slowing down, or by holding silence if it runs dry: never by
                // jumping back, which would play audio twice.
                if err_s > (2.0 * target / f64::from(src.rate())).max(0.05) {
                    let head = src.timeline.write_head();
                    self.ramp = Ramp::Out(0, head.saturating_sub(target as u64 + self.delay));
                    self.correction = 0.0;
                    self.jumps += 1;
                } else {
                    self.correction = (GAIN_PER_S * err_s).clamp(-MAX_CORRECTION, MAX_CORRECTION);
                }
            }
        }
        let adjust =
            ((1.0 + src.drift.ppm() * 1e-6) * (1.0 + self.correction) - 1.0).clamp(-0.05, 0.05);
        let _ = self.resampler.set_ratio_adjust(adjust);
        let step = self.step_nominal * (1.0 + adjust);
        let mut pushes = 0;
        while self.fifo_len < frames_out && pushes < 64 {
            pushes += 1;
            let need = frames_out - self.fifo_len;
            let count = ((need as f64 * step).ceil() as usize + 1).clamp(1, self.chunk);
            self.fetch(src, now_s, count);
            self.in_buf.set_frames(count);
            for ch in 0..c {
                let plane = self.in_buf.channel_mut(ch);
                for (d, frame) in plane
                    .iter_mut()
                    .zip(self.stage[..count * c].chunks_exact(c))
                {
                    *d = frame[ch];
                }
            }
            let produced = self
                .resampler
                .process_into(&self.in_buf, &mut self.res_out)
                .unwrap_or(0);
            let at = self.fifo_len * c;
            for ch in 0..c {
                let plane = &self.res_out.channel(ch)[..produced];
                for (k, v) in plane.iter().enumerate() {
                    self.fifo[at + k * c + ch] = *v;
                }
            }
            self.fifo_len += produced;
        }
        let n = frames_out.min(self.fifo_len);
        out[..n * c].copy_from_slice(&self.fifo[..n * c]);
        out[n * c..].fill(0.0);
        self.fifo.copy_within(n * c..self.fifo_len * c, 0);
        self.fifo_len -= n;
        if std::mem::take(&mut self.ran_dry) && self.ramp == Ramp::Steady {
            // Re-buffer: the gap already faded out; go back to the first position not played
            // and hold silence until a full target of audio is queued again. Nothing is
            // skipped and nothing is played twice.
            self.apply_ramp(out);
            let resume = self.hole_start;
            self.jump_to(resume);
            self.stalled_since = Some(now_s);
            self.correction = 0.0;
            return false;
        }
        self.apply_ramp(out);
        false
    }

    /// Whether the source stopped sending and this reader has played past everything it sent
    /// (output beyond the newest frame plus the concealment fade and the filter's half length:
    /// nothing but zeros is left). A delayed reader stays busy until its delay has played out.
    fn is_spent(&self, src: &SourceBuffer, now_s: f64) -> bool {
        self.ramp == Ramp::Steady
            && self.stalled_since.is_none()
            && !src.is_active(now_s)
            && self.current_position()
                > (src.timeline.write_head()
                    + (self.fade_len + self.resampler.latency_frames()) as u64)
                    as f64
    }

    fn apply_ramp(&mut self, out: &mut [f32]) {
        let c = self.channels;
        match self.ramp {
            Ramp::Steady => {}
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
                    self.jump_to(position);
                    self.ramp = Ramp::In(0);
                } else {
                    self.ramp = Ramp::Out(k, position);
                }
            }
        }
    }

    /// Reads the next `count` source frames into `stage`, concealing absent ones.
    fn fetch(&mut self, src: &SourceBuffer, now_s: f64, count: usize) {
        let c = self.channels;
        let tl = &src.timeline;
        let mut done = 0;
        while done < count {
            let pos = self.next_in + done as u64;
            let at = done * c;
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
                if !self.hole_at_head && pos < tl.write_head() {
                    self.concealed += 1;
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
            self.hole_k += 1;
            done += 1;
        }
        self.next_in += count as u64;
    }

    /// The sink rate this reader renders at.
    pub fn sink_rate(&self) -> f64 {
        self.sink_rate
    }
}

/// The rate converter of a reader from `channels` at `source_rate` to `sink_rate`, taking at
/// most `max_block` source frames at once (a rate the DSP core refuses falls back to a
/// neutral 48 kHz one, so a bad format plays silence instead of failing).
pub fn converter(source_rate: u32, sink_rate: u32, channels: usize, max_block: usize) -> Resampler {
    Resampler::new(source_rate, sink_rate, channels, max_block)
        .or_else(|_| Resampler::new(48_000, 48_000, channels.clamp(1, 8), max_block))
        .expect("48 kHz to 48 kHz with 1-8 channels is always valid")
}

/// A delay in source frames: how far behind the newest audio a reader reads.
pub fn delay_frames(delay_s: f64, source_rate: u32) -> u64 {
    (delay_s.max(0.0) * f64::from(source_rate)) as u64
}

#[cfg(test)]
mod tests;
