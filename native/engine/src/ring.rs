//! A single-producer single-consumer ring of f32 samples, shared by two stages: the engine
//! thread writes a sink's mix for a listening encoder's thread ([`crate::sink::listen`]), and a
//! memory source's writer (a decoder thread, or JavaScript) writes PCM the engine thread reads
//! ([`crate::source::memory`]). Samples are stored as `AtomicU32` bits, so the ring needs no
//! `unsafe`; neither side waits, allocates or locks.

use std::sync::atomic::Ordering::{Acquire, Relaxed, Release};
use std::sync::atomic::{AtomicU32, AtomicU64};

pub struct PcmRing {
    slots: Box<[AtomicU32]>,
    /// Samples written so far (only the producer stores it).
    head: AtomicU64,
    /// Samples read so far (only the consumer stores it).
    tail: AtomicU64,
}

impl PcmRing {
    /// A ring of `capacity` samples (built off the real-time thread).
    pub fn new(capacity: usize) -> Self {
        Self {
            slots: (0..capacity.max(1)).map(|_| AtomicU32::new(0)).collect(),
            head: AtomicU64::new(0),
            tail: AtomicU64::new(0),
        }
    }

    pub fn capacity(&self) -> usize {
        self.slots.len()
    }

    /// Samples waiting to be read.
    pub fn available(&self) -> usize {
        (self.head.load(Acquire) - self.tail.load(Acquire)) as usize
    }

    /// Room for this many samples.
    pub fn free(&self) -> usize {
        self.capacity() - self.available()
    }

    /// Producer: writes `n` samples produced by `sample(i)` if they all fit; `false` (nothing
    /// written) otherwise.
    pub fn write_with(&self, n: usize, mut sample: impl FnMut(usize) -> f32) -> bool {
        if n > self.free() {
            return false;
        }
        let head = self.head.load(Relaxed);
        let cap = self.slots.len() as u64;
        for i in 0..n {
            let at = ((head + i as u64) % cap) as usize;
            self.slots[at].store(sample(i).to_bits(), Relaxed);
        }
        self.head.store(head + n as u64, Release);
        true
    }

    /// Consumer: moves up to `out.len()` samples into `out`; returns how many.
    pub fn read_into(&self, out: &mut [f32]) -> usize {
        let n = self.available().min(out.len());
        let tail = self.tail.load(Relaxed);
        let cap = self.slots.len() as u64;
        for (i, o) in out[..n].iter_mut().enumerate() {
            *o = f32::from_bits(self.slots[((tail + i as u64) % cap) as usize].load(Relaxed));
        }
        self.tail.store(tail + n as u64, Release);
        n
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::Arc;

    #[test]
    fn refuses_what_does_not_fit_and_wraps_around() {
        let ring = PcmRing::new(8);
        assert!(ring.write_with(6, |i| i as f32));
        assert!(!ring.write_with(3, |_| 9.0));
        let mut out = [0.0; 4];
        assert_eq!(ring.read_into(&mut out), 4);
        assert_eq!(out, [0.0, 1.0, 2.0, 3.0]);
        assert!(ring.write_with(6, |i| 10.0 + i as f32));
        let mut out = [0.0; 16];
        assert_eq!(ring.read_into(&mut out), 8);
        assert_eq!(&out[..8], &[4.0, 5.0, 10.0, 11.0, 12.0, 13.0, 14.0, 15.0]);
        assert_eq!(ring.read_into(&mut out), 0);
    }

    #[test]
    fn a_reader_on_another_thread_sees_every_sample_in_order() {
        let ring = Arc::new(PcmRing::new(1000));
        let reader = {
            let ring = ring.clone();
            std::thread::spawn(move || {
                let (mut next, mut out) = (0u32, [0.0f32; 97]);
                while next < 200_000 {
                    let n = ring.read_into(&mut out);
                    for v in &out[..n] {
                        assert_eq!(*v, next as f32);
                        next += 1;
                    }
                    std::thread::yield_now();
                }
            })
        };
        let mut written = 0u32;
        while written < 200_000 {
            let n = 64.min(200_000 - written);
            if ring.write_with(n as usize, |i| (written + i as u32) as f32) {
                written += n;
            } else {
                std::thread::yield_now();
            }
        }
        reader.join().unwrap();
    }
}
