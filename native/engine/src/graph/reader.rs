//! A source read at one delay and converted to one sink rate: reads the source's
//! [`SourceBuffer`] at the delay, converts the rate with a drift-corrected ratio, conceals gaps
//! with short fades, and keeps the queued audio at the jitter target. Nothing here depends on
//! the path, so one reader serves every path with the same (source, sink rate, delay): a
//! [`crate::graph::tap::Tap`] runs it once and its paths copy the result.
//!
//! Rate control: `step = source_rate / sink_rate * (1 + applied)`, where `applied` is the
//! [`RateControl`]'s bounded, slowly slewing sum of the source's measured drift and a
//! correction for the filtered buffer error (see [`crate::graph::clock`] for the bounds and
//! the skip/repeat policy). The buffer is measured against the source's continuous head
//! ([`SourceBuffer::head_at`]), not the write head that steps once per packet, so the play
//! position for a given time does not depend on where in the packet cycle a sink's tick falls:
//! sinks ticking at different instants stay aligned, and latency stays put as the sender's and
//! the router's clocks slide past each other. A stream starts with a prebuffer: silence until a
//! full target is queued (the target covers the sender's bursts from its first one, see
//! [`SourceBuffer::target_frames`]), so nothing runs dry right after the first packet. If the
//! buffer runs dry anyway it holds silence until a full target is queued again, and counts it
//! ([`Glitches`]).
//!
//! The conversion itself is the DSP core's band-limited polyphase [`Resampler`], whose ratio
//! adjustment carries drift and correction; it is fed on demand so each call yields exactly the
//! frames the sink's tick needs.

use crate::graph::clock::{Action, RateControl};
use crate::graph::crossfade::{Crossfade, MIN_XFADE_S, SEARCH_S, XFADE_S};
use crate::source::buffer::SourceBuffer;
use crate::source::glitches::Glitches;
use tributary_dsp::{AudioBuffer, Resampler};

/// A stall shorter than this is an underrun (counted); longer, the sender paused.
const PAUSE_S: f64 = 0.5;
/// Length of concealment and jump fades.
const FADE_S: f64 = 0.005;

#[derive(Clone, Copy, Debug, PartialEq)]
enum Ramp {
    Steady,
    /// Fading out (frames done) before jumping to the position.
    Out(usize, u64),
    /// Fading in (frames done).
    In(usize),
    /// Crossfading to a new position ([`SourceReader::xfade`]).
    Cross,
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
    /// Source frames after which the conversion's phase repeats.
    phase_period: u64,
    clock: RateControl,
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
    /// The skip or repeat being crossfaded, with its buffers: the stretch the reader would
    /// have played and the candidates around the new position.
    xfade: Option<Crossfade>,
    xfade_len: usize,
    min_xfade: usize,
    search: usize,
    xold: Vec<f32>,
    xregion: Vec<f32>,
    /// Set when this block ran past the newest audio while the source is sending; kept until
    /// a fade in progress ends (the re-buffer waits for it), with the silence played meanwhile.
    ran_dry: bool,
    dry_frames: u64,
    /// Holding silence (since this time) until the buffer refills after running dry.
    stalled_since: Option<f64>,
    /// The current hold is the initial prebuffer, not an underrun.
    prebuffering: bool,
    /// When the reader last let go of a stream that stopped (it had played all of it): if the
    /// stream comes back within [`PAUSE_S`], the silence until it plays again was a stall (a
    /// buffer over 200 ms outlasts the source's activity), counted as an underrun.
    released_s: Option<f64>,
    /// Sink frames of silence played in the current hold (counted once it proves short).
    stall_frames: u64,
    /// The current hold already raised the source's target.
    noted_underrun: bool,
    /// Everything a listener could hear go wrong, in source frames.
    pub glitches: Glitches,
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
        let xfade_len = ((XFADE_S * f64::from(source_rate)) as usize).max(1);
        let search = (SEARCH_S * f64::from(source_rate)) as usize;
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
            phase_period: u64::from(source_rate / gcd(source_rate, sink_rate.max(1)).max(1)),
            clock: RateControl::new(source_rate),
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
            dry_frames: 0,
            stalled_since: None,
            prebuffering: false,
            released_s: None,
            out_fade: ((FADE_S * f64::from(sink_rate)) as usize).max(1),
            xfade: None,
            xfade_len,
            min_xfade: ((MIN_XFADE_S * f64::from(source_rate)) as usize).max(1),
            search,
            xold: vec![0.0; xfade_len.max(1) * channels],
            xregion: vec![0.0; (xfade_len + 2 * search + 1) * channels],
            stall_frames: 0,
            noted_underrun: false,
            glitches: Glitches::default(),
        }
    }

    /// The source position this path is playing, as if it had no delay.
    pub fn play_position(&self) -> u64 {
        self.current_position().round() as u64 + self.delay
    }

    /// The rate adjustment applied now, in ppm (the source's drift and the buffer correction).
    pub fn applied_ppm(&self) -> f64 {
        self.clock.applied() * 1e6
    }

    /// The part of [`SourceReader::applied_ppm`] that corrects the buffer error.
    pub fn correction_ppm(&self) -> f64 {
        self.clock.correction() * 1e6
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
        self.released_s = None;
        self.stalled_since = None;
        self.ramp = Ramp::In(0);
    }

    fn jump_to(&mut self, position: u64) {
        self.next_in = position;
        self.fifo_len = 0;
        self.resampler.reset();
        self.clock.resynced();
        self.in_hole = false;
        self.fade_in_left = self.fade_len;
        self.xfade = None;
        // A hole found before the jump is no longer ahead.
        self.ran_dry = false;
        self.dry_frames = 0;
    }

    /// Renders `out.len() / channels` frames at the sink rate (source channel layout). Returns
    /// true when the block is silence because nothing plays (not started, prebuffering, idle),
    /// so what follows can skip work on it.
    pub fn render(&mut self, src: &SourceBuffer, now_s: f64, out: &mut [f32]) -> bool {
        let c = self.channels;
        let frames_out = out.len() / c;
        let dt = frames_out as f64 / self.sink_rate;
        if self.locked && self.is_spent(src, now_s) {
            // The stream ended and everything it sent has played (its fade and the filter's
            // tail too): release, so an idle source costs nothing. A new stream starts the way
            // the first one did (its first frame, after a prebuffer).
            self.locked = false;
            self.released_s = Some(now_s);
        }
        if !self.locked {
            if !src.is_active(now_s) {
                out.fill(0.0);
                return true;
            }
            // Start with the stream's first frame when it only just began (nothing of it is
            // skipped), or a target behind the newest audio when joining a running stream; then
            // prebuffer: hold silence until a full target is queued.
            let target = src.target_frames();
            let head = src.timeline.write_head();
            let start = src.stream_start_pos.max(head.saturating_sub(target as u64));
            self.jump_to(start.saturating_sub(self.delay));
            self.clock.start(src.drift.trusted_ppm() * 1e-6);
            self.locked = true;
            self.prebuffering = true;
            self.stalled_since = Some(now_s);
        }
        let target = src.target_frames();
        if let Some(since) = self.stalled_since {
            // Measured as if there were no delay, so a delayed path keeps exactly its delay
            // behind an undelayed one.
            let fill = src.head_at(now_s) - self.next_in as f64 - self.delay as f64;
            if fill < target {
                if !self.prebuffering {
                    self.stall_frames += frames_out as u64;
                }
                out.fill(0.0);
                return true;
            }
            // Refilled: a short glitch is an underrun; a long wait was the sender pausing; the
            // first fill is just the start. A start begins exactly a target behind the
            // continuous head (what came in the same packet or burst beyond it is skipped,
            // before anything plays), so readers starting at different instants in the packet
            // cycle start with the same latency.
            let short = now_s - since < PAUSE_S && !self.prebuffering;
            if short && !std::mem::replace(&mut self.noted_underrun, true) {
                // A glitch, not the end of a stream: queue more from now on, starting with
                // this refill (resuming at the old target would leave the buffer short of the
                // new one, to be made up by pitch).
                src.note_underrun();
                if fill < src.target_frames() {
                    self.stall_frames += frames_out as u64;
                    out.fill(0.0);
                    return true;
                }
            }
            self.noted_underrun = false;
            let first = std::mem::take(&mut self.prebuffering);
            // The skip is whole periods of the rate ratio (147 frames for 44.1 to 48 kHz), so
            // the converter's phase stays that of the stream's first frame.
            let skip = (fill - target) as u64 / self.phase_period * self.phase_period;
            if first && skip > 0 {
                let start = self.next_in + skip;
                self.jump_to(start);
            }
            if now_s - since < PAUSE_S && !first {
                self.glitches.underruns += 1;
                self.glitches.silence_frames += self.to_source_frames(self.stall_frames);
            }
            match self.released_s.take() {
                Some(gone) if first && since - gone < PAUSE_S => {
                    // The stream came back soon after this reader had played all of it: the
                    // silence since then was a stall, not a pause.
                    self.glitches.underruns += 1;
                    let sink_frames = ((now_s - gone) * self.sink_rate).round() as u64;
                    self.glitches.silence_frames += self.to_source_frames(sink_frames);
                }
                _ => {}
            }
            self.stall_frames = 0;
            self.stalled_since = None;
            self.clock.refilled();
            self.ramp = Ramp::In(0);
        }
        // Control only while packets flow: at the end of a stream (or in a pause) the queue
        // shrinks because nothing arrives, which is not a clock error.
        let drift = src.drift.trusted_ppm() * 1e-6;
        if self.ramp == Ramp::Steady {
            let fill = src.head_at(now_s) - self.current_position() - self.delay as f64;
            let flowing = src.is_flowing(now_s);
            if let Action::Move(by) = self.clock.step(fill, target, drift, flowing, dt) {
                let from = self.next_in as i64;
                // Never before what the source still holds, never past its newest audio.
                let lowest = src.timeline.oldest() as i64;
                let highest = src.timeline.write_head() as i64 - self.delay as i64;
                self.begin_move(src, from + by, lowest, highest.max(lowest));
            }
        } else {
            self.clock.step(0.0, target, drift, false, dt);
        }
        let adjust = self.clock.applied().clamp(-0.05, 0.05);
        let _ = self.resampler.set_ratio_adjust(adjust);
        let step = self.step_nominal * (1.0 + adjust);
        let mut pushes = 0;
        while self.fifo_len < frames_out && pushes < 64 {
            pushes += 1;
            let need = frames_out - self.fifo_len;
            let count = ((need as f64 * step).ceil() as usize + 1).clamp(1, self.chunk);
            self.fetch(src, now_s, count);
            self.in_buf.load_interleaved(&self.stage[..count * c]);
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
        if self.ran_dry && self.ramp == Ramp::Steady {
            // Re-buffer: the gap already faded out; go back to the first position not played
            // and hold silence until a full target of audio is queued again. Nothing is
            // skipped and nothing is played twice.
            self.apply_ramp(out);
            let resume = self.hole_start;
            let before = self.dry_frames;
            self.jump_to(resume);
            self.stalled_since = Some(now_s);
            // The silent end of this block is part of the stall (and so is the silence of
            // blocks that ran dry during a fade).
            self.stall_frames = before + silent_tail(out, c);
            return false;
        }
        self.apply_ramp(out);
        if self.ran_dry {
            // Ran dry during a fade (just after a skip landed at the newest audio): the
            // re-buffer waits for the fade's end, and counts what this block played of the
            // gap.
            self.dry_frames += silent_tail(out, c);
        }
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

    /// Sink frames as source frames.
    fn to_source_frames(&self, sink_frames: u64) -> u64 {
        (sink_frames as f64 * self.step_nominal).round() as u64
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

/// Frames of silence at the end of interleaved `out` (`c` channels).
fn silent_tail(out: &[f32], c: usize) -> u64 {
    out.chunks_exact(c)
        .rev()
        .take_while(|f| f.iter().all(|v| *v == 0.0))
        .count() as u64
}

fn gcd(a: u32, b: u32) -> u32 {
    if b == 0 {
        a
    } else {
        gcd(b, a % b)
    }
}

/// A delay in source frames: how far behind the newest audio a reader reads.
pub fn delay_frames(delay_s: f64, source_rate: u32) -> u64 {
    (delay_s.max(0.0) * f64::from(source_rate)) as u64
}

mod edges;
mod moves;

#[cfg(test)]
mod cap_tests;
#[cfg(test)]
mod dry_tests;
#[cfg(test)]
mod move_tests;
#[cfg(test)]
mod tests;
