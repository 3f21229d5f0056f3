//! An MP3 stream of a sink: one encoder thread per open stream, reading the sink's tap and
//! handing whole MP3 frames to a callback (the daemon fans them out to every HTTP listener).
//!
//! While the sink renders, the stream follows its clock. When no render arrives for
//! [`STALL`] (the engine restarting after a fault, the sink removed), the thread encodes
//! silence on the wall clock instead, so players stay connected.

use crate::ring::PcmRing;
use crate::runtime::stats::thread_cpu_ns;
use crate::sink::SinkCounters;
use std::sync::atomic::Ordering::Relaxed;
use std::sync::atomic::{AtomicBool, AtomicU64};
use std::sync::Arc;
use std::thread::JoinHandle;
use std::time::{Duration, Instant};
use tributary_codec::{CodecError, Mp3Encoder};

/// How often the encoder thread looks for new audio.
const POLL: Duration = Duration::from_millis(10);
/// Without renders for this long, the stream encodes silence on its own.
const STALL: Duration = Duration::from_millis(250);
/// Stereo frames encoded per call at most.
const BLOCK: usize = 4096;

/// What a stream publishes (its thread stores, any thread reads).
#[derive(Debug, Default)]
pub struct Mp3StreamStats {
    pub frames: AtomicU64,
    pub bytes: AtomicU64,
    /// CPU time of the encoder thread, nanoseconds.
    pub cpu_ns: AtomicU64,
    /// Stereo frames of silence the thread made up while the sink did not render.
    pub filled_frames: AtomicU64,
    pub encode_errors: AtomicU64,
    /// The stream's MP3 sample rate (it follows the sink's).
    pub sample_rate: AtomicU64,
}

/// Receives each batch of whole MP3 frames (one call per encoder pass).
pub type Deliver = Box<dyn FnMut(&[u8]) + Send>;

/// An open MP3 stream. Dropping it stops the thread and closes the sink's tap.
pub struct Mp3Stream {
    sink: Arc<SinkCounters>,
    stop: Arc<AtomicBool>,
    pub stats: Arc<Mp3StreamStats>,
    thread: Option<JoinHandle<()>>,
}

impl Mp3Stream {
    /// Opens `sink`'s tap and starts encoding at `bitrate_kbps`; `rate` is the sink's rate now.
    pub fn start(
        sink: Arc<SinkCounters>,
        rate: u32,
        bitrate_kbps: u32,
        deliver: Deliver,
    ) -> Result<Self, CodecError> {
        let encoder = Mp3Encoder::new(rate, bitrate_kbps, BLOCK)?;
        let ring = sink
            .listen
            .open()
            .ok_or_else(|| CodecError("this sink already has an MP3 stream".into()))?;
        sink.listen.rate.store(rate, Relaxed);
        let stop = Arc::new(AtomicBool::new(false));
        let stats = Arc::new(Mp3StreamStats::default());
        let mut worker = Worker {
            sink: sink.clone(),
            ring,
            encoder,
            deliver,
            stats: stats.clone(),
            batch: Vec::with_capacity(64 * 1024),
            pcm: vec![0.0; BLOCK * 2],
        };
        let flag = stop.clone();
        let thread = std::thread::Builder::new()
            .name("trib-mp3".into())
            .spawn(move || worker.run(&flag))
            .map_err(|e| {
                sink.listen.close();
                CodecError(format!("could not start the encoder thread: {e}"))
            })?;
        Ok(Self {
            sink,
            stop,
            stats,
            thread: Some(thread),
        })
    }

    /// Renders of the sink its tap dropped (the encoder fell behind) since the tap opened.
    pub fn overruns(&self) -> u64 {
        self.sink.listen.overruns.load(Relaxed)
    }

    /// Stops the thread (after its current pass) and closes the tap.
    pub fn stop(&mut self) {
        self.stop.store(true, Relaxed);
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
        self.sink.listen.close();
    }
}

impl Drop for Mp3Stream {
    fn drop(&mut self) {
        self.stop();
    }
}

struct Worker {
    sink: Arc<SinkCounters>,
    ring: Arc<PcmRing>,
    encoder: Mp3Encoder,
    deliver: Deliver,
    stats: Arc<Mp3StreamStats>,
    batch: Vec<u8>,
    pcm: Vec<f32>,
}

impl Worker {
    fn run(&mut self, stop: &AtomicBool) {
        let mut last_input = Instant::now();
        let mut last_pass = Instant::now();
        self.publish_rate();
        while !stop.load(Relaxed) {
            std::thread::sleep(POLL);
            let now = Instant::now();
            self.follow_rate();
            let mut got = false;
            loop {
                let n = self.ring.read_into(&mut self.pcm);
                if n == 0 {
                    break;
                }
                got = true;
                self.encode(n);
            }
            if got {
                last_input = now;
            } else if now - last_input >= STALL {
                let rate = f64::from(self.encoder.input_rate());
                let frames = ((now - last_pass).as_secs_f64() * rate) as usize;
                let frames = frames.min(BLOCK);
                self.pcm[..frames * 2].fill(0.0);
                self.stats.filled_frames.fetch_add(frames as u64, Relaxed);
                self.encode(frames * 2);
            }
            last_pass = now;
            self.flush_batch();
            self.stats.cpu_ns.store(thread_cpu_ns(), Relaxed);
        }
    }

    fn encode(&mut self, samples: usize) {
        let Self {
            encoder,
            batch,
            stats,
            pcm,
            ..
        } = self;
        let result = encoder.encode(&pcm[..samples], |frame, _| {
            batch.extend_from_slice(frame);
            stats.frames.fetch_add(1, Relaxed);
        });
        if result.is_err() {
            stats.encode_errors.fetch_add(1, Relaxed);
        }
    }

    fn flush_batch(&mut self) {
        if !self.batch.is_empty() {
            self.stats.bytes.fetch_add(self.batch.len() as u64, Relaxed);
            (self.deliver)(&self.batch);
            self.batch.clear();
        }
    }

    /// A sink rebuilt at another rate: a new encoder at that rate (what it held is flushed).
    fn follow_rate(&mut self) {
        let rate = self.sink.listen.rate.load(Relaxed);
        if rate == 0 || rate == self.encoder.input_rate() {
            return;
        }
        if let Ok(next) = Mp3Encoder::new(rate, self.encoder.bitrate_kbps(), BLOCK) {
            let old = std::mem::replace(&mut self.encoder, next);
            drop(old);
            self.publish_rate();
        }
    }

    fn publish_rate(&self) {
        let rate = tributary_codec::mp3_output_rate(self.encoder.input_rate());
        self.stats.sample_rate.store(u64::from(rate), Relaxed);
    }
}
