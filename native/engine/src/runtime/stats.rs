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

crate::report::report! {
    /// Per-source statistics.
    #[js = "EngineSourceStats"]
    #[derive(Clone, Debug, PartialEq)]
    pub struct SourceStats {
        /// The source this stream was matched to.
        #[js = "config_id"]
        pub id: String,
        /// The source's name.
        pub name: String,
        /// Packets received.
        pub packets: u64,
        /// Payload bytes received.
        pub bytes: u64,
        /// Packets never received (RFC 3550: a late arrival counts as received).
        pub lost: u64,
        /// Packets that arrived after their audio had played.
        pub late: u64,
        /// Packets that arrived out of order (put back in place).
        pub reordered: u64,
        /// Packets received twice.
        pub duplicates: u64,
        /// Malformed, truncated or oversized packets dropped.
        pub malformed: u64,
        /// RTCP sender/receiver reports received.
        pub rtcp_packets: u64,
        /// Packets dropped because another sender was playing on this source: two senders
        /// matched it at once (two RTP streams on its port, two programs sending from its
        /// address, two PCs with its tag), and only the first one heard plays.
        pub competing_packets: u64,
        /// The last sender dropped that way (`192.168.1.20:50000`); null if none ever was.
        #[example = "192.168.1.20:50000"]
        pub competing_sender: Option<String>,
        /// Times the source moved to another sender after the one it played had been silent
        /// for 0.2 s (a sender that restarted with a new port or SSRC).
        pub sender_changes: u64,
        /// Interarrival jitter (RFC 3550), ms.
        pub jitter_ms: f64,
        /// Audio queued ahead of playback, ms.
        pub buffer_ms: f64,
        /// Sender clock error against the router's clock, ppm (positive: fast): the slope of the
        /// earliest arrivals over the last 64 s, first published after 8 one-second windows of a
        /// sender (a new one, or one restarted with new timestamps; until then the previous
        /// estimate stands). A pause the sender's timestamps skip (10 ms or more) starts the fit
        /// afresh the same way. Clamped to +-1000: a value there is no clock but a sender
        /// sending faster or slower than the rate the source plays it at (a wrong sample rate
        /// for a dynamic payload type).
        pub drift_ppm: f64,
        /// Rate adjustment the readers apply now: the drift they correct for (drift_ppm,
        /// counted at the weight its precision earns) plus a correction of the buffer level of
        /// at most +-50 ppm, ppm; it moves towards that sum by at most 20 ppm per second.
        pub correction_ppm: f64,
        /// Times a reader ran dry while the source was sending.
        pub underruns: u64,
        /// Silence played because of those, ms.
        #[minimum = 0.0]
        pub silence_ms: f64,
        /// Gaps concealed because packets were lost or came too late.
        pub concealed: u64,
        /// Audio replaced by concealment, ms.
        #[minimum = 0.0]
        pub concealed_ms: f64,
        /// Skips ahead over queued audio (a sender catching up after a stall).
        pub skips: u64,
        /// Audio skipped, ms.
        #[minimum = 0.0]
        pub skipped_ms: f64,
        /// Steps back that played audio again (far too little queued).
        pub repeats: u64,
        /// Audio played twice, ms.
        #[minimum = 0.0]
        pub repeated_ms: f64,
        /// What arrives disagrees with the source's settings (a static RTP payload type of
        /// another format, which then plays as the payload type says); null when it agrees.
        pub format_problem: Option<String>,
        /// Detected stream format, e.g. `rtp L16 48000 Hz 2 ch`; null before any packet.
        #[example = "scream s16le 48000 Hz 2 ch"]
        pub format: Option<String>,
    }
}

crate::report::report! {
    /// Per-sink statistics.
    #[js = "EngineSinkStats"]
    #[derive(Clone, Debug, PartialEq)]
    pub struct SinkStats {
        /// The sink's config_id.
        #[js = "config_id"]
        pub id: String,
        /// The sink's name.
        pub name: String,
        /// Packets sent.
        pub packets: u64,
        /// Bytes sent.
        pub bytes: u64,
        /// Times a playing path ran out of buffered audio (concealed with a fade).
        pub underruns: u64,
        /// Silence its paths played because a source ran dry, ms.
        #[minimum = 0.0]
        pub silence_ms: f64,
        /// Gaps its paths concealed (lost or late packets).
        pub concealed: u64,
        /// Audio its paths replaced by concealment, ms.
        #[minimum = 0.0]
        pub concealed_ms: f64,
        /// Packets the network refused (or TCP chunks dropped).
        pub send_errors: u64,
        /// Bytes rendered but not yet sent.
        pub queue_bytes: u64,
        /// Largest lateness of a packet against its deadline since the last report, ms.
        pub max_late_ms: f64,
    }
}

crate::report::report! {
    /// One source playing on one sink: the part of the sink's underruns, silence and
    /// concealment that came through it (a sink's counters are the sums over its paths). Kept
    /// while the path exists, across configuration changes.
    #[js = "EnginePathStats"]
    #[derive(Clone, Debug, PartialEq)]
    pub struct PathStats {
        /// The source of this path.
        #[js = "source_config_id"]
        pub source_id: String,
        /// The sink it plays on.
        #[js = "sink_config_id"]
        pub sink_id: String,
        /// Times the path ran out of buffered audio while its source was sending.
        pub underruns: u64,
        /// Silence it played because of those, ms.
        #[minimum = 0.0]
        pub silence_ms: f64,
        /// Gaps it concealed because packets were lost or came too late.
        pub concealed: u64,
        /// Audio it replaced by concealment, ms.
        #[minimum = 0.0]
        pub concealed_ms: f64,
    }
}

crate::report::report! {
    /// A snapshot of the engine.
    #[js = "EngineStats"]
    #[derive(Clone, Debug, PartialEq)]
    pub struct EngineStats {
        /// Seconds since the engine started.
        pub uptime_s: f64,
        /// CPU time of the engine's threads since start, s.
        pub cpu_s: f64,
        /// Datagrams dropped because the engine fell behind.
        pub queue_overflows: u64,
        /// Packets from senders no source matches.
        pub unknown_packets: u64,
        /// Malformed packets from unknown senders.
        pub malformed_unknown: u64,
        /// Lines of the engine's log dropped because the daemon had not taken the ones before
        /// them yet (it holds 256), since the process started.
        pub log_dropped: u64,
        /// Per source.
        pub sources: Vec<SourceStats>,
        /// Per sink.
        pub sinks: Vec<SinkStats>,
        /// Every path, in the order of the sinks and their paths.
        pub paths: Vec<PathStats>,
    }
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
