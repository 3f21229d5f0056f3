//! The decoder thread with an output that plays at real time: the states go probing ->
//! playing -> drained, the output is opened only once the format is known and gets exactly the
//! decoded samples; the producer is refused (never blocked) when the input queue is full; a
//! stream that never ends keeps playing until stopped; what is not audio fails with its reason.

mod common;

use common::*;
use std::io::Cursor;
use std::sync::atomic::Ordering::Relaxed;
use std::sync::atomic::{AtomicBool, AtomicUsize};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};
use tributary_decode::{DecodeOptions, DecodeState, DecodeThread, FrameOutput, StreamInfo};

/// An output with room for `room` frames, played by [`Player`] at real time.
#[derive(Default)]
struct TestOutput {
    room: usize,
    info: Mutex<Option<StreamInfo>>,
    /// Every sample written, in order.
    written: Mutex<Vec<f32>>,
    /// Frames written and not yet played.
    queued: AtomicUsize,
}

impl FrameOutput for TestOutput {
    fn open(&self, info: &StreamInfo) -> Result<(), String> {
        let mut i = self.info.lock().unwrap();
        assert!(i.is_none(), "opened twice");
        *i = Some(info.clone());
        Ok(())
    }

    fn write(&self, samples: &[f32]) -> usize {
        let channels = self
            .info
            .lock()
            .unwrap()
            .as_ref()
            .expect("opened first")
            .channels;
        let frames = (samples.len() / channels).min(self.room - self.queued.load(Relaxed));
        self.written
            .lock()
            .unwrap()
            .extend_from_slice(&samples[..frames * channels]);
        self.queued.fetch_add(frames, Relaxed);
        frames
    }

    fn queued_frames(&self) -> usize {
        self.queued.load(Relaxed)
    }
}

/// Takes frames out of a [`TestOutput`] at `rate` frames a second, until dropped.
struct Player {
    stop: Arc<AtomicBool>,
    thread: Option<std::thread::JoinHandle<()>>,
}

impl Player {
    fn start(output: Arc<TestOutput>, rate: f64) -> Player {
        let stop = Arc::new(AtomicBool::new(false));
        let s = stop.clone();
        let thread = std::thread::spawn(move || {
            let start = Instant::now();
            let mut played = 0usize;
            while !s.load(Relaxed) {
                std::thread::sleep(Duration::from_millis(5));
                let due = (start.elapsed().as_secs_f64() * rate) as usize - played;
                let q = output.queued.load(Relaxed);
                let n = due.min(q);
                output.queued.fetch_sub(n, Relaxed);
                played += n;
            }
        });
        Player {
            stop,
            thread: Some(thread),
        }
    }
}

impl Drop for Player {
    fn drop(&mut self) {
        self.stop.store(true, Relaxed);
        self.thread.take().unwrap().join().unwrap();
    }
}

fn wait_for(what: &str, timeout_s: f64, mut done: impl FnMut() -> bool) {
    let start = Instant::now();
    while !done() {
        assert!(
            start.elapsed().as_secs_f64() < timeout_s,
            "timed out waiting for {what}"
        );
        std::thread::sleep(Duration::from_millis(5));
    }
}

fn spawn(input_bytes: usize, room: usize) -> (DecodeThread, Arc<TestOutput>) {
    let output = Arc::new(TestOutput {
        room,
        ..Default::default()
    });
    let thread = DecodeThread::spawn(
        "decode-test".into(),
        DecodeOptions::default(),
        input_bytes,
        output.clone(),
    )
    .unwrap();
    (thread, output)
}

#[test]
fn a_file_goes_probing_playing_drained_with_every_sample() {
    let flac = tone(&FORMATS[1]);
    let (_, expected, _) = decode_all(Cursor::new(flac.clone()), &Default::default()).unwrap();
    let (thread, output) = spawn(8192, 4410);
    let status = thread.status();
    assert_eq!(status.state, DecodeState::Probing);
    assert!(status.info.is_none() && output.info.lock().unwrap().is_none());
    // Pushed in 3000-byte chunks into an 8 KiB queue: refused while full, never waiting.
    let _player = Player::start(output.clone(), 44_100.0 * 4.0);
    let mut refused = 0;
    let mut seen_playing = false;
    for chunk in flac.chunks(3000) {
        let t = Instant::now();
        while !thread.push(chunk) {
            refused += 1;
            std::thread::sleep(Duration::from_millis(1));
        }
        assert!(t.elapsed() < Duration::from_secs(5));
        let s = thread.status();
        assert!(s.input_queued_bytes <= 8192);
        if s.state == DecodeState::Playing {
            seen_playing = true;
            assert_eq!(s.info.as_ref().unwrap().sample_rate, 44_100);
        }
    }
    thread.finish();
    assert!(refused > 0, "the queue never filled");
    wait_for("drained", 20.0, || {
        thread.status().state == DecodeState::Drained
    });
    let status = thread.status();
    assert!(seen_playing, "never seen playing");
    assert_eq!(status.error, None);
    assert_eq!(status.decoded_frames, expected.len() as u64 / 2);
    assert_eq!((status.queued_frames, status.input_queued_bytes), (0, 0));
    assert!(*output.written.lock().unwrap() == expected);
    assert!(
        thread.push(b"late bytes"),
        "input after the end is dropped, not refused"
    );
}

#[test]
fn html_fails_and_opens_nothing() {
    let (thread, output) = spawn(1 << 20, 4410);
    let page = b"<html><body>Service Unavailable</body></html>\n".repeat(100);
    assert!(thread.push(&page));
    thread.finish();
    wait_for("failed", 10.0, || {
        thread.status().state == DecodeState::Failed
    });
    let e = thread.status().error.unwrap();
    let want = format!(
        "not audio: no known format found in the first {} bytes",
        page.len()
    );
    assert_eq!(e, want);
    assert!(output.info.lock().unwrap().is_none());
    assert!(!thread.opened());
}

#[test]
fn a_stream_that_never_ends_plays_until_stopped() {
    // A radio-like MP3: no LAME/Xing header (no declared length), no ID3 tag, sent again and
    // again for as long as the decoder takes it.
    let mp3 = encode(
        "radio.mp3",
        "aevalsrc=0.5*sin(2*PI*1000*t):s=44100:d=2",
        &[
            "-c:a",
            "libmp3lame",
            "-b:a",
            "128k",
            "-write_xing",
            "0",
            "-id3v2_version",
            "0",
        ],
    );
    let (thread, output) = spawn(64 * 1024, 4410);
    let thread = Arc::new(thread);
    let _player = Player::start(output.clone(), 44_100.0);
    let feeding = Arc::new(AtomicBool::new(true));
    let (t, f) = (thread.clone(), feeding.clone());
    let feeder = std::thread::spawn(move || {
        let mut pushed = 0u64;
        'outer: loop {
            for chunk in mp3.chunks(4096) {
                while !t.push(chunk) {
                    std::thread::sleep(Duration::from_millis(2));
                }
                if !f.load(Relaxed) {
                    break 'outer;
                }
                pushed += chunk.len() as u64;
            }
        }
        pushed
    });
    // Longer than the file: it keeps playing.
    std::thread::sleep(Duration::from_millis(3000));
    let s = thread.status();
    assert_eq!(s.state, DecodeState::Playing);
    let seconds = s.decoded_frames as f64 / 44_100.0;
    assert!(seconds > 2.5, "{seconds} s decoded in 3 s");
    assert_eq!(s.skipped_packets, 0);
    let t = Instant::now();
    thread.stop();
    let stopped_in = t.elapsed();
    assert!(
        stopped_in < Duration::from_millis(500),
        "stop took {stopped_in:?}"
    );
    feeding.store(false, Relaxed);
    let pushed = feeder.join().unwrap();
    assert!(pushed as f64 > 2.5 * 16_000.0, "{pushed} bytes pushed");
    let after = thread.status().decoded_frames;
    std::thread::sleep(Duration::from_millis(50));
    assert_eq!(
        thread.status().decoded_frames,
        after,
        "decoding went on after stop"
    );
    assert_eq!(
        thread.status().state,
        DecodeState::Playing,
        "stopping is no failure"
    );
}
