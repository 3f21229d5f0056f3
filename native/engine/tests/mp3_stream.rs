//! MP3 streams of a sink (issue 14): the encoder thread turns the sink's mix into whole 320
//! kbit/s frames in real time, whether or not anything plays; one stream per sink; closing it
//! frees the tap for the next.

mod common;

use common::*;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};
use tributary_codec::FrameHeader;

type Frames = Arc<Mutex<Vec<(Instant, Vec<u8>)>>>;

fn recorder() -> (Frames, tributary_engine::Deliver) {
    let frames: Frames = Arc::default();
    let sink = frames.clone();
    let deliver = Box::new(move |batch: &[u8]| {
        sink.lock().unwrap().push((Instant::now(), batch.to_vec()));
    });
    (frames, deliver)
}

/// Splits batches into frames, checking each is whole.
fn headers(frames: &Frames) -> Vec<FrameHeader> {
    let mut out = Vec::new();
    for (_, batch) in frames.lock().unwrap().iter() {
        let mut at = 0;
        while at < batch.len() {
            let h = FrameHeader::parse(&batch[at..]).expect("a batch is whole frames");
            at += h.length;
            out.push(h);
        }
        assert_eq!(at, batch.len());
    }
    out
}

#[test]
fn a_silent_sink_streams_320_kbps_frames_in_real_time() {
    let _serial = serial();
    let mut engine = engine();
    let (_rx, port) = receiver();
    play(&mut engine, vec![scream_sink("a", port, vec![])]);
    let (frames, deliver) = recorder();
    let stream = engine.listen_mp3("a", 320, deliver).unwrap();
    std::thread::sleep(Duration::from_millis(2000));
    let cpu_ns = stream
        .stats
        .cpu_ns
        .load(std::sync::atomic::Ordering::Relaxed);
    drop(stream);
    let h = headers(&frames);
    // 2 s at 48 kHz is 83 frames; the encoder holds about two.
    assert!((75..=86).contains(&h.len()), "{} frames", h.len());
    assert!(h
        .iter()
        .all(|h| (h.bitrate_kbps, h.sample_rate, h.channels, h.length) == (320, 48_000, 2, 960)));
    assert!(cpu_ns > 0);
}

#[test]
fn a_sink_has_one_stream_at_a_time_and_a_closed_one_frees_it() {
    let _serial = serial();
    let mut engine = engine();
    let (_rx, port) = receiver();
    play(&mut engine, vec![scream_sink("a", port, vec![])]);
    let (_f, deliver) = recorder();
    let first = engine.listen_mp3("a", 128, deliver).unwrap();
    let (_f, deliver) = recorder();
    let err = engine.listen_mp3("a", 128, deliver).err().unwrap();
    assert!(err.0.contains("already"), "{}", err.0);
    drop(first);
    let (frames, deliver) = recorder();
    let again = engine.listen_mp3("a", 128, deliver).unwrap();
    std::thread::sleep(Duration::from_millis(300));
    drop(again);
    assert!(headers(&frames).iter().all(|h| h.bitrate_kbps == 128));
    let (_f, deliver) = recorder();
    assert!(engine.listen_mp3("nope", 128, deliver).is_err());
    let (_f, deliver) = recorder();
    assert!(engine.listen_mp3("a", 384, deliver).is_err());
}

#[test]
fn a_stream_keeps_going_on_silence_when_its_sink_goes_away() {
    let _serial = serial();
    let mut engine = engine();
    let (_rx, port) = receiver();
    play(&mut engine, vec![scream_sink("a", port, vec![])]);
    let (frames, deliver) = recorder();
    let stream = engine.listen_mp3("a", 320, deliver).unwrap();
    std::thread::sleep(Duration::from_millis(300));
    play(&mut engine, vec![]);
    let removed = Instant::now();
    std::thread::sleep(Duration::from_millis(1500));
    let filled = stream
        .stats
        .filled_frames
        .load(std::sync::atomic::Ordering::Relaxed);
    drop(stream);
    let late = frames
        .lock()
        .unwrap()
        .iter()
        .filter(|(at, _)| *at > removed + Duration::from_millis(500))
        .count();
    assert!(late >= 10, "{late} batches after the sink went away");
    assert!(filled > 40_000, "{filled} frames of silence made up");
}
