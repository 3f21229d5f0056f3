//! Running dry where a reader cannot simply re-buffer at once: during a fade, and after it
//! let a stream go as ended. Both are stalls a listener hears; both are counted.

use super::tests::sine_packet;
use super::*;
use crate::options::JitterConfig;
use tributary_dsp::sample_format::SampleFormat;

/// A reader that lands at the newest audio while fading in (as a skip may) runs dry at once:
/// it re-buffers when the fade ends, plays the stream again, and counts the silence as an
/// underrun (it used to run on in the gap, one packet ahead of the sender, silent and
/// uncounted).
#[test]
fn running_dry_during_a_fade_re_buffers_and_counts_the_silence() {
    let mut src = SourceBuffer::new(48_000, 2, 1.0, JitterConfig::default());
    let mut reader = SourceReader::new(2, 48_000, 48_000, 288, 0.0);
    let mut packet = Vec::with_capacity(1200);
    let mut out = vec![0.0f32; 576];
    let (mut silent, mut sounding, mut run) = (0u64, 0u64, 0u64);
    for k in 0..400u64 {
        let now = k as f64 * 0.006;
        sine_packet(k * 288, 288, 48_000.0, &mut packet);
        src.push_rtp(
            k as u16,
            (k * 288) as u32,
            &packet,
            SampleFormat::S16Be,
            now,
        );
        if k < 50 {
            continue;
        }
        if k == 50 {
            reader.start_at(src.timeline.write_head());
        }
        reader.render(&src, now + 0.001, &mut out);
        src.play_pos = reader.play_position();
        // Silence is a run of 4 or more zero frames after the first sound (from the start on:
        // the reader starts at a live stream, fading in).
        for frame in out.chunks_exact(2) {
            if frame[0] == 0.0 {
                run += 1;
            } else {
                if run >= 4 {
                    silent += run;
                }
                run = 0;
                sounding += 1;
            }
        }
    }
    let g = reader.glitches;
    assert_eq!(g.underruns, 1, "{g:?}");
    assert!(sounding > 300 * 288, "plays again: {sounding} frames");
    // The silence before it played again, counted to within the fade (5 ms).
    let counted = g.silence_frames;
    assert!(
        counted.abs_diff(silent) <= 240,
        "silent {silent} frames, counted {counted}: {g:?}"
    );
}

/// With 300 ms queued (200 ms of jitter buffer, 100 ms of delay), a sender that stalls for
/// 400 ms is silent for longer than the source counts as active: the reader plays all it has
/// and lets go, as at the end of a stream. The stream comes back within half a second, so the
/// silence was a stall: one underrun, counted to within the fades.
#[test]
fn a_stall_that_outlasts_a_deep_buffer_is_counted() {
    let fixed = JitterConfig {
        adaptive: false,
        min_ms: 200.0,
        max_ms: 200.0,
    };
    let mut src = SourceBuffer::new(48_000, 2, 2.0, fixed);
    let mut reader = SourceReader::new(2, 48_000, 48_000, 288, 0.1);
    let mut packet = Vec::with_capacity(1200);
    let mut out = vec![0.0f32; 576];
    let (mut silent, mut run, mut heard) = (0u64, 0u64, false);
    let (stall_from, stall_s) = (2.0, 0.4);
    let mut k = 0u64;
    for tick in 0..1000u64 {
        let now = tick as f64 * 0.006;
        // Packets due by now: none during the stall, then all it held at once.
        while (k as f64 * 0.006) <= now {
            let due = k as f64 * 0.006;
            if due >= stall_from && now < stall_from + stall_s {
                break;
            }
            sine_packet(k * 288, 288, 48_000.0, &mut packet);
            src.push_rtp(
                k as u16,
                (k * 288) as u32,
                &packet,
                SampleFormat::S16Be,
                now,
            );
            k += 1;
        }
        reader.render(&src, now + 0.001, &mut out);
        src.play_pos = reader.play_position();
        for frame in out.chunks_exact(2) {
            if frame[0] == 0.0 {
                run += 1;
            } else {
                if heard && run >= 4 {
                    silent += run;
                }
                heard = true;
                run = 0;
            }
        }
    }
    let g = reader.glitches;
    assert_eq!(g.underruns, 1, "{g:?}");
    let counted = g.silence_frames + g.concealed_frames;
    assert!(silent > 48 * 100, "the stall was heard: {silent} frames");
    assert!(
        counted.abs_diff(silent) <= 480,
        "silent {silent} frames, counted {counted}: {g:?}"
    );
}
