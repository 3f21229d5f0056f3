//! What a reader did to the audio that a listener could hear: silence because the buffer ran
//! dry, concealed losses, skips and repeats that re-centred the buffer. Counted in source
//! frames by the reader, published per source and per sink in milliseconds.

/// Running totals of one reader (or the part of them already published).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Glitches {
    /// Times the buffer ran dry while the source was sending.
    pub underruns: u64,
    /// Frames of silence played because of those (short stalls; a pause of half a second or
    /// more is the sender stopping, not a glitch).
    pub silence_frames: u64,
    /// Gaps concealed because packets were lost or came too late.
    pub concealed: u64,
    /// Frames replaced by concealment.
    pub concealed_frames: u64,
    /// Jumps ahead over audio (too much queued).
    pub skips: u64,
    pub skipped_frames: u64,
    /// Steps back that played audio again (too little queued).
    pub repeats: u64,
    pub repeated_frames: u64,
}

impl Glitches {
    /// What happened since `seen` (which must be an earlier reading of the same totals).
    pub fn since(&self, seen: &Glitches) -> Glitches {
        Glitches {
            underruns: self.underruns.saturating_sub(seen.underruns),
            silence_frames: self.silence_frames.saturating_sub(seen.silence_frames),
            concealed: self.concealed.saturating_sub(seen.concealed),
            concealed_frames: self.concealed_frames.saturating_sub(seen.concealed_frames),
            skips: self.skips.saturating_sub(seen.skips),
            skipped_frames: self.skipped_frames.saturating_sub(seen.skipped_frames),
            repeats: self.repeats.saturating_sub(seen.repeats),
            repeated_frames: self.repeated_frames.saturating_sub(seen.repeated_frames),
        }
    }

    pub fn is_empty(&self) -> bool {
        *self == Glitches::default()
    }
}

/// Frames at `rate` in microseconds.
pub fn frames_to_us(frames: u64, rate: u32) -> u64 {
    frames * 1_000_000 / u64::from(rate.max(1))
}
