//! A decoder thread per stream: takes chunks from a bounded input queue (its producer never
//! waits), decodes them and writes the frames to an output (the engine's memory source, through
//! the binding) that it opens once the format is known. It waits on its input and, when the
//! output is full, sleeps a few milliseconds and tries again: it is not the engine's thread and
//! the engine never waits on it.

use crate::decoder::{DecodeOptions, Decoder, StreamInfo};
use crate::error::DecodeError;
use crate::input::Input;
use std::io;
use std::sync::atomic::Ordering::Relaxed;
use std::sync::atomic::{AtomicBool, AtomicU64};
use std::sync::{Arc, Mutex, MutexGuard};
use std::thread::JoinHandle;
use std::time::Duration;

/// How long the thread sleeps when its output is full.
const FULL_WAIT: Duration = Duration::from_millis(5);

/// Where decoded frames go.
pub trait FrameOutput: Send + Sync + 'static {
    /// Called once, when the probe has found the format and decoded the first audio: create
    /// what plays it. An error (the reason) fails the decoding.
    fn open(&self, info: &StreamInfo) -> Result<(), String>;
    /// Takes the whole frames of `samples` (interleaved) that fit now; returns how many.
    fn write(&self, samples: &[f32]) -> usize;
    /// Frames written and not yet played.
    fn queued_frames(&self) -> usize;
}

/// Where a stream's decoding is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DecodeState {
    /// Waiting for the first bytes, or reading them to find the format.
    Probing,
    /// Decoding into the output.
    Playing,
    /// The input ended, everything was decoded and the output played it all.
    Drained,
    /// Stopped with an error (see [`Status::error`]); for a file that ended before its declared
    /// length, once what did arrive has played.
    Failed,
}

/// A snapshot of a stream's decoding.
#[derive(Clone, Debug, PartialEq)]
pub struct Status {
    pub state: DecodeState,
    pub error: Option<String>,
    /// What the probe found (`None` while probing, or when it failed).
    pub info: Option<StreamInfo>,
    pub decoded_frames: u64,
    pub skipped_packets: u64,
    /// Frames in the output not yet played.
    pub queued_frames: u64,
    /// Input bytes queued and not yet decoded.
    pub input_queued_bytes: u64,
}

struct Shared {
    phase: Mutex<(DecodeState, Option<String>, Option<StreamInfo>)>,
    decoded_frames: AtomicU64,
    skipped_packets: AtomicU64,
    stop: AtomicBool,
    opened: AtomicBool,
}

impl Shared {
    fn phase(&self) -> MutexGuard<'_, (DecodeState, Option<String>, Option<StreamInfo>)> {
        self.phase.lock().unwrap_or_else(|e| e.into_inner())
    }

    fn set(&self, state: DecodeState, error: Option<String>) {
        let mut p = self.phase();
        p.0 = state;
        p.1 = error;
    }
}

/// A running decoder thread. Dropping it stops the thread (and waits for it: a few ms).
pub struct DecodeThread {
    input: Arc<Input>,
    shared: Arc<Shared>,
    output: Arc<dyn FrameOutput>,
    thread: Mutex<Option<JoinHandle<()>>>,
}

impl DecodeThread {
    /// Starts the thread `name`, with an input queue of `input_bytes`.
    pub fn spawn(
        name: String,
        options: DecodeOptions,
        input_bytes: usize,
        output: Arc<dyn FrameOutput>,
    ) -> io::Result<DecodeThread> {
        let input = Input::new(input_bytes);
        let shared = Arc::new(Shared {
            phase: Mutex::new((DecodeState::Probing, None, None)),
            decoded_frames: AtomicU64::new(0),
            skipped_packets: AtomicU64::new(0),
            stop: AtomicBool::new(false),
            opened: AtomicBool::new(false),
        });
        let (i, s, o) = (input.clone(), shared.clone(), output.clone());
        let thread = std::thread::Builder::new()
            .name(name.clone())
            .spawn(move || run(&name, &i, &options, &*o, &s))?;
        Ok(DecodeThread {
            input,
            shared,
            output,
            thread: Mutex::new(Some(thread)),
        })
    }

    /// Queues a chunk of input; false (taking nothing) when the queue is full. Never waits.
    /// Once decoding has ended (or failed, or was stopped) the chunk is dropped and true
    /// returned.
    pub fn push(&self, chunk: &[u8]) -> bool {
        self.input.push(chunk)
    }

    /// No more input comes.
    pub fn finish(&self) {
        self.input.finish();
    }

    /// Whether the output was opened (the thread called [`FrameOutput::open`] with success).
    pub fn opened(&self) -> bool {
        self.shared.opened.load(Relaxed)
    }

    pub fn status(&self) -> Status {
        let (state, error, info) = self.shared.phase().clone();
        Status {
            state,
            error,
            info,
            decoded_frames: self.shared.decoded_frames.load(Relaxed),
            skipped_packets: self.shared.skipped_packets.load(Relaxed),
            queued_frames: if self.opened() {
                self.output.queued_frames() as u64
            } else {
                0
            },
            input_queued_bytes: self.input.queued_bytes() as u64,
        }
    }

    /// Stops the thread and waits for it to end (it checks at least every few ms). The output
    /// keeps what was written. Calling it again does nothing.
    pub fn stop(&self) {
        self.shared.stop.store(true, Relaxed);
        self.input.close();
        let thread = self.thread.lock().unwrap_or_else(|e| e.into_inner()).take();
        if let Some(t) = thread {
            // A panic in the thread was already turned into the Failed state by `run`'s caller
            // or is lost with the thread; nothing to do with it here.
            let _ = t.join();
        }
    }
}

impl Drop for DecodeThread {
    fn drop(&mut self) {
        self.stop();
    }
}

fn run(
    name: &str,
    input: &Arc<Input>,
    options: &DecodeOptions,
    output: &dyn FrameOutput,
    shared: &Shared,
) {
    let outcome = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        decode_all(name, input, options, output, shared)
    }))
    .unwrap_or_else(|_| Err(DecodeError::Corrupt("the decoder panicked".into())));
    // No more input is wanted: pushes are dropped from now on.
    input.close();
    let error = match outcome {
        // Stopped from outside (the source was removed): the state stays what it was.
        Err(DecodeError::Stopped) => return,
        Err(e @ DecodeError::EndedEarly { .. }) | Err(e @ DecodeError::Corrupt(_))
            if shared.opened.load(Relaxed) =>
        {
            Some(e)
        }
        Err(e) => {
            log::warn!(target: "tributary_decode", "{name}: {e}");
            shared.set(DecodeState::Failed, Some(e.to_string()));
            return;
        }
        Ok(()) => None,
    };
    // What was decoded plays out before the state says so.
    while output.queued_frames() > 0 {
        if shared.stop.load(Relaxed) {
            return;
        }
        std::thread::sleep(FULL_WAIT);
    }
    match error {
        Some(e) => {
            log::warn!(target: "tributary_decode", "{name}: {e}");
            shared.set(DecodeState::Failed, Some(e.to_string()));
        }
        None => shared.set(DecodeState::Drained, None),
    }
}

fn decode_all(
    name: &str,
    input: &Arc<Input>,
    options: &DecodeOptions,
    output: &dyn FrameOutput,
    shared: &Shared,
) -> Result<(), DecodeError> {
    let mut decoder = Decoder::open(input.reader(), options)?;
    if shared.stop.load(Relaxed) {
        return Err(DecodeError::Stopped);
    }
    output.open(decoder.info()).map_err(DecodeError::Output)?;
    shared.opened.store(true, Relaxed);
    shared.phase().2 = Some(decoder.info().clone());
    shared.set(DecodeState::Playing, None);
    let channels = decoder.info().channels;
    let mut logged_skips = 0;
    while let Some(mut block) = decoder.next_block()? {
        while !block.is_empty() {
            let frames = output.write(block);
            block = &block[frames * channels..];
            if !block.is_empty() {
                if shared.stop.load(Relaxed) {
                    return Err(DecodeError::Stopped);
                }
                std::thread::sleep(FULL_WAIT);
            }
        }
        shared
            .decoded_frames
            .store(decoder.decoded_frames(), Relaxed);
        let skipped = decoder.skipped_packets();
        shared.skipped_packets.store(skipped, Relaxed);
        // The first skip, then at 2, 4, 8, ...: a damaged stream cannot flood the log.
        if skipped > logged_skips && skipped.is_power_of_two() {
            logged_skips = skipped;
            if let Some(why) = decoder.last_skip() {
                log::warn!(target: "tributary_decode", "{name}: skipped {skipped} packet(s), the last a {why}");
            }
        }
    }
    Ok(())
}
