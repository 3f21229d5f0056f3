//! The engine's statistics: engine-wide counters its threads add to, the CPU time of those
//! threads, and the snapshot types `stats()` returns.

use std::sync::atomic::{AtomicU64, Ordering::Relaxed};

/// Engine-wide.
#[derive(Debug, Default)]
pub struct EngineCounters {
    /// CPU time of every engine thread, nanoseconds (each thread adds its own).
    pub cpu_ns: AtomicU64,
    /// Datagrams dropped because the receive queue was full.
    pub queue_overflows: AtomicU64,
    /// Packets from senders no source matches.
    pub unknown_packets: AtomicU64,
    /// Malformed packets from unknown senders.
    pub malformed_unknown: AtomicU64,
}

/// Per-source statistics.
#[derive(Clone, Debug, PartialEq)]
pub struct SourceStats {
    pub id: String,
    pub name: String,
    pub packets: u64,
    pub bytes: u64,
    pub lost: u64,
    pub late: u64,
    pub reordered: u64,
    pub duplicates: u64,
    pub malformed: u64,
    pub rtcp_packets: u64,
    pub jitter_ms: f64,
    pub buffer_ms: f64,
    pub drift_ppm: f64,
    /// Rate adjustment its readers apply (drift and buffer correction), ppm.
    pub correction_ppm: f64,
    /// What its readers did that a listener could hear (summed over its taps): underruns
    /// and the silence they played, concealed gaps, skips ahead and repeats.
    pub underruns: u64,
    pub silence_ms: f64,
    pub concealed: u64,
    pub concealed_ms: f64,
    pub skips: u64,
    pub skipped_ms: f64,
    pub repeats: u64,
    pub repeated_ms: f64,
    /// What arrives disagrees with the source's settings (a static RTP payload type of another
    /// format), said in words; `None` when it agrees.
    pub format_problem: Option<String>,
    /// For example `rtp L16 48000 Hz 2 ch`; `None` before the first packet.
    pub format: Option<String>,
}

/// Per-sink statistics.
#[derive(Clone, Debug, PartialEq)]
pub struct SinkStats {
    pub id: String,
    pub name: String,
    pub packets: u64,
    pub bytes: u64,
    pub underruns: u64,
    /// Silence its paths played because a source ran dry, ms.
    pub silence_ms: f64,
    /// Gaps its paths concealed (lost or late audio), and their length, ms.
    pub concealed: u64,
    pub concealed_ms: f64,
    pub send_errors: u64,
    pub queue_bytes: u64,
    /// Largest lateness of a packet against its deadline since the previous stats call.
    pub max_late_ms: f64,
}

/// Per path (a source playing on a sink): what it played because its source was late. The
/// sink's underruns, silence and concealment are the sums over its paths.
#[derive(Clone, Debug, PartialEq)]
pub struct PathStats {
    pub source_id: String,
    pub sink_id: String,
    /// Times the path's reader ran dry while the source was sending, and the silence played.
    pub underruns: u64,
    pub silence_ms: f64,
    /// Gaps concealed (lost or late audio), and their length, ms.
    pub concealed: u64,
    pub concealed_ms: f64,
}

/// A snapshot of the engine.
#[derive(Clone, Debug, PartialEq)]
pub struct EngineStats {
    pub uptime_s: f64,
    /// CPU time of the engine's threads since start.
    pub cpu_s: f64,
    pub queue_overflows: u64,
    pub unknown_packets: u64,
    pub malformed_unknown: u64,
    pub sources: Vec<SourceStats>,
    pub sinks: Vec<SinkStats>,
    /// Every path, in the order of the sinks and their paths.
    pub paths: Vec<PathStats>,
}

/// The ports the engine listens on (useful when options asked for port 0).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct BoundPorts {
    pub scream: Vec<u16>,
    pub tagged: Option<u16>,
    pub rtp: Vec<u16>,
}

/// Adds the calling thread's CPU time since `last_ns` to `total`; returns the new reading.
pub fn add_thread_cpu(total: &AtomicU64, last_ns: u64) -> u64 {
    let now = thread_cpu_ns();
    total.fetch_add(now.saturating_sub(last_ns), Relaxed);
    now
}

/// CPU time the calling thread has used, nanoseconds.
pub fn thread_cpu_ns() -> u64 {
    let mut ts = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: clock_gettime writes into the timespec we own; CLOCK_THREAD_CPUTIME_ID is valid
    // on every platform the engine builds for.
    let ok = unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut ts) } == 0;
    if ok {
        ts.tv_sec as u64 * 1_000_000_000 + ts.tv_nsec as u64
    } else {
        0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn thread_cpu_time_advances() {
        let a = thread_cpu_ns();
        let mut x = 0u64;
        for i in 0..2_000_000u64 {
            x = x.wrapping_mul(31).wrapping_add(i);
        }
        std::hint::black_box(x);
        assert!(thread_cpu_ns() > a);
    }
}
