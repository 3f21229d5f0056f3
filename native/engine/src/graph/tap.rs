//! A tap: one source read at one delay and converted to one sink rate, once, for every path
//! that needs exactly that. Drift correction, jitter-buffer control, concealment and rate
//! conversion depend only on the source's clock, the delay and the output rate, not on the
//! path, so 32 sources on 16 sinks at one rate run 32 readers, not 512.
//!
//! The tap renders on demand into a ring of planar frames at the sink rate, indexed by output
//! frame. Each path keeps its own cursor into the ring and copies what its sink's tick needs;
//! the first path to ask for a frame makes the tap render it (at that tick, as a path's own
//! reader would have), the others find it there. Sinks of one rate all consume `rate` frames
//! per second of the router's clock, so cursors stay a tick or so apart.
//!
//! Alignment: a path joining a tap that is already playing starts at the frame the tap's other
//! paths send at the same router time (the tap keeps an anchor, the router time at which some
//! path sends some frame), so two sinks added at different times play one source in step.

use crate::graph::reader::SourceReader;
use crate::sink::meter::MeterWindow;
use crate::source::buffer::SourceBuffer;
use crate::source::counters::SourceCounters;
use crate::source::glitches::Glitches;
use std::sync::atomic::Ordering::Relaxed;

/// Frames rendered per reader call (larger requests are split).
pub const BLOCK: usize = 576;
/// Seconds of output the ring keeps: paths further behind the newest frame rejoin.
const RING_S: f64 = 0.4;

/// What a tap is shared by: the source, the output rate and the delay.
#[derive(Clone, Debug, PartialEq)]
pub struct TapKey {
    pub source_id: String,
    pub sink_rate: u32,
    pub delay_ms: f64,
}

impl TapKey {
    /// Whether the tap with this key serves a path of `source` at `sink_rate` and `delay_ms`.
    pub fn is(&self, source_id: &str, sink_rate: u32, delay_ms: f64) -> bool {
        self.sink_rate == sink_rate
            && self.delay_ms.to_bits() == delay_ms.to_bits()
            && self.source_id == source_id
    }
}

/// A shared reader and the ring of what it rendered. Built off the real-time thread; `render_to`
/// and `read` never allocate.
pub struct Tap {
    pub key: TapKey,
    /// Index of the source in the engine's table (resolved on apply).
    pub source: usize,
    reader: SourceReader,
    source_rate: u32,
    channels: usize,
    /// Interleaved block the reader renders into.
    block: Vec<f32>,
    /// Planar ring: channel `c` occupies `ring[c * cap..(c + 1) * cap]`.
    ring: Vec<f32>,
    cap: usize,
    /// Output frames rendered so far (the ring holds `head - cap..head`).
    head: u64,
    /// One past the last frame of a block that was not known silence.
    audible_until: u64,
    /// (router time, output frame sent then) of the latest path read.
    anchor: Option<(f64, u64)>,
    /// The source buffer generation the reader reads (`None` until the first render).
    generation: Option<u64>,
    /// Glitches already added to the source's counters.
    published: Glitches,
    /// Whether this tap measures the source's levels (one tap per source does, the first; see
    /// [`crate::sink::meter`]), the window it measures and the frames measured so far.
    pub meters: bool,
    meter: MeterWindow,
    metered: u64,
}

impl Tap {
    /// A tap of a source sending `channels` at `source_rate`, rendered at the key's sink rate.
    pub fn new(key: TapKey, source_rate: u32, channels: usize) -> Self {
        let cap = ((RING_S * f64::from(key.sink_rate)) as usize).max(8 * BLOCK);
        Self {
            reader: SourceReader::new(
                channels,
                source_rate,
                key.sink_rate,
                BLOCK,
                key.delay_ms / 1000.0,
            ),
            source: usize::MAX,
            source_rate,
            channels,
            block: vec![0.0; BLOCK * channels],
            ring: vec![0.0; cap * channels],
            cap,
            head: 0,
            audible_until: 0,
            anchor: None,
            generation: None,
            published: Glitches::default(),
            meters: false,
            meter: MeterWindow::new(channels, key.sink_rate),
            metered: 0,
            key,
        }
    }

    /// Keeps reading the source whose buffer is now of `generation`, `channels` at
    /// `source_rate`: a buffer rebuilt for a new format (a new generation) restarts the reader,
    /// since positions in the old buffer mean nothing in the new one.
    pub fn follow(&mut self, source_rate: u32, channels: usize, generation: u64) {
        let same_format = (self.source_rate, self.channels) == (source_rate, channels);
        match self.generation {
            Some(g) if g == generation && same_format => {}
            None if same_format => self.generation = Some(generation),
            _ => {
                self.rebuild_for_source(source_rate, channels);
                self.generation = Some(generation);
            }
        }
    }

    /// The source (rate, channels) the tap reads.
    pub fn source_format(&self) -> (u32, usize) {
        (self.source_rate, self.channels)
    }

    /// Rebuilds the reader after the source changed format (allocates; only when a sender
    /// changes its format). The ring's indices carry on, so paths keep their cursors.
    pub fn rebuild_for_source(&mut self, source_rate: u32, channels: usize) {
        let delay_s = self.key.delay_ms / 1000.0;
        let glitches = self.reader.glitches;
        self.reader = SourceReader::new(channels, source_rate, self.key.sink_rate, BLOCK, delay_s);
        // The totals carry on (paths and the source publish what they add).
        self.reader.glitches = glitches;
        self.source_rate = source_rate;
        self.channels = channels;
        self.meter = MeterWindow::new(channels, self.key.sink_rate);
        self.block = vec![0.0; BLOCK * channels];
        self.ring = vec![0.0; self.cap * channels];
        self.audible_until = 0;
    }

    /// Output channels (the source's).
    pub fn channels(&self) -> usize {
        self.channels
    }

    /// Frames at the sink rate rendered so far.
    pub fn head(&self) -> u64 {
        self.head
    }

    /// Everything the reader did that a listener could hear, since it started.
    pub fn glitches(&self) -> Glitches {
        self.reader.glitches
    }

    /// The reader's applied rate adjustment (ppm).
    pub fn applied_ppm(&self) -> f64 {
        self.reader.applied_ppm()
    }

    /// The zero-delay source position the tap plays (for the source's late-packet accounting).
    pub fn play_position(&self) -> Option<u64> {
        self.reader.is_locked().then(|| self.reader.play_position())
    }

    /// Starts the reader at zero-delay source position `position` if it is not reading yet (a
    /// path arriving from a tap of another delay continues exactly the difference later).
    pub fn seed(&mut self, position: u64) {
        self.reader.start_at(position);
    }

    /// Where a path that sends its next frame at router time `at_s` starts reading: in step
    /// with the tap's other paths, within what the ring holds.
    pub fn join(&self, at_s: f64) -> u64 {
        let aligned = match self.anchor {
            Some((t, frame)) => {
                let offset = ((at_s - t) * f64::from(self.key.sink_rate)).round();
                if offset.is_finite() {
                    (frame as i64).saturating_add(offset as i64).max(0) as u64
                } else {
                    self.head
                }
            }
            None => self.head,
        };
        aligned.clamp(self.oldest(), self.head + BLOCK as u64)
    }

    /// Whether `frames` frames from `cursor` are still (or can be) read.
    pub fn can_read(&self, cursor: u64, frames: usize) -> bool {
        cursor >= self.oldest() && cursor <= self.head + frames as u64
    }

    /// Oldest frame the ring still holds, keeping room for one block being rendered.
    fn oldest(&self) -> u64 {
        self.head.saturating_sub((self.cap - BLOCK) as u64)
    }

    /// Renders until frame `end` exists. `now_s` is the router time of this tick.
    pub fn render_to(&mut self, src: &SourceBuffer, now_s: f64, end: u64) {
        let c = self.channels;
        while self.head < end {
            let n = ((end - self.head) as usize).min(BLOCK);
            let block = &mut self.block[..n * c];
            let silent = self.reader.render(src, now_s, block);
            let at = (self.head % self.cap as u64) as usize;
            let first = n.min(self.cap - at);
            for ch in 0..c {
                let plane = &mut self.ring[ch * self.cap..(ch + 1) * self.cap];
                let frames = block.chunks_exact(c).map(|f| f[ch]);
                for (d, v) in plane[at..at + first].iter_mut().zip(frames.clone()) {
                    *d = v;
                }
                for (d, v) in plane[..n - first].iter_mut().zip(frames.skip(first)) {
                    *d = v;
                }
            }
            self.head += n as u64;
            if !silent {
                self.audible_until = self.head;
            }
        }
    }

    /// Adds what the reader did since the last call to the source's counters, stores its
    /// applied rate adjustment (the last tap of a source to render wins) and, on the tap that
    /// meters the source, measures what it rendered since (when someone watches the levels).
    pub fn publish(&mut self, counters: &SourceCounters) {
        let from = self.metered.max(self.oldest());
        self.metered = self.head;
        if self.meters {
            let (ring, cap) = (&self.ring, self.cap);
            let frames = (self.head - from) as usize;
            self.meter
                .observe_with(frames, self.channels, &counters.meter, |c, i| {
                    ring[c * cap + ((from + i as u64) % cap as u64) as usize]
                });
        }
        let now = self.reader.glitches;
        let new = now.since(&self.published);
        self.published = now;
        counters.add_glitches(&new, self.source_rate);
        counters
            .applied_ppb
            .store((self.reader.applied_ppm() * 1000.0) as i64, Relaxed);
    }

    /// Notes that a path sends frame `cursor` at router time `at_s` (joins align to it).
    pub fn anchor(&mut self, at_s: f64, cursor: u64) {
        self.anchor = Some((at_s, cursor));
    }

    /// Whether frames from `cursor` on are known silence (nothing playing).
    pub fn is_silent_from(&self, cursor: u64) -> bool {
        cursor >= self.audible_until
    }

    /// Copies channel `ch`, frames `cursor..cursor + out.len()`, into `out` (the caller checked
    /// [`Tap::can_read`] and rendered them).
    pub fn read(&self, ch: usize, cursor: u64, out: &mut [f32]) {
        let plane = &self.ring[ch * self.cap..(ch + 1) * self.cap];
        let at = (cursor % self.cap as u64) as usize;
        let first = out.len().min(self.cap - at);
        out[..first].copy_from_slice(&plane[at..at + first]);
        let rest = out.len() - first;
        out[first..].copy_from_slice(&plane[..rest]);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::options::JitterConfig;
    use tributary_dsp::sample_format::SampleFormat;

    fn key(delay_ms: f64) -> TapKey {
        TapKey {
            source_id: "s".into(),
            sink_rate: 48_000,
            delay_ms,
        }
    }

    /// Packet `k` of a stereo ramp: frame n carries n / 2^20 on the left, its negative right.
    fn push(src: &mut SourceBuffer, k: u64, t: f64) {
        let mut bytes = Vec::with_capacity(288 * 4);
        for n in k * 288..(k + 1) * 288 {
            let v = ((n % 20_000) as i16).to_be_bytes();
            bytes.extend_from_slice(&v);
            bytes.extend_from_slice(&v);
        }
        src.push_rtp(k as u16, (k * 288) as u32, &bytes, SampleFormat::S16Be, t);
    }

    #[test]
    fn paths_at_different_phases_read_the_same_frames_rendered_once() {
        let mut src = SourceBuffer::new(48_000, 2, 1.0, JitterConfig::default());
        let mut tap = Tap::new(key(0.0), 48_000, 2);
        // Path a ticks every 6 ms (288 frames); path b every 4 ms (192 frames), 1 ms later.
        let (mut a, mut b): (Option<u64>, Option<u64>) = (None, None);
        let (mut out_a, mut out_b) = (Vec::new(), Vec::new());
        let mut buf = vec![0.0f32; 288];
        let mut k = 0;
        let mut t = 0.0f64;
        let mut next_a = 0.0;
        let mut next_b = 0.001;
        while t < 3.0 {
            while (k as f64) * 0.006 <= t {
                push(&mut src, k, k as f64 * 0.006);
                k += 1;
            }
            for (next, cursor, frames, out) in [
                (&mut next_a, &mut a, 288usize, &mut out_a),
                (&mut next_b, &mut b, 192usize, &mut out_b),
            ] {
                if *next <= t {
                    let c = cursor.unwrap_or_else(|| tap.join(*next));
                    tap.render_to(&src, t, c + frames as u64);
                    tap.anchor(*next, c);
                    tap.read(0, c, &mut buf[..frames]);
                    out.extend_from_slice(&buf[..frames]);
                    *cursor = Some(c + frames as u64);
                    *next += frames as f64 / 48_000.0;
                }
            }
            t += 0.0005;
        }
        // Rendered once: the head is what the leading path consumed, not the sum of both.
        assert!(tap.head() <= a.unwrap().max(b.unwrap()) + 288);
        // b joined 1 ms after a started, 48 frames in, and then carries the same audio as a,
        // frame for frame.
        let n = (out_a.len() - 48).min(out_b.len());
        assert!(n > 100_000);
        assert_eq!(out_a[48..48 + n], out_b[..n]);
        assert!(out_a.iter().any(|v| v.abs() > 0.1), "the tone played");
    }

    #[test]
    fn a_path_joining_later_is_in_step_with_the_others() {
        let src = SourceBuffer::new(48_000, 2, 1.0, JitterConfig::default());
        let mut tap = Tap::new(key(0.0), 48_000, 2);
        let first = tap.join(10.0);
        tap.render_to(&src, 10.0, first + 288);
        tap.anchor(10.0, first);
        // A path whose next frame leaves 3 ms after that sends the frame 144 frames on.
        assert_eq!(tap.join(10.003), first + 144);
        // One far behind starts at the oldest frame the ring holds, never outside it.
        let j = tap.join(0.0);
        assert!(tap.can_read(j, 288));
    }

    #[test]
    fn a_stream_that_ended_renders_known_silence_after_its_delayed_tail() {
        let mut src = SourceBuffer::new(48_000, 2, 2.0, JitterConfig::default());
        let mut tap = Tap::new(key(300.0), 48_000, 2);
        let mut cursor = 0;
        let mut t = 0.0;
        let mut tick = |tap: &mut Tap, src: &SourceBuffer, t: &mut f64| {
            tap.render_to(src, *t + 0.001, cursor + 288);
            cursor += 288;
            *t += 0.006;
            cursor - 288
        };
        for k in 0..200 {
            push(&mut src, k, t);
            tick(&mut tap, &src, &mut t);
        }
        // Nothing arrives any more; the delayed tap still plays the last 300 ms.
        for _ in 0..25 {
            tick(&mut tap, &src, &mut t);
        }
        let last = tick(&mut tap, &src, &mut t);
        assert!(!tap.is_silent_from(last), "the delayed tail plays");
        for _ in 0..50 {
            tick(&mut tap, &src, &mut t);
        }
        // Played out: the reader is released and renders known silence (no reading, no
        // resampling) until the source sends again.
        let last = tick(&mut tap, &src, &mut t);
        assert!(tap.is_silent_from(last));
        assert!(tap.play_position().is_none(), "reader released");
    }
}
