//! One path (a source playing on a sink) on the engine thread: only what differs per path. The
//! source arrives already read at the path's delay, drift-corrected and converted to the sink
//! rate by the [`Tap`] it shares with every path of the same (source, sink rate, delay); the
//! path copies its frames from the tap and runs its [`PathStages`] (channel matrix, 18-band EQ,
//! volume, optional normalisation), fading in when it joins a tap and over to another tap when
//! its delay changes.
//!
//! Work skipped: a path whose tap has rendered known silence for longer than the EQ's tail, or
//! whose volume is 0, renders nothing (its EQ state is cleared, so it resumes from silence).

use crate::desired::{PathSpec, SinkSpec};
use crate::graph::stages::{Output, PathStages};
use crate::graph::tap::Tap;
use crate::sink::counters::PathCounters;
use crate::source::glitches::Glitches;
use crate::source::slot::{layout_for, SourceSlot};
use crate::work::{self, Work};
use std::sync::Arc;
use tributary_dsp::eq::Design;
use tributary_dsp::{AudioBuffer, ChannelLayout, DspError};

/// Length of the fades when a path joins a playing tap or leaves one for another delay.
pub const FADE_S: f64 = 0.005;
/// Silence after which a path stops running its EQ: every filter of an equalizer design has
/// decayed by 120 dB by then.
const QUIET_S: f64 = 0.5;
const _: () = assert!(QUIET_S >= tributary_dsp::eq::MAX_DECAY_S);

#[derive(Clone, Copy, Debug, PartialEq)]
enum Fade {
    None,
    /// Fading in (frames done) after joining a tap.
    In(usize),
    /// Fading out (frames done) before switching to another tap.
    Out(usize),
}

/// A path's state on the engine thread. Built off the real-time thread; `render` never
/// allocates.
pub struct Path {
    pub spec: PathSpec,
    /// Index of the tap it reads in the engine's table (resolved on apply).
    pub tap: usize,
    /// The delay of that tap: differs from `spec.delay_ms` until a delay change has faded over.
    pub tap_delay_ms: f64,
    /// The tap of the new delay, switched to after the fade-out (resolved on apply).
    pub next_tap: Option<usize>,
    /// Next frame to read from the tap; `None` until joined.
    cursor: Option<u64>,
    /// Where the previous tap was playing when the path left it (zero-delay source position):
    /// the next tap starts there if it is not playing yet.
    seed: Option<u64>,
    /// Tap glitches already reported to the sink's counters.
    seen: Glitches,
    /// What this path played because its source was late (the planner keeps them per sink and
    /// source across applies).
    pub counters: Arc<PathCounters>,
    /// The source's (channels, announced mask) the matrix was built for.
    src_format: (usize, u32),
    stages: PathStages,
    fade: Fade,
    fade_len: usize,
    /// Consecutive frames of known silence read, and how many make the path idle.
    quiet: usize,
    quiet_limit: usize,
    /// Rendering nothing (silent or muted); the EQ state was cleared when it began.
    idle: bool,
}

impl Path {
    /// Builds a path from a source with `src_layout` to `sink`, rendering at most `max_frames`
    /// per tick.
    pub fn new(
        spec: &PathSpec,
        src_layout: ChannelLayout,
        sink: &SinkSpec,
        max_frames: usize,
    ) -> Result<Self, DspError> {
        let rate = f64::from(sink.sample_rate);
        Ok(Self {
            spec: spec.clone(),
            tap: usize::MAX,
            tap_delay_ms: spec.delay_ms,
            next_tap: None,
            cursor: None,
            seed: None,
            seen: Glitches::default(),
            counters: Arc::default(),
            src_format: (src_layout.channels(), src_layout.mask()),
            stages: PathStages::new(spec, src_layout, sink, max_frames)?,
            fade: Fade::None,
            fade_len: ((FADE_S * rate) as usize).max(1),
            quiet: 0,
            quiet_limit: (QUIET_S * rate) as usize,
            idle: false,
        })
    }

    /// Applies changed levels: volume and EQ ramp (to `eq`, the design `apply` made on its own
    /// thread; without one the equalizer designs here). A changed delay is a change of tap,
    /// which the engine resolves into `next_tap`.
    pub fn update(&mut self, spec: PathSpec, eq: Option<&Design>) {
        self.stages.update(&self.spec, &spec, eq);
        self.spec = spec;
    }

    /// Reads from the tap again at the frame its other paths play now (after the sink skipped
    /// ahead), fading in.
    pub fn rejoin(&mut self) {
        self.cursor = None;
    }

    /// Glitches of its tap since the last call, and the source rate they are counted at.
    pub fn take_glitches(&mut self, taps: &[Tap]) -> (Glitches, u32) {
        let Some(tap) = taps.get(self.tap) else {
            return (Glitches::default(), 1);
        };
        let total = tap.glitches();
        let new = total.since(&self.seen);
        self.seen = total;
        (new, tap.source_format().0)
    }

    /// Renders `frames` frames at the sink rate and layout into `out` (the sink's buffer for
    /// its paths, [`PathStages::buffer`]). `now_s` is the router time of the tick, `at_s` when
    /// the first of these frames leaves. Returns the buffer and the gain the mixer applies (the
    /// volume, when it is not ramping), or `None` when the path is silent.
    pub fn render<'a>(
        &mut self,
        taps: &mut [Tap],
        sources: &mut [SourceSlot],
        now_s: f64,
        at_s: f64,
        frames: usize,
        out: &'a mut AudioBuffer,
    ) -> Option<Output<'a>> {
        let frames = frames.min(self.stages.max_frames());
        if let Some(next) = self.next_tap {
            if self.cursor.is_none() || self.idle {
                let here = taps.get(self.tap).and_then(Tap::play_position);
                self.switch_to(next, here);
            } else if !matches!(self.fade, Fade::Out(_)) {
                self.fade = Fade::Out(0);
            }
        }
        let tap = taps.get_mut(self.tap)?;
        let slot = sources.get_mut(tap.source)?;
        // Reading and converting the source is the source's work: a fault there is charged to
        // it, not to the sink (see `crate::supervisor`).
        let sink_work = work::current();
        work::working_on(Work::Source(tap.source));
        let (rate, channels) = (slot.buffer.rate(), slot.buffer.channels());
        tap.follow(rate, channels, slot.generation);
        if self.src_format != (channels, slot.mask) {
            self.src_format = (channels, slot.mask);
            self.stages
                .follow_source_layout(layout_for(channels, slot.mask));
        }
        let cursor = match self.cursor {
            Some(c) if tap.can_read(c, frames) => c,
            _ => {
                if let Some(position) = self.seed.take() {
                    tap.seed(position);
                }
                self.fade = Fade::In(0);
                self.seen = tap.glitches();
                tap.join(at_s)
            }
        };
        let end = cursor + frames as u64;
        tap.render_to(&slot.buffer, now_s, end);
        tap.publish(&slot.counters);
        work::working_on(sink_work);
        tap.anchor(at_s, cursor);
        self.cursor = Some(end);
        if let Some(p) = tap.play_position() {
            slot.buffer.play_pos = slot.buffer.play_pos.max(p);
        }
        let silent = tap.is_silent_from(cursor) && self.fade == Fade::None;
        self.quiet = if silent { self.quiet + frames } else { 0 };
        if self.stages.is_muted() || self.quiet > self.quiet_limit {
            if !self.idle {
                self.idle = true;
                self.stages.reset();
            }
            return None;
        }
        self.idle = false;
        let here = tap.play_position();
        let out = self
            .stages
            .load(frames, |ch, into| tap.read(ch, cursor, into), out);
        let faded_out = self.fade.apply(self.fade_len, out);
        if faded_out {
            // Silent now: over to the tap of the new delay (or, if the change was undone
            // meanwhile, back on the same tap), fading in.
            if let Some(next) = self.next_tap {
                self.switch_to(next, here);
            }
            self.fade = Fade::In(0);
        }
        Some(self.stages.finish(out))
    }

    fn switch_to(&mut self, next: usize, seed: Option<u64>) {
        self.seed = seed;
        self.tap = next;
        self.next_tap = None;
        self.tap_delay_ms = self.spec.delay_ms;
        self.cursor = None;
    }
}

impl Fade {
    /// Fades `buf` in after a join, or out (then silence) before a switch of tap, and moves on;
    /// true when a fade-out has just completed.
    fn apply(&mut self, len: usize, buf: &mut AudioBuffer) -> bool {
        let (done, rising) = match *self {
            Fade::None => return false,
            Fade::In(k) => (k, true),
            Fade::Out(k) => (k, false),
        };
        let frames = buf.frames();
        for ch in 0..buf.channels() {
            for (i, x) in buf.channel_mut(ch).iter_mut().enumerate() {
                let g = ((done + i) as f32 / len as f32).min(1.0);
                *x *= if rising { g } else { 1.0 - g };
            }
        }
        let k = done + frames;
        *self = match (rising, k >= len) {
            (true, true) => Fade::None,
            (true, false) => Fade::In(k),
            (false, false) => Fade::Out(k),
            (false, true) => return true,
        };
        false
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::desired::SinkProtocol;
    use crate::graph::tap::TapKey;
    use crate::options::JitterConfig;
    use tributary_dsp::sample_format::SampleFormat;

    fn spec(delay_ms: f64) -> PathSpec {
        PathSpec {
            delay_ms,
            ..PathSpec::new("s")
        }
    }

    fn sink() -> SinkSpec {
        SinkSpec::new("k", SinkProtocol::Scream, 48_000, 16, ChannelLayout::STEREO)
    }

    /// A source, one tap per delay, and a path on the first tap.
    fn graph(delays: &[f64]) -> (Vec<SourceSlot>, Vec<Tap>, Path) {
        let slot = SourceSlot::new(&spec(0.0), 2000.0, JitterConfig::default(), Arc::default());
        let taps = delays
            .iter()
            .map(|&delay_ms| {
                let key = TapKey {
                    source_id: "s".into(),
                    sink_rate: 48_000,
                    delay_ms,
                };
                let mut tap = Tap::new(key, 48_000, 2);
                tap.source = 0;
                tap
            })
            .collect();
        let mut path = Path::new(&spec(delays[0]), ChannelLayout::STEREO, &sink(), 288).unwrap();
        path.tap = 0;
        (vec![slot], taps, path)
    }

    /// Packet `k`: 288 frames of a 1 kHz sine at half scale (silence when `quiet`).
    fn push(slot: &mut SourceSlot, k: u64, quiet: bool) {
        let bytes: Vec<u8> = (k * 288..(k + 1) * 288)
            .flat_map(|n| {
                let x = 2.0 * std::f64::consts::PI * 1000.0 * n as f64 / 48_000.0;
                let v = if quiet {
                    0
                } else {
                    (0.5 * x.sin() * 32767.0) as i16
                };
                [v.to_be_bytes(), v.to_be_bytes()].concat()
            })
            .collect();
        let t = k as f64 * 0.006;
        slot.buffer
            .push_rtp(k as u16, (k * 288) as u32, &bytes, SampleFormat::S16Be, t);
    }

    /// Renders one 6 ms tick at packet time `k`; the left channel times the gain, if any.
    fn tick(
        path: &mut Path,
        taps: &mut [Tap],
        sources: &mut [SourceSlot],
        k: u64,
    ) -> Option<Vec<f32>> {
        let t = k as f64 * 0.006 + 0.001;
        let mut out = AudioBuffer::new(2, 288);
        path.render(taps, sources, t, t, 288, &mut out)
            .map(|out| out.audio.channel(0).iter().map(|x| x * out.gain).collect())
    }

    /// Largest sample-to-sample change of a 1 kHz sine at half scale, with margin.
    const SMOOTH: f32 = 0.5 * 2.0 * std::f32::consts::PI * 1000.0 / 48_000.0 * 1.3;

    #[test]
    fn a_delay_change_fades_over_to_the_tap_of_the_new_delay() {
        let (mut sources, mut taps, mut path) = graph(&[0.0, 1000.0]);
        // Another path stays on the undelayed tap.
        let mut still = Path::new(&spec(0.0), ChannelLayout::STEREO, &sink(), 288).unwrap();
        still.tap = 0;
        let (mut prev, mut max_step) = (0.0f32, 0.0f32);
        for k in 0..1000u64 {
            push(&mut sources[0], k, false);
            tick(&mut still, &mut taps, &mut sources, k);
            if k == 500 {
                // What apply does: new levels, and the tap of the new delay to switch to.
                path.update(spec(1000.0), None);
                path.next_tap = Some(1);
            }
            let out = tick(&mut path, &mut taps, &mut sources, k).expect("playing");
            if k > 20 {
                for x in out {
                    max_step = max_step.max((x - prev).abs());
                    prev = x;
                }
            } else {
                prev = *out.last().unwrap();
            }
        }
        assert_eq!((path.tap, path.next_tap), (1, None));
        assert_eq!(path.tap_delay_ms, 1000.0);
        // Faded out and in: no click.
        assert!(max_step < SMOOTH, "{max_step}");
        // The new tap plays a second (plus the jitter buffer) behind the newest audio, exactly
        // a second behind the undelayed tap (play positions count as if there were no delay).
        let head = sources[0].buffer.timeline.write_head();
        let (now, later) = (taps[0].play_position(), taps[1].play_position());
        let lag_ms = (head + 48_000 - later.unwrap()) as f64 / 48.0;
        assert!((1005.0..1040.0).contains(&lag_ms), "{lag_ms}");
        let apart = now.unwrap().abs_diff(later.unwrap());
        assert!(apart <= 4, "{apart} frames off the 1 s delay");
    }

    /// Renders `ticks` ticks from packet time `*k` on, sending a packet before each when
    /// `send` is set (silent ones when `send == Some(true)`); returns how many rendered audio.
    fn run(
        (sources, taps, path): &mut (Vec<SourceSlot>, Vec<Tap>, Path),
        k: &mut u64,
        ticks: u64,
        send: Option<bool>,
    ) -> usize {
        let mut rendered = 0;
        for _ in 0..ticks {
            if let Some(quiet) = send {
                push(&mut sources[0], *k, quiet);
            }
            rendered += usize::from(tick(path, taps, sources, *k).is_some());
            *k += 1;
        }
        rendered
    }

    #[test]
    fn silent_and_muted_paths_render_nothing_until_sound_returns() {
        let mut g = graph(&[0.0]);
        let mut k = 0;
        assert_eq!(run(&mut g, &mut k, 100, Some(false)), 100);
        // The sender stops: after half a second the path is idle.
        let played = run(&mut g, &mut k, 200, None);
        assert!(played < 100, "{played} of 200 ticks rendered");
        // Sound again: the path plays.
        run(&mut g, &mut k, 50, Some(false));
        assert_eq!(run(&mut g, &mut k, 20, Some(false)), 20);
        // Digital silence sent is mixed like sound (only silence known from the tap is skipped).
        assert_eq!(run(&mut g, &mut k, 20, Some(true)), 20);
        // Muted: nothing to mix once the volume ramp has reached 0.
        let mut muted = spec(0.0);
        muted.volume = 0.0;
        g.2.update(muted, None);
        run(&mut g, &mut k, 5, Some(false));
        assert_eq!(run(&mut g, &mut k, 20, Some(false)), 0);
    }
}
