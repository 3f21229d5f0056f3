//! Plays a card's ring on PulseAudio (or PipeWire through pipewire-pulse) with the simple API:
//! a playback thread takes 5 ms of f32 frames from the ring and writes them; the write blocks
//! while the server's buffer (the target latency, `-t`) is full, so the server's demand is what
//! drains the ring and, through the card clock, what makes the engine render.

use crate::output::{CardStats, OutputError};
use libpulse_binding::def::BufferAttr;
use libpulse_binding::sample::{Format, Spec};
use libpulse_binding::stream::Direction;
use libpulse_simple_binding::Simple;
use std::sync::atomic::AtomicBool;
use std::sync::atomic::Ordering::Relaxed;
use std::sync::{mpsc, Arc};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};
use tributary_engine::runtime::scheduling::raise_current_thread;
use tributary_engine::sink::output::card::Card;

/// Frames written per call, ms.
const CHUNK_MS: u32 = 5;
/// How long the thread waits for the engine before writing silence (an underrun), ms.
const WAIT_MS: u64 = 20;

/// The playback thread's real-time priority (SCHED_FIFO), below the engine's.
const PRIORITY: i32 = 20;

/// Where and how to play.
pub struct PulseSettings {
    /// `PULSE_SERVER`'s form; `None`: the session's server.
    pub server: Option<String>,
    pub sink: Option<String>,
    pub stream_name: String,
    pub target_ms: u32,
}

/// The playback thread; stopping (or dropping) it closes the stream.
pub struct PulseOutput {
    stop: Arc<AtomicBool>,
    thread: Option<JoinHandle<Result<(), OutputError>>>,
    pub stats: Arc<CardStats>,
}

impl PulseOutput {
    /// Connects to the server and starts playing `card`; fails when the server is missing or
    /// refuses the stream (the error says which server).
    pub fn start(card: Card, settings: PulseSettings) -> Result<Self, OutputError> {
        let stop = Arc::new(AtomicBool::new(false));
        let stats = Arc::new(CardStats::default());
        let (opened, rx) = mpsc::channel();
        let thread = {
            let (stop, stats) = (stop.clone(), stats.clone());
            std::thread::Builder::new()
                .name("trib-pulse".into())
                .spawn(move || {
                    // Feeds the sound server in time as the engine's threads do (real-time
                    // priority where allowed, else nice -10).
                    raise_current_thread(PRIORITY);
                    let stream = match open(&card, &settings) {
                        Ok(s) => {
                            let _ = opened.send(Ok(()));
                            s
                        }
                        Err(e) => {
                            let _ = opened.send(Err(e));
                            return Ok(());
                        }
                    };
                    play(&card, &stream, &stop, &stats)
                })
                .map_err(|e| OutputError(format!("cannot start the playback thread: {e}")))?
        };
        match rx.recv() {
            Ok(Ok(())) => Ok(Self {
                stop,
                thread: Some(thread),
                stats,
            }),
            Ok(Err(e)) => Err(e),
            Err(_) => Err(OutputError("the playback thread ended at once".into())),
        }
    }

    /// Stops playing; the playback error, if the stream failed while playing.
    pub fn stop(&mut self) -> Result<(), OutputError> {
        self.stop.store(true, Relaxed);
        match self.thread.take().map(JoinHandle::join) {
            Some(Ok(r)) => r,
            Some(Err(_)) => Err(OutputError("the playback thread panicked".into())),
            None => Ok(()),
        }
    }

    /// Whether the playback thread ended (the stream failed).
    pub fn ended(&self) -> bool {
        self.thread.as_ref().is_none_or(JoinHandle::is_finished)
    }
}

impl Drop for PulseOutput {
    fn drop(&mut self) {
        let _ = self.stop();
    }
}

fn open(card: &Card, s: &PulseSettings) -> Result<Simple, OutputError> {
    let shared = &card.shared;
    let spec = Spec {
        format: Format::FLOAT32NE,
        channels: shared.channels as u8,
        rate: shared.rate,
    };
    let bytes_per_ms = spec.rate as usize * shared.channels * 4 / 1000;
    let target = (s.target_ms as usize * bytes_per_ms) as u32;
    let attr = BufferAttr {
        maxlength: u32::MAX,
        tlength: target,
        prebuf: u32::MAX,
        // The server asks for a chunk at a time: the engine reads its sources at an even pace
        // rather than in bursts that would eat into the jitter buffer's margin.
        minreq: (CHUNK_MS as usize * bytes_per_ms) as u32,
        fragsize: u32::MAX,
    };
    Simple::new(
        s.server.as_deref(),
        "Tributary",
        Direction::Playback,
        s.sink.as_deref(),
        &s.stream_name,
        &spec,
        None,
        Some(&attr),
    )
    .map_err(|e| {
        let server = s
            .server
            .clone()
            .unwrap_or_else(|| "the session's server".into());
        OutputError(format!(
            "cannot play on PulseAudio ({server}{}): {}. Is PulseAudio or PipeWire \
             (pipewire-pulse) running for this user, and does the sink exist?",
            s.sink
                .as_ref()
                .map(|k| format!(", sink {k}"))
                .unwrap_or_default(),
            e.to_string().unwrap_or_else(|| format!("error {}", e.0)),
        ))
    })
}

fn play(
    card: &Card,
    stream: &Simple,
    stop: &AtomicBool,
    stats: &CardStats,
) -> Result<(), OutputError> {
    let shared = &card.shared;
    let chunk = (shared.rate * CHUNK_MS / 1000) as usize * shared.channels;
    let mut samples = vec![0.0f32; chunk];
    let mut bytes = vec![0u8; chunk * 4];
    let mut last_latency = Instant::now();
    while !stop.load(Relaxed) {
        let mut got = 0;
        let give_up = Instant::now() + Duration::from_millis(WAIT_MS);
        while got < chunk {
            got += card.read_into(&mut samples[got..]);
            if got < chunk {
                if Instant::now() >= give_up || stop.load(Relaxed) {
                    samples[got..].fill(0.0);
                    stats.underruns.fetch_add(1, Relaxed);
                    break;
                }
                std::thread::sleep(Duration::from_micros(500));
            }
        }
        for (b, s) in bytes.chunks_exact_mut(4).zip(&samples) {
            b.copy_from_slice(&s.to_ne_bytes());
        }
        stream
            .write(&bytes)
            .map_err(|e| OutputError(format!("PulseAudio stopped playing: {}", describe(&e))))?;
        stats
            .frames
            .fetch_add((chunk / shared.channels) as u64, Relaxed);
        if last_latency.elapsed() >= Duration::from_millis(250) {
            last_latency = Instant::now();
            if let Ok(us) = stream.get_latency() {
                stats.server_latency_us.store(us.0, Relaxed);
            }
        }
    }
    Ok(())
}

fn describe(e: &libpulse_binding::error::PAErr) -> String {
    e.to_string().unwrap_or_else(|| format!("error {}", e.0))
}
