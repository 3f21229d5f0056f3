//! A sink's mix: every path rendered for this packet, summed with its gain, then the soft
//! limiter. A sink that has mixed nothing for a second is known silence: no limiter, and the
//! output sends zeros without encoding.

use crate::graph::path::Path;
use crate::graph::tap::Tap;
use crate::sink::counters::SinkCounters;
use crate::source::glitches::frames_to_us;
use crate::source::slot::SourceSlot;
use std::sync::atomic::Ordering::Relaxed;
use tributary_dsp::{AudioBuffer, DspError, Mixer};

/// Seconds of nothing mixed after which the limiter's envelope has certainly decayed (80 ms
/// release) and silence can be sent as zeros directly.
const QUIET_S: f64 = 1.0;

/// What a render produced.
pub enum Mixed<'a> {
    /// The mix, limited.
    Audio(&'a AudioBuffer),
    /// This many frames of digital silence.
    Silence(usize),
}

/// The mixer of one sink. Built off the real-time thread; `render` never allocates.
pub struct Mix {
    mixer: Mixer,
    out: AudioBuffer,
    /// Each path renders here before it is added (one buffer for all: it stays in the cache).
    path_out: AudioBuffer,
    /// Frames rendered in a row with no path mixed, and how many make the sink idle.
    quiet: usize,
    quiet_limit: usize,
}

impl Mix {
    /// A mix of `channels` at `rate`, at most `max_frames` per render.
    pub fn new(channels: usize, rate: u32, max_frames: usize) -> Result<Self, DspError> {
        Ok(Self {
            mixer: Mixer::new(channels, rate, max_frames)?,
            out: AudioBuffer::new(channels, max_frames),
            path_out: AudioBuffer::new(channels, max_frames),
            quiet: 0,
            quiet_limit: (QUIET_S * f64::from(rate)) as usize,
        })
    }

    /// Mixes `frames` frames of `paths`, the first leaving at router time `at_s` (`now_s` is
    /// the tick's time); counts the paths' glitches (underruns, silence, concealment) on the sink
    /// and on each path.
    #[allow(clippy::too_many_arguments)]
    pub fn render(
        &mut self,
        paths: &mut [Path],
        sources: &mut [SourceSlot],
        taps: &mut [Tap],
        now_s: f64,
        at_s: f64,
        frames: usize,
        counters: &SinkCounters,
    ) -> Mixed<'_> {
        let _ = self.mixer.begin(frames);
        let mut mixed = 0;
        for path in paths {
            if let Some(out) = path.render(taps, sources, now_s, at_s, frames, &mut self.path_out) {
                let _ = self.mixer.add(out.audio, out.gain);
                mixed += 1;
            }
            let (g, rate) = path.take_glitches(taps);
            if !g.is_empty() {
                counters.underruns.fetch_add(g.underruns, Relaxed);
                counters
                    .silence_us
                    .fetch_add(frames_to_us(g.silence_frames, rate), Relaxed);
                counters.concealed.fetch_add(g.concealed, Relaxed);
                counters
                    .concealed_us
                    .fetch_add(frames_to_us(g.concealed_frames, rate), Relaxed);
                path.counters.add(&g, rate);
            }
        }
        self.quiet = if mixed == 0 {
            self.quiet.saturating_add(frames)
        } else {
            0
        };
        if self.quiet > self.quiet_limit {
            return Mixed::Silence(frames);
        }
        let _ = self.mixer.finish_into(&mut self.out);
        Mixed::Audio(&self.out)
    }
}
