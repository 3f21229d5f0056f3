//! Per-source receive side: places packets on the source's [`Timeline`] (RTP by timestamp, so
//! reordering and loss fall out of the positions; Scream as a byte stream), counts what
//! happened, and feeds the [`DriftEstimator`]. The jitter buffer's *target* (how much audio
//! paths keep queued) is fixed or adapts to the measured jitter within 20-200 ms.

use crate::options::JitterConfig;
use crate::source::drift::DriftEstimator;
use crate::source::timeline::{Timeline, WriteOutcome};
use tributary_dsp::sample_format::{decode_into, SampleFormat};

/// Positions start here so "before the first packet" is still a valid unsigned position.
pub const ORIGIN: u64 = 1 << 40;
/// A timestamp or sequence jump larger than this restarts the stream mapping.
const RESYNC_SECONDS: f64 = 2.0;
const RESYNC_SEQUENCE: u64 = 3000;

/// Counters a source accumulates (the engine copies them into its shared stats).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Counters {
    pub packets: u64,
    pub bytes: u64,
    pub lost: u64,
    pub late: u64,
    pub reordered: u64,
    pub duplicates: u64,
    pub resyncs: u64,
}

/// A source's receive state and buffer. Allocated once per source; ingest never allocates.
pub struct SourceBuffer {
    pub timeline: Timeline,
    pub drift: DriftEstimator,
    pub counters: Counters,
    /// The position zero-delay paths are reading now (set by the engine after each render).
    pub play_pos: u64,
    pub last_arrival_s: f64,
    rate: u32,
    config: JitterConfig,
    packet_frames: u64,
    /// RTP: highest extended sequence number and the timestamp-to-position mapping.
    highest_seq: Option<u64>,
    last_ext_ts: u64,
    ts_offset: i64,
    /// Scream: next position and the bytes of an incomplete frame carried to the next packet.
    next_pos: u64,
    partial: [u8; 32],
    partial_len: usize,
    /// Frame size (bytes) the carried partial frame was cut from: a packet of another format
    /// drops it instead of completing it with bytes of a different layout.
    partial_frame_bytes: usize,
    /// Origin of the drift estimator's position axis.
    drift_origin: u64,
    /// Extra target (ms) after paths ran dry: jumps by `SPIKE_STEP_MS` per underrun, decays
    /// by `SPIKE_DECAY_MS_PER_S` while packets arrive (set by readers, hence a `Cell`).
    spike_ms: std::cell::Cell<f64>,
    /// Longest recent gap between packets (ms), decaying: bursty senders (ffmpeg sends 21 ms
    /// of audio at once) need at least that much queued.
    peak_gap_ms: f64,
    /// Audio that arrived in one burst (packets less than [`BURST_GAP_S`] apart), and the
    /// largest recent burst (ms, decaying like `peak_gap_ms`): known from a bursty sender's
    /// very first burst, before any gap between bursts has been seen, so the first prebuffer
    /// already covers the wait for the next one.
    burst_frames: u64,
    peak_burst_ms: f64,
    /// Four times the interarrival jitter (ms), averaged over the stream's first
    /// `JITTER_MEAN_S`, then over that long: the RFC 3550 estimate follows the last 16
    /// packets, so with a jittery sender it swings by several ms within a second, and a target
    /// following it would steer the pitch. And how long it has averaged (s).
    mean_jitter_ms: f64,
    jitter_mean_s: f64,
    /// The target readers hold (ms), see [`SourceBuffer::target_frames`].
    held_target_ms: f64,
    /// When the current run of packets started (after silence) and the position of its first
    /// frame: a path that starts with the stream plays it from its first frame.
    pub stream_start_s: f64,
    pub stream_start_pos: u64,
    scratch: Vec<f32>,
}

/// Packets closer than this belong to one burst.
const BURST_GAP_S: f64 = 0.001;
/// Queued beyond the largest burst: the next burst may be this late without a gap.
const BURST_MARGIN_MS: f64 = 10.0;

/// How fast the held target follows a falling jitter target, and how far above it it may be.
const TARGET_FALL_MS_PER_S: f64 = 0.02;
const TARGET_DROP_MS: f64 = 10.0;

/// Time over which the jitter's part of the target is averaged.
const JITTER_MEAN_S: f64 = 10.0;

/// Target added per underrun, and how fast it is given back.
const SPIKE_STEP_MS: f64 = 10.0;
const SPIKE_DECAY_MS_PER_S: f64 = 0.5;

/// Samples of the largest packet decoded at once (1500 bytes of 16-bit audio).
const MAX_PACKET_SAMPLES: usize = 1024;

impl SourceBuffer {
    /// A buffer for `channels` at `rate` keeping `capacity_s` seconds (jitter + timeshift).
    pub fn new(rate: u32, channels: usize, capacity_s: f64, config: JitterConfig) -> Self {
        let capacity = (capacity_s.max(0.5) * f64::from(rate)).ceil() as usize;
        Self {
            timeline: Timeline::new(channels, capacity),
            drift: DriftEstimator::new(rate),
            counters: Counters::default(),
            play_pos: ORIGIN,
            last_arrival_s: f64::NEG_INFINITY,
            rate,
            config: config.clamped(),
            packet_frames: 0,
            highest_seq: None,
            last_ext_ts: 0,
            ts_offset: 0,
            next_pos: ORIGIN,
            partial: [0; 32],
            partial_len: 0,
            partial_frame_bytes: 0,
            drift_origin: ORIGIN,
            spike_ms: std::cell::Cell::new(0.0),
            peak_gap_ms: 0.0,
            mean_jitter_ms: 0.0,
            jitter_mean_s: 0.0,
            burst_frames: 0,
            peak_burst_ms: 0.0,
            held_target_ms: 0.0,
            stream_start_s: f64::NEG_INFINITY,
            stream_start_pos: ORIGIN,
            scratch: vec![0.0; MAX_PACKET_SAMPLES + 32],
        }
        .with_timeline_at(ORIGIN)
    }

    fn with_timeline_at(mut self, position: u64) -> Self {
        self.timeline.reset(position);
        self
    }

    pub fn rate(&self) -> u32 {
        self.rate
    }

    pub fn channels(&self) -> usize {
        self.timeline.channels()
    }

    pub fn set_config(&mut self, config: JitterConfig) {
        self.config = config.clamped();
        self.held_target_ms = self.jitter_target_ms();
    }

    /// How many frames paths should keep queued now: the jitter target's recent peak. It
    /// follows a rising jitter target at once and a falling one at `TARGET_FALL_MS_PER_S`
    /// (readers correct their rate for it: 0.02 ms/s is 20 ppm), unless it is more than
    /// `TARGET_DROP_MS` above, then it drops to it (readers skip or correct the difference).
    pub fn target_frames(&self) -> f64 {
        self.held_target_ms.max(self.jitter_target_ms()) * f64::from(self.rate) / 1000.0
    }

    fn hold_target(&mut self, since_s: f64) {
        let raw = self.jitter_target_ms();
        let fallen = self.held_target_ms - TARGET_FALL_MS_PER_S * since_s.clamp(0.0, 1.0);
        self.held_target_ms = if fallen - raw > TARGET_DROP_MS {
            raw
        } else {
            fallen.max(raw)
        };
    }

    /// The target the measured jitter asks for now (ms).
    fn jitter_target_ms(&self) -> f64 {
        if self.config.adaptive {
            let packet_ms = self.packet_frames as f64 * 1000.0 / f64::from(self.rate);
            (packet_ms + self.mean_jitter_ms)
                .max(self.config.min_ms + self.spike_ms.get())
                .max(self.peak_gap_ms + 2.0)
                .max(self.peak_burst_ms + BURST_MARGIN_MS)
                .clamp(self.config.min_ms, self.config.max_ms)
        } else {
            self.config.min_ms
        }
    }

    /// Called by a reader that ran out of audio while the source was sending: the adaptive
    /// target grows so the next spike of that size is absorbed.
    pub fn note_underrun(&self) {
        if self.config.adaptive {
            let spike = (self.spike_ms.get() + SPIKE_STEP_MS).min(self.config.max_ms);
            self.spike_ms.set(spike);
        }
    }

    /// Whether packets are arriving at their usual pace right now (the last one within the
    /// longest recent gap plus 10 ms).
    pub fn is_flowing(&self, now_s: f64) -> bool {
        now_s - self.last_arrival_s < (self.peak_gap_ms + 10.0) / 1000.0
    }

    /// The newest audio as a continuous position at router time `now_s`: the write head less
    /// the part of the last packet that, played at the nominal rate from its arrival, is not
    /// due yet. The write head moves a packet at a time, so a fill measured against it depends
    /// on where in the packet cycle a reader happens to render; against this it does not, and
    /// readers rendering at different instants (sinks whose ticks are spread over the period)
    /// settle on the same play position for the same time.
    pub fn head_at(&self, now_s: f64) -> f64 {
        let since = (now_s - self.last_arrival_s) * f64::from(self.rate);
        let pending = (self.packet_frames as f64 - since.max(0.0)).max(0.0);
        self.timeline.write_head() as f64 - pending
    }

    /// Whether a packet arrived within the last 200 ms.
    pub fn is_active(&self, now_s: f64) -> bool {
        now_s - self.last_arrival_s < 0.2
    }

    /// Audio buffered ahead of the zero-delay play position, in milliseconds.
    pub fn level_ms(&self) -> f64 {
        (self.timeline.write_head() as f64 - self.play_pos as f64) * 1000.0 / f64::from(self.rate)
    }

    /// Where a restarted stream should land: after what was written and at least a target
    /// ahead of what is playing.
    fn resync_position(&self) -> u64 {
        self.timeline
            .write_head()
            .max(self.play_pos + self.target_frames() as u64)
    }

    /// An RTP packet's payload.
    pub fn push_rtp(
        &mut self,
        sequence: u16,
        timestamp: u32,
        payload: &[u8],
        encoding: SampleFormat,
        arrival_s: f64,
    ) {
        let frame_bytes = encoding.bytes_per_sample() * self.channels();
        let frames = (payload.len() / frame_bytes) as u64;
        if frames == 0 {
            return;
        }
        self.count_packet(payload.len(), frames, arrival_s);
        // Extend sequence and timestamp across wraps, relative to the newest seen.
        let (ext_seq, ext_ts) = match self.highest_seq {
            None => (
                1 << 32 | u64::from(sequence),
                1 << 40 | u64::from(timestamp),
            ),
            Some(high) => (
                extend(high, u64::from(sequence), 16),
                extend(self.last_ext_ts, u64::from(timestamp), 32),
            ),
        };
        let restart = match self.highest_seq {
            None => true,
            Some(high) => {
                let seq_jump = ext_seq.abs_diff(high) > RESYNC_SEQUENCE;
                let ts_jump = ext_ts.abs_diff(self.last_ext_ts) as f64
                    > RESYNC_SECONDS * f64::from(self.rate);
                seq_jump || ts_jump
            }
        };
        if restart {
            if self.highest_seq.is_some() {
                self.counters.resyncs += 1;
            }
            let at = self.resync_position();
            self.ts_offset = at as i64 - ext_ts as i64;
            self.highest_seq = Some(ext_seq);
            self.last_ext_ts = ext_ts;
            self.drift_origin = at;
            self.drift.restart();
        } else if let Some(high) = self.highest_seq {
            if ext_seq > high {
                self.counters.lost += ext_seq - high - 1;
                self.highest_seq = Some(ext_seq);
                self.last_ext_ts = ext_ts;
            } else if ext_seq < high {
                self.counters.reordered += 1;
                self.counters.lost = self.counters.lost.saturating_sub(1);
            }
        }
        let position = (ext_ts as i64 + self.ts_offset) as u64;
        if self.stream_start_s == arrival_s {
            self.stream_start_pos = position;
        }
        if position + frames <= self.play_pos {
            self.counters.late += 1;
            // A sender that restarted without jumping its clock lands far in the past.
            if self.play_pos - position > (0.2 * f64::from(self.rate)) as u64
                && ext_seq >= self.highest_seq.unwrap_or(0)
            {
                self.highest_seq = None;
            }
            return;
        }
        if !restart && ext_seq == self.highest_seq.unwrap_or(0) {
            if let Some(since_origin) = (position + frames).checked_sub(self.drift_origin) {
                let in_burst = self.burst_frames > frames;
                self.drift
                    .observe_in_burst(arrival_s, since_origin, in_burst);
            }
        }
        self.write_decoded(position, encoding, payload);
    }

    /// A Scream payload (a byte stream of little-endian PCM).
    pub fn push_scream(&mut self, payload: &[u8], encoding: SampleFormat, arrival_s: f64) {
        let frame_bytes = encoding.bytes_per_sample() * self.channels();
        if frame_bytes == 0 || frame_bytes > self.partial.len() {
            return;
        }
        if self.partial_frame_bytes != frame_bytes {
            // The stream changed format (the engine rebuilds the buffer on a change it sees;
            // this holds even for a caller that does not): bytes of a frame of the old layout
            // cannot start a frame of the new one.
            self.partial_len = 0;
            self.partial_frame_bytes = frame_bytes;
        }
        let frames = ((self.partial_len + payload.len()) / frame_bytes) as u64;
        self.count_packet(payload.len(), frames, arrival_s);
        // The sender paused (or just started): start again a target ahead of playback.
        self.continue_stream(arrival_s);
        // Complete the frame left over from the previous packet.
        let mut rest = payload;
        if self.partial_len > 0 {
            let need = frame_bytes - self.partial_len;
            let take = need.min(rest.len());
            self.partial[self.partial_len..self.partial_len + take].copy_from_slice(&rest[..take]);
            self.partial_len += take;
            rest = &rest[take..];
            if self.partial_len == frame_bytes {
                let frame = self.partial;
                let pos = self.next_pos;
                self.write_decoded(pos, encoding, &frame[..frame_bytes]);
                self.next_pos += 1;
                self.partial_len = 0;
            }
        }
        let whole = rest.len() / frame_bytes * frame_bytes;
        if whole > 0 {
            let pos = self.next_pos;
            self.write_decoded(pos, encoding, &rest[..whole]);
            self.next_pos += (whole / frame_bytes) as u64;
        }
        let tail = &rest[whole..];
        self.partial[self.partial_len..self.partial_len + tail.len()].copy_from_slice(tail);
        self.partial_len += tail.len();
        let in_burst = self.burst_frames > frames;
        self.drift
            .observe_in_burst(arrival_s, self.next_pos - self.drift_origin, in_burst);
    }

    fn count_packet(&mut self, bytes: usize, frames: u64, arrival_s: f64) {
        let since = arrival_s - self.last_arrival_s;
        if since.is_nan() || since >= 0.2 {
            self.stream_start_s = arrival_s;
            self.burst_frames = 0;
        } else {
            // Peak-hold of the gap between packets, halving in about 10 s.
            self.peak_gap_ms = (self.peak_gap_ms * (1.0 - since / 14.0)).max(since * 1000.0);
            self.peak_burst_ms *= 1.0 - since / 14.0;
            self.jitter_mean_s = (self.jitter_mean_s + since).min(JITTER_MEAN_S);
            let jitter_ms = 4.0 * self.drift.jitter_s() * 1000.0;
            self.mean_jitter_ms += (jitter_ms - self.mean_jitter_ms) * since / self.jitter_mean_s;
        }
        if !(0.0..BURST_GAP_S).contains(&since) {
            self.burst_frames = 0;
        }
        self.burst_frames += frames;
        let burst_ms = self.burst_frames as f64 * 1000.0 / f64::from(self.rate);
        self.peak_burst_ms = self.peak_burst_ms.max(burst_ms);
        if since.is_finite() && since > 0.0 {
            let spike = self.spike_ms.get();
            if spike > 0.0 {
                self.spike_ms
                    .set((spike - since.min(1.0) * SPIKE_DECAY_MS_PER_S).max(0.0));
            }
        }
        self.counters.packets += 1;
        self.counters.bytes += bytes as u64;
        self.packet_frames = frames;
        self.hold_target(if since.is_finite() { since } else { 0.0 });
        self.last_arrival_s = arrival_s;
    }

    fn write_decoded(&mut self, position: u64, encoding: SampleFormat, bytes: &[u8]) {
        let channels = self.channels();
        let mut position = position;
        // Decode in chunks of whole frames that fit the scratch buffer.
        let chunk_frames = MAX_PACKET_SAMPLES / channels;
        let frame_bytes = encoding.bytes_per_sample() * channels;
        for chunk in bytes.chunks(chunk_frames * frame_bytes) {
            let n = decode_into(encoding, chunk, &mut self.scratch);
            let n = n / channels * channels;
            match self.timeline.write(position, &self.scratch[..n]) {
                WriteOutcome::Duplicate => self.counters.duplicates += 1,
                WriteOutcome::TooOld => self.counters.late += 1,
                _ => {}
            }
            position += (n / channels) as u64;
        }
    }
}

/// Extends a `bits`-wide counter value to 64 bits, choosing the wrap closest to `reference`.
fn extend(reference: u64, value: u64, bits: u32) -> u64 {
    let modulus = 1u64 << bits;
    let base = reference & !(modulus - 1);
    let candidates = [
        base.wrapping_sub(modulus) | value,
        base | value,
        (base + modulus) | value,
    ];
    candidates
        .into_iter()
        .min_by_key(|c| c.abs_diff(reference))
        .unwrap_or(base | value)
}

mod frames;
#[cfg(test)]
mod tests;
