//! The decoder's input: a bounded queue of byte chunks (an HTTP body as it arrives) between a
//! producer that must never wait (JavaScript through the binding) and the decoder thread, which
//! reads it as a blocking, non-seekable `Read` (what symphonia pulls from).

use std::collections::VecDeque;
use std::io::{self, Read};
use std::sync::atomic::AtomicU64;
use std::sync::atomic::Ordering::Relaxed;
use std::sync::{Arc, Condvar, Mutex, MutexGuard};
use std::time::Duration;

/// The reader's error once the input is closed (decoding stopped).
pub(crate) const STOPPED: &str = "decoding stopped";

#[derive(Default)]
struct Queue {
    chunks: VecDeque<Vec<u8>>,
    /// Bytes of the front chunk already read.
    front_read: usize,
    queued: usize,
    /// The producer said no more input comes.
    finished: bool,
    /// The reader is gone or stopped: input is no longer wanted.
    closed: bool,
}

/// The queue both ends share.
pub struct Input {
    capacity: usize,
    queue: Mutex<Queue>,
    ready: Condvar,
    /// Bytes the reader has taken in all.
    read_total: AtomicU64,
}

impl Input {
    /// A queue holding at most `capacity` bytes (at least one byte).
    pub fn new(capacity: usize) -> Arc<Input> {
        Arc::new(Input {
            capacity: capacity.max(1),
            queue: Mutex::default(),
            ready: Condvar::new(),
            read_total: AtomicU64::new(0),
        })
    }

    fn lock(&self) -> MutexGuard<'_, Queue> {
        // A panic while holding this lock leaves the queue consistent (every change is one
        // statement), so a poisoned lock is used as it is.
        self.queue.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Queues `chunk` and returns true; or returns false, taking nothing, when it does not fit
    /// in what is free (the producer waits and tries again). A chunk larger than the whole
    /// queue is taken when the queue is empty, so any chunk gets in eventually. Never waits.
    /// Once the reader no longer wants input (decoding ended, failed or was stopped) the chunk
    /// is dropped and true returned, so a producer's loop never stalls.
    pub fn push(&self, chunk: &[u8]) -> bool {
        let mut q = self.lock();
        if q.closed || q.finished || chunk.is_empty() {
            return true;
        }
        if q.queued > 0 && q.queued + chunk.len() > self.capacity {
            return false;
        }
        q.queued += chunk.len();
        q.chunks.push_back(chunk.to_vec());
        drop(q);
        self.ready.notify_one();
        true
    }

    /// No more input: the reader sees the end once the queue is empty.
    pub fn finish(&self) {
        self.lock().finished = true;
        self.ready.notify_one();
    }

    /// Wakes and fails the reader and drops what is queued; later pushes are dropped.
    pub fn close(&self) {
        let mut q = self.lock();
        q.closed = true;
        q.chunks.clear();
        q.queued = 0;
        drop(q);
        self.ready.notify_all();
    }

    /// Bytes queued and not yet read.
    pub fn queued_bytes(&self) -> usize {
        self.lock().queued
    }

    /// Bytes read so far.
    pub fn read_total(&self) -> u64 {
        self.read_total.load(Relaxed)
    }

    /// Whether the producer finished and everything was read.
    pub fn exhausted(&self) -> bool {
        let q = self.lock();
        q.finished && q.queued == 0
    }

    /// The reading end (one reader).
    pub fn reader(self: &Arc<Self>) -> InputReader {
        InputReader {
            input: self.clone(),
        }
    }
}

/// Reads the queue, waiting for input; `Ok(0)` once the producer finished and the queue is
/// empty; an error (`Interrupted` is never used: symphonia would retry it) once closed.
pub struct InputReader {
    input: Arc<Input>,
}

impl Read for InputReader {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        if buf.is_empty() {
            return Ok(0);
        }
        let input = &self.input;
        let mut q = input.lock();
        loop {
            if q.closed {
                return Err(io::Error::other(STOPPED));
            }
            if !q.chunks.is_empty() {
                break;
            }
            if q.finished {
                return Ok(0);
            }
            // A timeout only as a guard against a lost wake-up; every change notifies.
            q = input
                .ready
                .wait_timeout(q, Duration::from_millis(100))
                .map(|(g, _)| g)
                .unwrap_or_else(|e| e.into_inner().0);
        }
        let mut n = 0;
        while n < buf.len() {
            let Some(front) = q.chunks.front() else { break };
            let rest = &front[q.front_read..];
            let take = rest.len().min(buf.len() - n);
            buf[n..n + take].copy_from_slice(&rest[..take]);
            n += take;
            if take == rest.len() {
                q.chunks.pop_front();
                q.front_read = 0;
            } else {
                q.front_read += take;
            }
        }
        q.queued -= n;
        input.read_total.fetch_add(n as u64, Relaxed);
        Ok(n)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bounded_push_finish_and_close() {
        let input = Input::new(10);
        assert!(input.push(&[1; 6]));
        assert!(!input.push(&[2; 6]), "does not fit: refused, nothing taken");
        assert_eq!(input.queued_bytes(), 6);
        let mut r = input.reader();
        let mut buf = [0; 4];
        assert_eq!(r.read(&mut buf).unwrap(), 4);
        assert!(input.push(&[2; 6]), "fits once 4 bytes were read");
        assert_eq!(input.queued_bytes(), 8);
        input.finish();
        let mut all = Vec::new();
        r.read_to_end(&mut all).unwrap();
        assert_eq!(all, [1, 1, 2, 2, 2, 2, 2, 2]);
        assert!(input.exhausted());
        assert_eq!(input.read_total(), 12);
        // A chunk larger than the queue gets in once it is empty.
        let big = Input::new(4);
        assert!(big.push(&[0; 9]));
        assert!(!big.push(&[0; 1]));
        big.close();
        assert!(big.reader().read(&mut buf).is_err());
        assert!(
            big.push(&[0; 1]),
            "after close, input is dropped, not refused"
        );
        assert_eq!(big.queued_bytes(), 0);
    }

    #[test]
    fn a_waiting_reader_wakes_on_push() {
        let input = Input::new(100);
        let producer = input.clone();
        let t = std::thread::spawn(move || {
            std::thread::sleep(Duration::from_millis(30));
            producer.push(b"abc");
            producer.finish();
        });
        let mut s = String::new();
        input.reader().read_to_string(&mut s).unwrap();
        assert_eq!(s, "abc");
        t.join().unwrap();
    }
}
