//! MP3 streams of a sink (issue 14): the encoder thread turns the sink's mix into whole 320
//! kbit/s frames in real time, whether or not anything plays; one stream per sink; closing it
//! frees the tap for the next.

mod common;
#[path = "common/mp3.rs"]
mod mp3;

use common::play;
use mp3::{headers, SilentSink};
use std::sync::atomic::Ordering::Relaxed;
use std::time::{Duration, Instant};

#[test]
fn a_silent_sink_streams_320_kbps_frames_in_real_time() {
    let fixture = SilentSink::start();
    let (stream, frames) = fixture.listen("a", 320).unwrap();
    std::thread::sleep(Duration::from_millis(2000));
    let cpu_ns = stream.stats.cpu_ns.load(Relaxed);
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
    let fixture = SilentSink::start();
    let (first, _) = fixture.listen("a", 128).unwrap();
    let err = fixture.listen("a", 128).err().unwrap();
    assert!(err.0.contains("already"), "{}", err.0);
    drop(first);
    let (again, frames) = fixture.listen("a", 128).unwrap();
    std::thread::sleep(Duration::from_millis(300));
    drop(again);
    assert!(headers(&frames).iter().all(|h| h.bitrate_kbps == 128));
    assert!(fixture.listen("nope", 128).is_err());
    assert!(fixture.listen("a", 384).is_err());
}

#[test]
fn a_stream_keeps_going_on_silence_when_its_sink_goes_away() {
    let mut fixture = SilentSink::start();
    let (stream, frames) = fixture.listen("a", 320).unwrap();
    std::thread::sleep(Duration::from_millis(300));
    play(&mut fixture.engine, vec![]);
    let removed = Instant::now();
    std::thread::sleep(Duration::from_millis(1500));
    let filled = stream.stats.filled_frames.load(Relaxed);
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
