//! Listening outputs: a tap on a sink's mix that feeds an encoder on its own thread (MP3 for
//! HTTP streams, Opus for WebRTC in [`whep`]), beside the sink's transport, not instead of it.
//!
//! The engine thread copies each render, folded to stereo ([`fold::StereoFold`]: a
//! multichannel sink's ITU down-mix, a mono sink's one channel on both sides), into a
//! [`crate::ring::PcmRing`] only while a stream is open; the encoder thread
//! ([`mp3::Mp3Stream`]) reads, encodes and hands whole frames to its caller. The engine thread
//! never waits: the ring is lock-free, and the one lock ([`ListenTap::ring`]) is only ever
//! `try_lock`ed there (it is held elsewhere only while a stream opens or closes; a render
//! that meets it is dropped and counted).

pub mod fold;
pub mod mp3;
pub mod socket;
pub mod whep;

use crate::ring::PcmRing;
use crate::sink::listen::fold::StereoFold;
use std::sync::atomic::Ordering::Relaxed;
use std::sync::atomic::{AtomicBool, AtomicU32, AtomicU64};
use std::sync::{Arc, Mutex};
use tributary_dsp::AudioBuffer;

/// Stereo frames a tap's ring holds: 0.5 s at 192 kHz, 2 s at 48 kHz.
pub const RING_FRAMES: usize = 96_000;

/// A sink's tap for listening outputs (kept with its counters, across rebuilds of the sink).
#[derive(Debug, Default)]
pub struct ListenTap {
    /// A stream is open (the engine thread copies renders only then).
    active: AtomicBool,
    ring: Mutex<Option<Arc<PcmRing>>>,
    /// The sink's sample rate at the latest render.
    pub rate: AtomicU32,
    /// Stereo frames copied into the ring.
    pub frames: AtomicU64,
    /// Renders dropped: the ring was full (the encoder fell behind) or being swapped.
    pub overruns: AtomicU64,
}

impl std::fmt::Debug for PcmRing {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "PcmRing({} samples)", self.capacity())
    }
}

impl ListenTap {
    /// Engine thread: copies a render of `rate`, folded to stereo by `fold` (the sink's
    /// layout), into the ring when a stream is open.
    pub fn push_audio(&self, buf: &AudioBuffer, rate: u32, fold: &StereoFold) {
        self.push(buf.frames(), rate, |i| fold.sample(buf, i / 2, i % 2));
    }

    /// Engine thread: `frames` of digital silence at `rate`, when a stream is open.
    pub fn push_silence(&self, frames: usize, rate: u32) {
        self.push(frames, rate, |_| 0.0);
    }

    fn push(&self, frames: usize, rate: u32, sample: impl FnMut(usize) -> f32) {
        if !self.active.load(Relaxed) {
            return;
        }
        self.rate.store(rate, Relaxed);
        let Ok(guard) = self.ring.try_lock() else {
            self.overruns.fetch_add(1, Relaxed);
            return;
        };
        let Some(ring) = guard.as_ref() else { return };
        if ring.write_with(frames * 2, sample) {
            self.frames.fetch_add(frames as u64, Relaxed);
        } else {
            self.overruns.fetch_add(1, Relaxed);
        }
    }

    /// Opens the tap with a new ring; `None` if a stream already has it.
    pub fn open(&self) -> Option<Arc<PcmRing>> {
        let mut slot = self.ring.lock().unwrap_or_else(|e| e.into_inner());
        if slot.is_some() {
            return None;
        }
        let ring = Arc::new(PcmRing::new(RING_FRAMES * 2));
        *slot = Some(ring.clone());
        self.overruns.store(0, Relaxed);
        self.active.store(true, Relaxed);
        Some(ring)
    }

    /// Closes the tap (the ring is freed here, not on the engine thread).
    pub fn close(&self) {
        self.active.store(false, Relaxed);
        let ring = self.ring.lock().unwrap_or_else(|e| e.into_inner()).take();
        drop(ring);
    }

    pub fn is_open(&self) -> bool {
        self.active.load(Relaxed)
    }
}
