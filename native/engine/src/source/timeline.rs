//! A source's received audio as a ring of interleaved f32 frames indexed by absolute frame
//! position. It is both the jitter buffer's storage (packets land where their timestamp says,
//! so reordering needs no queue) and the timeshift buffer (paths with a delay read further
//! back). Gaps are tracked as holes so readers conceal them instead of playing stale audio.

/// Most holes remembered at once; older ones are zero-filled and forgotten.
const MAX_HOLES: usize = 64;

/// What a write did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum WriteOutcome {
    /// Appended at or after the write head (`gap` frames were skipped and became a hole).
    Appended { gap: u64 },
    /// Filled (part of) a hole: a reordered packet.
    Filled,
    /// Every frame was already present.
    Duplicate,
    /// Older than the ring keeps.
    TooOld,
}

/// The ring. Allocated once; writes and reads never allocate.
pub struct Timeline {
    channels: usize,
    capacity: u64,
    data: Vec<f32>,
    write_head: u64,
    holes: [(u64, u64); MAX_HOLES],
    n_holes: usize,
}

impl Timeline {
    /// A ring holding `capacity` frames of `channels` channels, starting empty at position 0.
    pub fn new(channels: usize, capacity: usize) -> Self {
        let channels = channels.max(1);
        let capacity = capacity.max(1);
        Self {
            channels,
            capacity: capacity as u64,
            data: vec![0.0; capacity * channels],
            write_head: 0,
            holes: [(0, 0); MAX_HOLES],
            n_holes: 0,
        }
    }

    pub fn channels(&self) -> usize {
        self.channels
    }

    pub fn capacity(&self) -> u64 {
        self.capacity
    }

    /// One past the newest frame written.
    pub fn write_head(&self) -> u64 {
        self.write_head
    }

    /// Oldest position still held.
    pub fn oldest(&self) -> u64 {
        self.write_head.saturating_sub(self.capacity)
    }

    /// Bytes of sample memory held.
    pub fn memory_bytes(&self) -> usize {
        self.data.len() * std::mem::size_of::<f32>()
    }

    /// Forgets everything and restarts at `position` (used when a sender restarts).
    pub fn reset(&mut self, position: u64) {
        self.write_head = position;
        self.n_holes = 0;
    }

    /// Takes over what `old` holds (audio, holes, write head), to grow a playing source's ring:
    /// this ring must have the same channels and at least `old`'s capacity (else nothing
    /// happens and it returns false). Positions `old` no longer held become a hole, so a reader
    /// reaching real audio from there fades in.
    pub fn take_over(&mut self, old: &Timeline) -> bool {
        if old.channels != self.channels || old.capacity > self.capacity {
            return false;
        }
        let c = self.channels;
        let (start, head) = (old.oldest(), old.write_head);
        let mut pos = start;
        while pos < head {
            let from = (pos % old.capacity) as usize;
            let to = (pos % self.capacity) as usize;
            let run = (head - pos)
                .min(old.capacity - from as u64)
                .min(self.capacity - to as u64) as usize;
            self.data[to * c..(to + run) * c]
                .copy_from_slice(&old.data[from * c..(from + run) * c]);
            pos += run as u64;
        }
        self.write_head = head;
        self.n_holes = 0;
        for &(s, e) in &old.holes[..old.n_holes] {
            self.insert_hole(s, e);
        }
        if self.oldest() < start {
            self.add_hole(self.oldest(), start);
        }
        true
    }

    /// Copies `frames` (interleaved, whole frames) to absolute `position`.
    pub fn write(&mut self, position: u64, frames: &[f32]) -> WriteOutcome {
        let n = (frames.len() / self.channels) as u64;
        if n == 0 {
            return WriteOutcome::Duplicate;
        }
        let end = position + n;
        if end <= self.oldest() {
            return WriteOutcome::TooOld;
        }
        // Frames older than the ring keeps are skipped.
        let skip = self.oldest().saturating_sub(position);
        let (position, frames) = (position + skip, &frames[skip as usize * self.channels..]);
        if position >= self.write_head {
            let gap = position - self.write_head;
            if gap > 0 {
                self.add_hole(self.write_head, position);
            }
            self.copy_in(position, frames);
            self.write_head = end;
            self.prune_holes();
            return WriteOutcome::Appended { gap };
        }
        // Overlaps the past: only fill what is a hole, never overwrite received audio.
        let mut filled = false;
        let mut i = 0;
        while i < self.n_holes {
            let (hs, he) = self.holes[i];
            let (s, e) = (hs.max(position), he.min(end.min(self.write_head)));
            if s < e {
                let offset = (s - position) as usize * self.channels;
                let count = (e - s) as usize * self.channels;
                self.copy_in(s, &frames[offset..offset + count]);
                filled = true;
                self.remove_hole(i);
                if hs < s {
                    self.insert_hole(hs, s);
                }
                if e < he {
                    self.insert_hole(e, he);
                }
                continue;
            }
            i += 1;
        }
        if end > self.write_head {
            let tail = (self.write_head - position) as usize * self.channels;
            let head = self.write_head;
            self.copy_in(head, &frames[tail..]);
            self.write_head = end;
            filled = true;
        }
        if filled {
            WriteOutcome::Filled
        } else {
            WriteOutcome::Duplicate
        }
    }

    /// Whether the frame at `position` holds received audio.
    pub fn is_present(&self, position: u64) -> bool {
        position < self.write_head
            && position >= self.oldest()
            && !self.holes[..self.n_holes]
                .iter()
                .any(|&(s, e)| s <= position && position < e)
    }

    /// Copies one frame into `out` (`channels` samples); returns false (and writes zeros) when
    /// the frame is absent.
    pub fn read_frame(&self, position: u64, out: &mut [f32]) -> bool {
        if !self.is_present(position) {
            out[..self.channels].fill(0.0);
            return false;
        }
        let at = (position % self.capacity) as usize * self.channels;
        out[..self.channels].copy_from_slice(&self.data[at..at + self.channels]);
        true
    }

    /// The number of present frames starting at `position` (stops at the first absent one),
    /// at most `limit`.
    pub fn present_run(&self, position: u64, limit: u64) -> u64 {
        if !self.is_present(position) {
            return 0;
        }
        let mut end = self.write_head.min(position + limit);
        for &(s, _) in &self.holes[..self.n_holes] {
            if s > position && s < end {
                end = s;
            }
        }
        end - position
    }

    /// Copies `frames` present frames from `position` into `out` (caller checked presence).
    pub fn copy_out(&self, position: u64, out: &mut [f32]) {
        let frames = out.len() / self.channels;
        let mut done = 0;
        while done < frames {
            let at = ((position + done as u64) % self.capacity) as usize;
            let run = (self.capacity as usize - at).min(frames - done);
            let c = self.channels;
            out[done * c..(done + run) * c].copy_from_slice(&self.data[at * c..(at + run) * c]);
            done += run;
        }
    }

    fn copy_in(&mut self, position: u64, frames: &[f32]) {
        let c = self.channels;
        let total = frames.len() / c;
        // Only the newest `capacity` frames can be kept.
        let skip = total.saturating_sub(self.capacity as usize);
        let mut done = skip;
        while done < total {
            let at = ((position + done as u64) % self.capacity) as usize;
            let run = (self.capacity as usize - at).min(total - done);
            self.data[at * c..(at + run) * c].copy_from_slice(&frames[done * c..(done + run) * c]);
            done += run;
        }
    }

    fn add_hole(&mut self, start: u64, end: u64) {
        if self.n_holes == MAX_HOLES {
            // Forget the oldest hole, silencing it so stale audio never plays.
            let (s, e) = self.holes[0];
            self.remove_hole(0);
            self.zero(s, e);
        }
        self.insert_hole(start, end);
    }

    fn insert_hole(&mut self, start: u64, end: u64) {
        if self.n_holes < MAX_HOLES {
            let at = self.holes[..self.n_holes].partition_point(|&(s, _)| s < start);
            self.holes.copy_within(at..self.n_holes, at + 1);
            self.holes[at] = (start, end);
            self.n_holes += 1;
        } else {
            self.zero(start, end);
        }
    }

    fn remove_hole(&mut self, i: usize) {
        self.holes.copy_within(i + 1..self.n_holes, i);
        self.n_holes -= 1;
    }

    fn prune_holes(&mut self) {
        let oldest = self.oldest();
        while self.n_holes > 0 && self.holes[0].1 <= oldest {
            self.remove_hole(0);
        }
    }

    fn zero(&mut self, start: u64, end: u64) {
        let start = start.max(self.oldest());
        let c = self.channels;
        for p in start..end.min(self.write_head).min(start + self.capacity) {
            let at = (p % self.capacity) as usize * c;
            self.data[at..at + c].fill(0.0);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn frames(start: u64, n: u64) -> Vec<f32> {
        (start..start + n)
            .flat_map(|p| [p as f32, -(p as f32)])
            .collect()
    }

    #[test]
    fn appends_reorders_and_detects_holes() {
        let mut t = Timeline::new(2, 1000);
        assert_eq!(
            t.write(0, &frames(0, 10)),
            WriteOutcome::Appended { gap: 0 }
        );
        assert_eq!(
            t.write(20, &frames(20, 10)),
            WriteOutcome::Appended { gap: 10 }
        );
        assert!(!t.is_present(15));
        assert_eq!(t.present_run(0, 100), 10);
        assert_eq!(t.write(10, &frames(10, 10)), WriteOutcome::Filled);
        assert_eq!(t.present_run(0, 100), 30);
        assert_eq!(t.write(10, &frames(10, 10)), WriteOutcome::Duplicate);
        let mut out = vec![0.0; 60];
        t.copy_out(0, &mut out);
        assert_eq!(out, frames(0, 30));
    }

    #[test]
    fn wraps_and_forgets_what_is_too_old() {
        let mut t = Timeline::new(2, 100);
        for i in 0..10 {
            t.write(i * 30, &frames(i * 30, 30));
        }
        assert_eq!(t.write_head(), 300);
        assert_eq!(t.oldest(), 200);
        assert!(!t.is_present(199));
        assert_eq!(t.write(0, &frames(0, 30)), WriteOutcome::TooOld);
        let mut out = vec![0.0; 200];
        t.copy_out(200, &mut out);
        assert_eq!(out, frames(200, 100));
        let mut one = [9.0; 2];
        assert!(!t.read_frame(300, &mut one));
        assert_eq!(one, [0.0, 0.0]);
    }

    #[test]
    fn many_holes_never_expose_stale_audio() {
        let mut t = Timeline::new(1, 10_000);
        t.write(0, &[1.0; 10]);
        for i in 1..200u64 {
            t.write(i * 20, &[1.0; 10]);
        }
        // Every second block of 10 was never received; reads there must be silent or absent.
        let mut one = [0.0];
        for p in 0..4000 {
            if t.read_frame(p, &mut one) {
                assert!(p % 20 < 10 || one[0] == 0.0, "stale at {p}");
            }
        }
    }

    #[test]
    fn a_larger_ring_takes_over_audio_and_holes() {
        let mut old = Timeline::new(2, 100);
        for i in 0..10 {
            if i != 7 {
                old.write(i * 30, &frames(i * 30, 30));
            }
        }
        let mut big = Timeline::new(2, 1000);
        assert!(
            !Timeline::new(1, 1000).take_over(&old),
            "channels must match"
        );
        assert!(!Timeline::new(2, 50).take_over(&old), "never smaller");
        assert!(big.take_over(&old));
        assert_eq!(big.write_head(), 300);
        let mut f = [0.0; 2];
        for p in 0..300 {
            let expect = (200..300).contains(&p) && !(210..240).contains(&p);
            assert_eq!(big.read_frame(p, &mut f), expect, "frame {p}");
            if expect {
                assert_eq!(f, [p as f32, -(p as f32)]);
            }
        }
        // It keeps growing past the old capacity.
        big.write(300, &frames(300, 500));
        assert!(big.read_frame(250, &mut f) && f[0] == 250.0);
    }

    proptest! {
        #[test]
        fn arbitrary_writes_keep_invariants(
            writes in proptest::collection::vec((0u64..5000, 1usize..300), 1..80),
        ) {
            let mut t = Timeline::new(2, 1024);
            for (pos, n) in writes {
                t.write(pos, &frames(pos, n as u64));
                let mut f = [0.0; 2];
                for p in t.oldest()..t.write_head() {
                    if t.read_frame(p, &mut f) {
                        prop_assert_eq!(f[0], p as f32);
                    }
                }
            }
        }
    }
}
