//! The engine thread's record of one source: how incoming streams are matched to it, its
//! buffer, and the counters it publishes.

use crate::desired::{PathSpec, RtpSourceSpec};
use crate::limits::TIMESHIFT_DURATION_S;
use crate::options::JitterConfig;
use crate::source::buffer::SourceBuffer;
use crate::source::counters::{pack_format, DetectedFormat, SourceCounters};
use crate::source::memory::{MemoryFeed, MemoryShared};
use crate::source::sender_lock::SenderLock;
use crate::source::unknown::Unknown;
use crate::wire::rtp::RtpFormat;
use crate::wire::scream::ScreamFormat;
use crate::wire::SenderKind;
use std::net::IpAddr;
use std::sync::atomic::Ordering::Relaxed;
use std::sync::Arc;
use tributary_dsp::ChannelLayout;

/// Seconds kept beyond the longest path delay (jitter buffer ceiling plus margin).
const MARGIN_S: f64 = 1.0;

/// One source as the engine thread sees it.
pub struct SourceSlot {
    pub id: String,
    pub name: String,
    pub ip: Option<IpAddr>,
    pub tag: Option<String>,
    pub rtp: Option<RtpSourceSpec>,
    pub buffer: SourceBuffer,
    pub counters: Arc<SourceCounters>,
    pub capacity_s: f64,
    pub jitter: JitterConfig,
    /// Channel mask the sender announced (Scream) or the default for its channel count.
    pub mask: u32,
    /// Paths reading this source (updated on apply).
    pub readers: usize,
    /// Bit depth of the Scream stream (0 before the first packet).
    pub bit_depth: u8,
    /// One more every time the buffer is rebuilt for a new format: taps reading the source
    /// restart their readers when it moves (see [`crate::graph::tap::Tap::follow`]).
    pub generation: u64,
    /// An in-process source's feed (its audio comes from a ring, not from the network).
    pub memory: Option<MemoryFeed>,
    /// The one sender this source plays (see [`crate::source::sender_lock`]).
    pub sender: SenderLock,
    /// Format changes still allowed now (a token bucket, see [`SourceSlot::may_reformat`]).
    reformat_tokens: f64,
    reformat_at_s: f64,
}

/// Format changes a source may make in a burst, and how many more per second after that. A
/// real sender changes format when its user changes a setting; a stream of packets changing
/// it all the time (a bug, or someone spoofing the sender's address) would otherwise make the
/// engine thread rebuild buffers (up to 300 s of audio each) for every packet.
const REFORMAT_BURST: f64 = 4.0;
const REFORMATS_PER_S: f64 = 1.0;

impl SourceSlot {
    /// A slot for the source `spec` describes, keeping `max_delay_ms` of timeshift.
    pub fn new(
        spec: &PathSpec,
        max_delay_ms: f64,
        jitter: JitterConfig,
        counters: Arc<SourceCounters>,
    ) -> Self {
        let (rate, channels) = match &spec.rtp {
            Some(r) => (r.format.sample_rate, usize::from(r.format.channels)),
            None => (48_000, 2),
        };
        let capacity_s = Self::capacity_for(max_delay_ms);
        Self {
            id: spec.source_id.clone(),
            name: spec.source_name.clone(),
            ip: spec.ip,
            tag: spec.tag.clone(),
            rtp: spec.rtp.clone(),
            buffer: SourceBuffer::new(rate, channels, capacity_s, jitter),
            counters,
            capacity_s,
            jitter,
            mask: default_mask(channels),
            readers: 0,
            bit_depth: 0,
            generation: 0,
            memory: None,
            sender: SenderLock::default(),
            reformat_tokens: REFORMAT_BURST,
            reformat_at_s: f64::NEG_INFINITY,
        }
    }

    /// The same slot fed from memory (see [`crate::source::memory`]): its buffer in the ring's
    /// format, and matched by no network stream.
    pub fn with_memory(mut self, shared: Arc<MemoryShared>) -> Self {
        let f = shared.format;
        let channels = usize::from(f.channels);
        self.buffer = SourceBuffer::new(f.sample_rate, channels, self.capacity_s, self.jitter);
        self.mask = default_mask(channels);
        (self.ip, self.tag, self.rtp) = (None, None, None);
        self.memory = Some(MemoryFeed::new(shared));
        self
    }

    /// Moves what a memory source's writer wrote and is due now into the buffer (nothing for a
    /// network source).
    pub fn pull_memory(&mut self, now_s: f64) {
        if let Some(feed) = &mut self.memory {
            if feed.pull(&mut self.buffer, now_s) > 0 {
                let detected = feed.detected();
                self.note_format(detected);
            }
        }
    }

    /// Seconds of audio to keep for a path delay: whole seconds, at most TIMESHIFT_DURATION.
    pub fn capacity_for(max_delay_ms: f64) -> f64 {
        (max_delay_ms / 1000.0 + MARGIN_S)
            .ceil()
            .min(TIMESHIFT_DURATION_S + MARGIN_S)
    }

    /// Whether this source would play what the unknown sender `u` sends.
    pub fn matches(&self, u: &Unknown) -> bool {
        match u.kind {
            SenderKind::Scream => {
                self.rtp.is_none() && self.tag.is_none() && self.ip == Some(u.address)
            }
            SenderKind::ScreamTagged => self.tag.is_some() && self.tag == u.tag,
            SenderKind::Rtp => {
                self.rtp.as_ref().is_some_and(|r| r.port == u.port)
                    && self.ip.is_none_or(|ip| ip == u.address)
            }
            // Nothing in memory arrives as an unknown sender.
            SenderKind::Memory => false,
        }
    }

    /// Whether `spec` is matched the same way as this slot.
    pub fn same_matching(&self, spec: &PathSpec) -> bool {
        self.ip == spec.ip && self.tag == spec.tag && self.rtp == spec.rtp
    }

    /// Whether a packet of another format may rebuild the buffer now (at `now_s`); when not,
    /// the caller drops the packet (and counts it).
    pub fn may_reformat(&mut self, now_s: f64) -> bool {
        let since = (now_s - self.reformat_at_s).max(0.0);
        self.reformat_tokens = (self.reformat_tokens + since * REFORMATS_PER_S).min(REFORMAT_BURST);
        self.reformat_at_s = now_s;
        if self.reformat_tokens < 1.0 {
            return false;
        }
        self.reformat_tokens -= 1.0;
        true
    }

    /// Starts the stream afresh in a new format: a new buffer (every per-stream state with
    /// it: partial frames, sequence and timestamp mapping, drift estimate) and a new
    /// generation, so the taps reading it restart too. Allocates; only when a sender changes
    /// its format, at most [`REFORMAT_BURST`] times at once.
    pub fn reformat(&mut self, rate: u32, channels: usize, mask: u32) {
        log::info!(
            "source '{}' now sends {rate} Hz, {channels} channels",
            self.name
        );
        self.buffer = SourceBuffer::new(rate, channels, self.capacity_s, self.jitter);
        self.mask = mask;
        self.generation += 1;
    }

    /// Records whether the payload type of the latest RTP packet sets a format other than the
    /// source's settings (logged when that starts).
    pub fn note_mismatch(&self, payload_type: u8, differs: bool) {
        let code = if differs {
            u64::from(payload_type) + 1
        } else {
            0
        };
        let before = self.counters.format_mismatch.swap(code, Relaxed);
        if differs && before != code {
            log::warn!(
                "source '{}': payload type {payload_type} is {}, not the {} it is set to; \
                 playing it as the payload type says",
                self.name,
                RtpDescription(RtpFormat::from_static_payload_type(payload_type)),
                RtpDescription(self.rtp.as_ref().map(|r| r.format)),
            );
        }
    }

    /// Records the format of the latest packet.
    pub fn note_format(&self, format: DetectedFormat) {
        self.counters.format.store(pack_format(format), Relaxed);
    }

    /// Copies the buffer's counters and estimates into the shared atomics; logs a step of the
    /// sender's timeline the drift estimate started afresh after (at a bounded rate, see
    /// [`crate::source::drift::DriftEstimator::step_to_log`]).
    pub fn publish(&mut self) {
        if let Some((steps, size_s)) = self.buffer.drift.step_to_log() {
            log::info!(
                "source '{}': its packets came {:+.0} ms off their timestamps at once (a pause \
                 the timestamps skip, such as a PulseAudio sink suspended while idle): drift \
                 measured afresh from there ({steps} such steps so far)",
                self.name,
                size_s * 1000.0
            );
        }
        let c = &self.buffer.counters;
        let s = &self.counters;
        s.packets.store(c.packets, Relaxed);
        s.bytes.store(c.bytes, Relaxed);
        s.lost.store(c.lost, Relaxed);
        s.late.store(c.late, Relaxed);
        s.reordered.store(c.reordered, Relaxed);
        s.duplicates.store(c.duplicates, Relaxed);
        s.jitter_us
            .store((self.buffer.drift.jitter_s() * 1e6) as u64, Relaxed);
        s.buffer_us.store(
            (self.buffer.level_ms() * 1000.0).clamp(-1e12, 1e12) as i64,
            Relaxed,
        );
        s.drift_ppb
            .store((self.buffer.drift.ppm() * 1000.0) as i64, Relaxed);
    }
}

/// What the source counters' `format_mismatch` code means, for stats and the log.
pub fn describe_mismatch(code: u64) -> Option<String> {
    let pt = u8::try_from(code.checked_sub(1)?).ok()?;
    Some(format!(
        "RTP payload type {pt} ({}) arrives, not the format the source is set to; played as the payload type says",
        RtpDescription(RtpFormat::from_static_payload_type(pt)),
    ))
}

/// An RTP format in words (`L16 48000 Hz 2 ch`), or `dynamic` for a payload type that names
/// none; written without allocating (the engine thread logs it).
struct RtpDescription(Option<RtpFormat>);

impl std::fmt::Display for RtpDescription {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match &self.0 {
            Some(r) => write!(
                f,
                "{} {} Hz {} ch",
                r.encoding_name(),
                r.sample_rate,
                r.channels
            ),
            None => f.write_str("dynamic"),
        }
    }
}

/// The layout of a source: its announced mask when it matches the channel count, else the
/// usual layout for that many channels.
pub fn layout_for(channels: usize, mask: u32) -> ChannelLayout {
    ChannelLayout::from_mask(mask)
        .ok()
        .filter(|l| l.channels() == channels)
        .or_else(|| ChannelLayout::default_for_channels(channels).ok())
        .unwrap_or(ChannelLayout::STEREO)
}

/// The usual channel mask for a channel count.
pub fn default_mask(channels: usize) -> u32 {
    u32::from(ScreamFormat::default_mask(channels as u8))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn timeshift_memory_follows_the_longest_delay_and_stops_at_300_s() {
        assert_eq!(SourceSlot::capacity_for(0.0), 1.0);
        assert_eq!(SourceSlot::capacity_for(5_000.0), 6.0);
        assert_eq!(SourceSlot::capacity_for(120_500.0), 122.0);
        assert_eq!(SourceSlot::capacity_for(300_000.0), 301.0);
        assert_eq!(SourceSlot::capacity_for(1e9), 301.0);
        // 300 s of 48 kHz stereo f32: the most one source can hold, about 115 MB.
        let spec = PathSpec::new("a");
        let small = SourceSlot::new(&spec, 0.0, JitterConfig::default(), Arc::default());
        assert_eq!(small.buffer.timeline.memory_bytes(), 48_000 * 2 * 4);
    }
}
