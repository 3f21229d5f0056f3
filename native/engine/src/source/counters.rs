//! What a source publishes: counters the engine thread stores with relaxed atomics and any
//! thread reads, and the format it last detected, packed into one atomic word.

use crate::sink::meter::LevelMeter;
use crate::source::glitches::{frames_to_us, Glitches};
use crate::wire::SenderKind;
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
    /// Gaps concealed (lost or late audio) and their length, microseconds.
    pub concealed: AtomicU64,
    pub concealed_us: AtomicU64,
    /// Times a reader ran dry while the source was sending, and the silence played.
    pub underruns: AtomicU64,
    pub silence_us: AtomicU64,
    /// Skips ahead and steps back that re-centred a buffer, and the audio skipped or repeated.
    pub skips: AtomicU64,
    pub skipped_us: AtomicU64,
    pub repeats: AtomicU64,
    pub repeated_us: AtomicU64,
    /// Rate adjustment a reader applies (drift and buffer correction), parts per billion.
    pub applied_ppb: AtomicI64,
    /// Microseconds.
    pub jitter_us: AtomicU64,
    /// Microseconds of audio queued ahead of playback (may be negative while starved).
    pub buffer_us: AtomicI64,
    /// Parts per billion.
    pub drift_ppb: AtomicI64,
    /// RTP payload type + 1 whose static format differs from the source's settings (0: none).
    pub format_mismatch: AtomicU64,
    /// Detected format, packed by [`pack_format`].
    pub format: AtomicU64,
    /// Packets dropped because another sender was playing on this source, the last of those
    /// senders (packed by [`crate::source::sender_lock::pack_sender`]), and the times the
    /// source moved to a new sender after the one it played fell silent.
    pub competing: AtomicU64,
    pub competing_sender: AtomicU64,
    pub sender_changes: AtomicU64,
    /// Levels of what the source sends into the graph, measured by one of its taps while
    /// someone reads them (the active source's meter and visualizer).
    pub meter: LevelMeter,
}

impl SourceCounters {
    /// Adds a reader's glitches (in frames at `rate`).
    pub fn add_glitches(&self, g: &Glitches, rate: u32) {
        if g.is_empty() {
            return;
        }
        let us = |frames| frames_to_us(frames, rate);
        self.concealed.fetch_add(g.concealed, Relaxed);
        self.concealed_us.fetch_add(us(g.concealed_frames), Relaxed);
        self.underruns.fetch_add(g.underruns, Relaxed);
        self.silence_us.fetch_add(us(g.silence_frames), Relaxed);
        self.skips.fetch_add(g.skips, Relaxed);
        self.skipped_us.fetch_add(us(g.skipped_frames), Relaxed);
        self.repeats.fetch_add(g.repeats, Relaxed);
        self.repeated_us.fetch_add(us(g.repeated_frames), Relaxed);
    }
}

/// The wire format a source was last seen sending.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DetectedFormat {
    pub kind: SenderKind,
    pub bit_depth: u8,
    pub channels: u8,
    pub big_endian: bool,
    /// Float samples (a memory source fed decoded audio): shown as `f32`.
    pub float: bool,
    pub sample_rate: u32,
}

/// Packs a format into one atomic word.
pub fn pack_format(f: DetectedFormat) -> u64 {
    let kind: u64 = match f.kind {
        SenderKind::Scream => 1,
        SenderKind::ScreamTagged => 2,
        SenderKind::Rtp => 3,
        SenderKind::Memory => 4,
    };
    kind | u64::from(f.bit_depth) << 8
        | u64::from(f.channels) << 16
        | u64::from(f.big_endian) << 24
        | u64::from(f.float) << 25
        | u64::from(f.sample_rate) << 32
}

/// Unpacks [`pack_format`]; `None` before the first packet.
pub fn unpack_format(v: u64) -> Option<DetectedFormat> {
    let kind = match v as u8 {
        1 => SenderKind::Scream,
        2 => SenderKind::ScreamTagged,
        3 => SenderKind::Rtp,
        4 => SenderKind::Memory,
        _ => return None,
    };
    Some(DetectedFormat {
        kind,
        bit_depth: (v >> 8) as u8,
        channels: (v >> 16) as u8,
        big_endian: (v >> 24) & 1 == 1,
        float: (v >> 25) & 1 == 1,
        sample_rate: (v >> 32) as u32,
    })
}

impl DetectedFormat {
    /// For example `scream s16le 48000 Hz 2 ch` or `rtp L24 96000 Hz 6 ch`.
    pub fn describe(&self) -> String {
        let kind = self.kind.js();
        let enc = match (self.kind, self.bit_depth, self.big_endian) {
            _ if self.float => format!("f{}", self.bit_depth),
            (SenderKind::Rtp, 16, true) => "L16".to_owned(),
            (SenderKind::Rtp, 24, true) => "L24".to_owned(),
            (_, b, true) => format!("s{b}be"),
            (_, b, false) => format!("s{b}le"),
        };
        format!("{kind} {enc} {} Hz {} ch", self.sample_rate, self.channels)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn formats_pack_and_describe() {
        let f = DetectedFormat {
            kind: SenderKind::Rtp,
            bit_depth: 24,
            channels: 6,
            big_endian: true,
            float: false,
            sample_rate: 96_000,
        };
        assert_eq!(unpack_format(pack_format(f)), Some(f));
        assert_eq!(f.describe(), "rtp L24 96000 Hz 6 ch");
        assert_eq!(unpack_format(0), None);
        for kind in [
            SenderKind::Scream,
            SenderKind::ScreamTagged,
            SenderKind::Rtp,
        ] {
            let f = DetectedFormat { kind, ..f };
            assert_eq!(unpack_format(pack_format(f)), Some(f));
        }
        let decoded = DetectedFormat {
            kind: SenderKind::Memory,
            bit_depth: 32,
            big_endian: false,
            float: true,
            ..f
        };
        assert_eq!(unpack_format(pack_format(decoded)), Some(decoded));
        assert_eq!(decoded.describe(), "memory f32 96000 Hz 6 ch");
    }
}
