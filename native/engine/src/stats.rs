//! Counters the real-time threads publish with relaxed atomic stores and any thread reads.

use std::sync::atomic::{AtomicI64, AtomicU64, Ordering::Relaxed};

/// Per source (shared between the engine thread and readers of stats).
#[derive(Debug, Default)]
pub struct SourceCounters {
    pub packets: AtomicU64,
    pub bytes: AtomicU64,
    pub lost: AtomicU64,
    pub late: AtomicU64,
    pub reordered: AtomicU64,
    pub duplicates: AtomicU64,
    pub malformed: AtomicU64,
    pub rtcp_packets: AtomicU64,
    pub concealed: AtomicU64,
    /// Microseconds.
    pub jitter_us: AtomicU64,
    /// Microseconds of audio queued ahead of playback (may be negative while starved).
    pub buffer_us: AtomicI64,
    /// Parts per billion.
    pub drift_ppb: AtomicI64,
    /// Detected format, packed by [`pack_format`].
    pub format: AtomicU64,
    /// Sender address of the last packet, packed IPv4 (0 for none or IPv6).
    pub last_sender_v4: AtomicU64,
}

/// Per sink.
#[derive(Debug, Default)]
pub struct SinkCounters {
    pub packets: AtomicU64,
    pub bytes: AtomicU64,
    pub underruns: AtomicU64,
    pub send_errors: AtomicU64,
    /// Bytes rendered but not yet sent (TCP backlog or partial Scream payload).
    pub queue_bytes: AtomicU64,
    /// Largest lateness of a send against its deadline, microseconds, since the last read.
    pub max_late_us: AtomicU64,
}

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

/// The wire format a source was last seen sending.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DetectedFormat {
    /// 1 Scream, 2 tagged Scream, 3 RTP.
    pub kind: u8,
    pub bit_depth: u8,
    pub channels: u8,
    pub big_endian: bool,
    pub sample_rate: u32,
}

/// Packs a format into one atomic word.
pub fn pack_format(f: DetectedFormat) -> u64 {
    u64::from(f.kind)
        | u64::from(f.bit_depth) << 8
        | u64::from(f.channels) << 16
        | u64::from(f.big_endian) << 24
        | u64::from(f.sample_rate) << 32
}

/// Unpacks [`pack_format`]; `None` before the first packet.
pub fn unpack_format(v: u64) -> Option<DetectedFormat> {
    (v != 0).then_some(DetectedFormat {
        kind: v as u8,
        bit_depth: (v >> 8) as u8,
        channels: (v >> 16) as u8,
        big_endian: (v >> 24) & 1 == 1,
        sample_rate: (v >> 32) as u32,
    })
}

impl DetectedFormat {
    /// For example `scream s16le 48000 Hz 2 ch` or `rtp L24 96000 Hz 6 ch`.
    pub fn describe(&self) -> String {
        let kind = match self.kind {
            1 => "scream",
            2 => "scream-tagged",
            _ => "rtp",
        };
        let enc = match (self.kind, self.bit_depth, self.big_endian) {
            (3, 16, true) => "L16".to_owned(),
            (3, 24, true) => "L24".to_owned(),
            (_, b, true) => format!("s{b}be"),
            (_, b, false) => format!("s{b}le"),
        };
        format!("{kind} {enc} {} Hz {} ch", self.sample_rate, self.channels)
    }
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
    fn formats_pack_and_describe() {
        let f = DetectedFormat {
            kind: 3,
            bit_depth: 24,
            channels: 6,
            big_endian: true,
            sample_rate: 96_000,
        };
        assert_eq!(unpack_format(pack_format(f)), Some(f));
        assert_eq!(f.describe(), "rtp L24 96000 Hz 6 ch");
        assert_eq!(unpack_format(0), None);
    }

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
