//! What a sink and each of its paths publish: counters the engine thread stores with relaxed
//! atomics and any thread reads.

use crate::sink::listen::ListenTap;
use crate::sink::meter::LevelMeter;
use crate::source::glitches::{frames_to_us, Glitches};
use std::sync::atomic::{AtomicU64, Ordering::Relaxed};

/// What a sink publishes (the engine thread stores, any thread reads).
#[derive(Debug, Default)]
pub struct SinkCounters {
    pub packets: AtomicU64,
    pub bytes: AtomicU64,
    pub underruns: AtomicU64,
    /// Silence its paths played because a source ran dry, microseconds.
    pub silence_us: AtomicU64,
    /// Gaps its paths concealed (lost or late audio), and their length in microseconds.
    pub concealed: AtomicU64,
    pub concealed_us: AtomicU64,
    pub send_errors: AtomicU64,
    /// Bytes rendered but not yet sent (TCP backlog or partial Scream payload).
    pub queue_bytes: AtomicU64,
    /// Largest lateness of a send against its deadline, microseconds, since the last read.
    pub max_late_us: AtomicU64,
    /// The tap listening outputs read the mix from (kept with the counters, so a stream
    /// survives the sink being rebuilt).
    pub listen: ListenTap,
    /// The tap WebRTC listening reads (its own ring: an MP3 stream may read `listen` meanwhile).
    pub webrtc: ListenTap,
    /// Levels of what is sent, measured while someone reads them.
    pub meter: LevelMeter,
}

/// What one path (a source on this sink) played because its source was late: the part of the
/// sink's underruns, silence and concealment that came through this path. Kept by the planner
/// per (sink, source) across applies, like the sink's counters.
#[derive(Debug, Default)]
pub struct PathCounters {
    pub underruns: AtomicU64,
    /// Silence played because the source ran dry, microseconds.
    pub silence_us: AtomicU64,
    /// Gaps concealed (lost or late audio), and their length in microseconds.
    pub concealed: AtomicU64,
    pub concealed_us: AtomicU64,
}

impl PathCounters {
    /// Adds `g`, counted in source frames at `rate`. Real-time safe (relaxed atomic adds).
    pub fn add(&self, g: &Glitches, rate: u32) {
        self.underruns.fetch_add(g.underruns, Relaxed);
        self.silence_us
            .fetch_add(frames_to_us(g.silence_frames, rate), Relaxed);
        self.concealed.fetch_add(g.concealed, Relaxed);
        self.concealed_us
            .fetch_add(frames_to_us(g.concealed_frames, rate), Relaxed);
    }
}
