//! A sink's (or a source's) levels for the dashboard's meters and visualizer, taken from what is
//! sent (for a source, from what its tap renders into the graph): peak and RMS per channel over windows of about 1/30 s, and the latest [`WAVE_LEN`] samples of the
//! channels' average. The engine thread writes them ([`MeterWindow::observe`]: no allocation,
//! no lock, plain atomic stores) only while someone reads them: each read ([`LevelMeter::read`])
//! keeps the meter running for about two seconds more; nobody reading costs one atomic load per
//! render. Any thread reads; the spectrum is computed by the reader, never on the engine thread.

use std::sync::atomic::{AtomicU32, AtomicU64, Ordering::Relaxed};
use tributary_dsp::{AudioBuffer, MAX_CHANNELS};

/// What a band of the spectrum reads with no signal, dBFS.
pub const SILENT_DB: f32 = tributary_dsp::spectrum::FLOOR_DB;
/// Samples of the waveform ring (a power of two).
pub const WAVE_LEN: usize = 4096;
/// Meter windows per second.
const WINDOWS_PER_S: u32 = 30;
/// Windows a read keeps the meter running for (about two seconds).
const WATCH_WINDOWS: u32 = 2 * WINDOWS_PER_S;

/// What a sink's meter publishes (the engine thread stores, any thread reads).
#[derive(Debug)]
pub struct LevelMeter {
    /// Windows left to measure; 0: nobody is reading, nothing is measured.
    watched: AtomicU32,
    channels: AtomicU32,
    sample_rate: AtomicU32,
    /// Windows published so far.
    windows: AtomicU64,
    /// f32 bits, linear (1.0 is full scale), of the latest window.
    peak: [AtomicU32; MAX_CHANNELS],
    rms: [AtomicU32; MAX_CHANNELS],
    /// f32 bits: the channels' average, a ring indexed by `wave_head % WAVE_LEN`.
    wave: Box<[AtomicU32]>,
    wave_head: AtomicU64,
}

impl Default for LevelMeter {
    fn default() -> Self {
        Self {
            watched: AtomicU32::new(0),
            channels: AtomicU32::new(0),
            sample_rate: AtomicU32::new(0),
            windows: AtomicU64::new(0),
            peak: Default::default(),
            rms: Default::default(),
            wave: (0..WAVE_LEN).map(|_| AtomicU32::new(0)).collect(),
            wave_head: AtomicU64::new(0),
        }
    }
}

/// A copy of a meter's latest levels.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct LevelReading {
    pub channels: usize,
    pub sample_rate: u32,
    /// Windows measured since the meter was made (unchanged between two reads: no new data).
    pub windows: u64,
    /// Per channel, linear.
    pub peak: Vec<f32>,
    pub rms: Vec<f32>,
    /// The latest `WAVE_LEN` samples of the channels' average, oldest first.
    pub wave: Vec<f32>,
}

impl LevelMeter {
    /// Whether someone read the meter in the last two seconds.
    pub fn watched(&self) -> bool {
        self.watched.load(Relaxed) > 0
    }

    /// Copies the latest levels into `out` (reusing its vectors) and keeps the meter running
    /// for about two seconds more. Right after the first read the levels are those of the last
    /// time someone watched (zeros if never): the engine starts measuring now.
    pub fn read(&self, out: &mut LevelReading) {
        self.watched.store(WATCH_WINDOWS, Relaxed);
        let channels = (self.channels.load(Relaxed) as usize).min(MAX_CHANNELS);
        out.channels = channels;
        out.sample_rate = self.sample_rate.load(Relaxed);
        out.windows = self.windows.load(Relaxed);
        out.peak.clear();
        out.rms.clear();
        for c in 0..channels {
            out.peak.push(f32::from_bits(self.peak[c].load(Relaxed)));
            out.rms.push(f32::from_bits(self.rms[c].load(Relaxed)));
        }
        let head = self.wave_head.load(Relaxed);
        out.wave.clear();
        out.wave.extend((0..WAVE_LEN as u64).map(|i| {
            let at = head.wrapping_add(i) as usize % WAVE_LEN;
            f32::from_bits(self.wave[at].load(Relaxed))
        }));
    }
}

/// The engine thread's side of a sink's meter: the window being measured.
#[derive(Debug)]
pub struct MeterWindow {
    channels: usize,
    sample_rate: u32,
    /// Frames per window.
    length: usize,
    frames: usize,
    peak: [f32; MAX_CHANNELS],
    squares: [f64; MAX_CHANNELS],
}

impl MeterWindow {
    /// A window for `channels` at `sample_rate`.
    pub fn new(channels: usize, sample_rate: u32) -> Self {
        Self {
            channels: channels.min(MAX_CHANNELS),
            sample_rate,
            length: (sample_rate / WINDOWS_PER_S).max(1) as usize,
            frames: 0,
            peak: [0.0; MAX_CHANNELS],
            squares: [0.0; MAX_CHANNELS],
        }
    }

    /// Measures one render of the sink (`None`: `frames` of digital silence) into `meter`, if
    /// someone watches it. Never allocates.
    pub fn observe(&mut self, audio: Option<&AudioBuffer>, frames: usize, meter: &LevelMeter) {
        match audio {
            Some(a) => {
                self.observe_with(frames, a.channels(), meter, |c, i| a.channel(c)[i]);
            }
            None => self.observe_with(frames, 0, meter, |_, _| 0.0),
        }
    }

    /// Measures `frames` frames of `channels` whose channel `c`, frame `i` is `sample(c, i)` (a
    /// source's tap reads them from its ring) into `meter`, if someone watches it. Never
    /// allocates.
    pub fn observe_with(
        &mut self,
        frames: usize,
        channels: usize,
        meter: &LevelMeter,
        sample: impl Fn(usize, usize) -> f32,
    ) {
        if !meter.watched() {
            self.frames = 0;
            return;
        }
        let channels = channels.min(self.channels);
        let mut head = meter.wave_head.load(Relaxed);
        let scale = 1.0 / channels.max(1) as f32;
        let mut done = 0;
        while done < frames {
            let n = (frames - done).min(self.length - self.frames);
            for c in 0..channels {
                let (mut peak, mut squares) = (self.peak[c], 0.0f64);
                for i in done..done + n {
                    let s = sample(c, i);
                    peak = peak.max(s.abs());
                    squares += f64::from(s * s);
                }
                self.peak[c] = peak;
                self.squares[c] += squares;
            }
            for i in done..done + n {
                let sum: f32 = (0..channels).map(|c| sample(c, i)).sum();
                meter.wave[head as usize % WAVE_LEN].store((sum * scale).to_bits(), Relaxed);
                head = head.wrapping_add(1);
            }
            self.frames += n;
            done += n;
            if self.frames == self.length {
                self.publish(meter);
            }
        }
        meter.wave_head.store(head, Relaxed);
    }

    fn publish(&mut self, meter: &LevelMeter) {
        for c in 0..self.channels {
            let rms = (self.squares[c] / self.frames as f64).sqrt() as f32;
            meter.peak[c].store(self.peak[c].to_bits(), Relaxed);
            meter.rms[c].store(rms.to_bits(), Relaxed);
        }
        meter.channels.store(self.channels as u32, Relaxed);
        meter.sample_rate.store(self.sample_rate, Relaxed);
        meter.windows.fetch_add(1, Relaxed);
        let left = meter.watched.load(Relaxed);
        meter.watched.store(left.saturating_sub(1), Relaxed);
        self.frames = 0;
        self.peak = [0.0; MAX_CHANNELS];
        self.squares = [0.0; MAX_CHANNELS];
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn stereo(left: f32, right: f32, frames: usize) -> AudioBuffer {
        let l = vec![left; frames];
        let r: Vec<f32> = (0..frames)
            .map(|i| if i % 2 == 0 { right } else { -right })
            .collect();
        AudioBuffer::from_planes(&[&l, &r]).unwrap()
    }

    #[test]
    fn nobody_watching_measures_nothing() {
        let meter = LevelMeter::default();
        let mut window = MeterWindow::new(2, 48_000);
        window.observe(Some(&stereo(0.5, 0.25, 4800)), 4800, &meter);
        assert_eq!(meter.windows.load(Relaxed), 0);
        assert_eq!(meter.wave_head.load(Relaxed), 0);
    }

    #[test]
    fn a_read_starts_it_and_levels_follow_the_audio() {
        let meter = LevelMeter::default();
        let mut window = MeterWindow::new(2, 48_000);
        let mut reading = LevelReading::default();
        meter.read(&mut reading);
        assert_eq!(reading.windows, 0);
        // 0.1 s in renders of 480 frames: three windows of 1600 frames.
        let audio = stereo(0.5, 0.25, 480);
        for _ in 0..10 {
            window.observe(Some(&audio), 480, &meter);
        }
        meter.read(&mut reading);
        assert_eq!(reading.windows, 3);
        assert_eq!((reading.channels, reading.sample_rate), (2, 48_000));
        assert_eq!(reading.peak, vec![0.5, 0.25]);
        assert!((reading.rms[0] - 0.5).abs() < 1e-6);
        assert!((reading.rms[1] - 0.25).abs() < 1e-6);
        // The waveform: the channels' average, the newest last.
        assert_eq!(reading.wave.len(), WAVE_LEN);
        let last = *reading.wave.last().unwrap();
        assert!((last - 0.125).abs() < 1e-6, "{last}");
        // Silence replaces it.
        for _ in 0..10 {
            window.observe(None, 480, &meter);
        }
        meter.read(&mut reading);
        assert_eq!(reading.peak, vec![0.0, 0.0]);
        assert_eq!(*reading.wave.last().unwrap(), 0.0);
    }

    #[test]
    fn it_stops_about_two_seconds_after_the_last_read() {
        let meter = LevelMeter::default();
        let mut window = MeterWindow::new(1, 48_000);
        meter.read(&mut LevelReading::default());
        let audio = AudioBuffer::from_planes(&[&[0.1; 1600]]).unwrap();
        for _ in 0..100 {
            window.observe(Some(&audio), 1600, &meter);
        }
        assert_eq!(meter.windows.load(Relaxed), u64::from(WATCH_WINDOWS));
        assert!(!meter.watched());
    }
}
