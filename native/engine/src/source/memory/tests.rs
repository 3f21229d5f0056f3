use super::*;
use crate::options::JitterConfig;
use crate::source::buffer::ORIGIN;

fn stereo16(ring_ms: u32) -> (MemoryWriter, Arc<MemoryShared>) {
    let format = MemoryFormat {
        sample_rate: 48_000,
        channels: 2,
        sample_format: SampleFormat::S16Le,
        float: false,
    };
    memory_source(format, ring_ms).unwrap()
}

/// `frames` stereo s16le frames whose left sample is its index.
fn pcm(from: usize, frames: usize) -> Vec<u8> {
    (from..from + frames)
        .flat_map(|i| {
            let v = (i % 30_000) as i16;
            [v.to_le_bytes(), (-v).to_le_bytes()].concat()
        })
        .collect()
}

#[test]
fn a_write_takes_the_whole_frames_that_fit_and_says_how_many() {
    let (mut w, _) = stereo16(10); // 480 frames
    assert_eq!(w.free_frames(), 480);
    let mut bytes = pcm(0, 300);
    bytes.push(7); // half a sample: never taken
    assert_eq!(w.write(&bytes), 300);
    assert_eq!(w.write(&pcm(300, 300)), 180, "only the room left");
    assert_eq!((w.queued_frames(), w.free_frames()), (480, 0));
    assert_eq!(w.write(&pcm(480, 10)), 0, "full: nothing, and no waiting");
    assert_eq!(w.write_samples(&[0.5; 8]), 0);
}

#[test]
fn bad_formats_name_the_field() {
    let f = |rate, channels| MemoryFormat {
        sample_rate: rate,
        channels,
        sample_format: SampleFormat::S24Le,
        float: false,
    };
    let err = |f: MemoryFormat, ms| memory_source(f, ms).err().unwrap().0;
    assert!(err(f(4_000, 2), 100).starts_with("sample_rate: 4000 Hz"));
    assert!(err(f(48_000, 9), 100).starts_with("channels: 9"));
    assert!(err(f(48_000, 2), 5).starts_with("ring_ms: 5"));
    assert!(memory_source(f(48_000, 8), 10_000).is_ok());
}

#[test]
fn the_engine_takes_frames_at_the_sources_rate_never_ahead_of_real_time() {
    let (mut w, shared) = stereo16(2_000);
    assert_eq!(
        w.write(&pcm(0, 96_000)),
        96_000,
        "two seconds queued at once"
    );
    let mut feed = MemoryFeed::new(shared);
    let mut buf = SourceBuffer::new(48_000, 2, 3.0, JitterConfig::default());
    let mut moved = 0;
    let mut now = 10.0;
    // One second of engine wake-ups every 5 ms.
    for _ in 0..200 {
        now += 0.005;
        moved += feed.pull(&mut buf, now);
    }
    // The first run starts one step (20 ms) early; then 48 frames per ms, no more: 199 wake-ups
    // after the first, 0.995 s.
    let expected = (48_000.0 * (0.995 + 0.02)) as u64;
    assert!(
        moved.abs_diff(expected) <= 2,
        "{moved} frames, expected {expected}"
    );
    assert_eq!(w.queued_frames() as u64, 96_000 - moved);
    assert!(buf.timeline.write_head() - ORIGIN >= moved);
    assert_eq!(buf.counters.packets, 200);
    assert_eq!(buf.counters.bytes, moved * 4);
    // The samples arrive in order, decoded by the one decoder.
    let mut frame = [0.0f32; 2];
    let first = buf.timeline.write_head() - moved;
    assert!(buf.timeline.read_frame(first + 1000, &mut frame));
    assert_eq!(frame, [1000.0 / 32_768.0, -1000.0 / 32_768.0]);
}

#[test]
fn a_stalled_writer_is_owed_no_burst_and_the_feed_allocates_nothing() {
    let (mut w, shared) = stereo16(1_000);
    let mut feed = MemoryFeed::new(shared);
    let mut buf = SourceBuffer::new(48_000, 2, 3.0, JitterConfig::default());
    let mut now = 1.0;
    let mut written = 0;
    let step = |feed: &mut MemoryFeed, buf: &mut SourceBuffer, now: f64| {
        let before = crate::test_alloc::on_this_thread();
        let n = feed.pull(buf, now);
        assert_eq!(
            crate::test_alloc::on_this_thread(),
            before,
            "pull allocated"
        );
        n
    };
    // The writer keeps pace (5 ms every 5 ms) for 0.5 s, then stops for 0.3 s.
    for _ in 0..100 {
        now += 0.005;
        written += w.write(&pcm(written, 240));
        step(&mut feed, &mut buf, now);
    }
    for _ in 0..60 {
        now += 0.005;
        step(&mut feed, &mut buf, now);
    }
    assert_eq!(w.queued_frames(), 0, "everything written was taken");
    // It writes again: the engine takes one step's worth, not the 0.3 s it could not take.
    w.write(&pcm(written, 48_000));
    now += 0.005;
    let first = step(&mut feed, &mut buf, now);
    assert_eq!(first, 960, "one 20 ms step after the stall, not a catch-up");
    now += 0.005;
    assert_eq!(step(&mut feed, &mut buf, now), 240);
}
