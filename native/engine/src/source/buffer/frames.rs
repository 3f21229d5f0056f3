//! Decoded frames into a source's buffer: what a memory source's feed moves
//! ([`crate::source::memory`]), placed as a byte stream's frames are (each after the last).

use crate::source::buffer::SourceBuffer;
use crate::source::timeline::WriteOutcome;

impl SourceBuffer {
    /// Interleaved f32 frames arriving at `arrival_s` as one packet of `bytes` (what the writer
    /// wrote them as), placed after the previous ones; counted, measured for jitter and drift
    /// like a Scream sender's packet.
    pub fn push_frames(&mut self, samples: &[f32], bytes: usize, arrival_s: f64) {
        let channels = self.channels();
        let frames = samples.len() / channels;
        if frames == 0 {
            return;
        }
        self.count_packet(bytes, frames as u64, arrival_s);
        self.continue_stream(arrival_s);
        match self
            .timeline
            .write(self.next_pos, &samples[..frames * channels])
        {
            WriteOutcome::Duplicate => self.counters.duplicates += 1,
            WriteOutcome::TooOld => self.counters.late += 1,
            _ => {}
        }
        self.next_pos += frames as u64;
        let in_burst = self.burst_frames > frames as u64;
        self.drift
            .observe_in_burst(arrival_s, self.next_pos - self.drift_origin, in_burst);
    }

    /// A byte stream's next packet (Scream, memory): after a pause (or at the start) the stream
    /// starts again a target ahead of playback; a run starting now starts at its position.
    pub(super) fn continue_stream(&mut self, arrival_s: f64) {
        if self.next_pos < self.play_pos {
            let at = self.resync_position();
            self.next_pos = at;
            self.partial_len = 0;
            self.drift_origin = at;
            self.drift.restart();
        }
        if self.stream_start_s == arrival_s {
            self.stream_start_pos = self.next_pos;
        }
    }
}
