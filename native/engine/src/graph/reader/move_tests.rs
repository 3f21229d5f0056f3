//! Skips and repeats are crossfades to an aligned position: a listener hears neither silence
//! nor a click, and a held tone keeps its phase across the move.

use super::tests::sine_packet;
use super::*;
use crate::options::JitterConfig;
use tributary_dsp::sample_format::SampleFormat;

/// What a reader played of a 1 kHz tone (left channel) from a sender at exact pace, 288-frame
/// packets, whose schedule `shift(t)` moves at one instant: negative, audio comes early (a
/// burst: too much queued); positive, late without catching up (too little queued).
struct Played {
    left: Vec<f32>,
    glitches: Glitches,
    /// Allocations made by the reader's renders.
    allocations: u64,
}

fn play(at_s: f64, shift_s: f64, seconds: f64) -> Played {
    let mut src = SourceBuffer::new(48_000, 2, 2.0, JitterConfig::default());
    let mut reader = SourceReader::new(2, 48_000, 48_000, 288, 0.0);
    let mut packet = Vec::with_capacity(1200);
    let mut out = vec![0.0f32; 576];
    let mut left = Vec::with_capacity((seconds * 48_000.0) as usize + 576);
    let mut allocations = 0;
    let mut k = 0u64;
    let mut render = 0.001;
    let due = |k: u64| {
        let t = k as f64 * 0.006;
        if t >= at_s {
            t + shift_s
        } else {
            t
        }
    };
    while render < seconds {
        while due(k) <= render {
            sine_packet(k * 288, 288, 48_000.0, &mut packet);
            let ts = (k * 288) as u32;
            src.push_rtp(k as u16, ts, &packet, SampleFormat::S16Be, due(k));
            k += 1;
        }
        let before = crate::test_alloc::on_this_thread();
        reader.render(&src, render, &mut out);
        allocations += crate::test_alloc::on_this_thread() - before;
        src.play_pos = reader.play_position();
        left.extend(out.chunks_exact(2).map(|f| f[0]));
        render += 0.006;
    }
    Played {
        left,
        glitches: reader.glitches,
        allocations,
    }
}

/// Checks that `x` (from its first sound) is the tone without silence, clicks or phase steps.
fn assert_clean_tone(x: &[f32], what: &str) {
    let first = x.iter().position(|v| v.abs() > 1e-4).expect("sound");
    // Past the start's fade in.
    let x = &x[first + 480..];
    let mut run = 0;
    for (n, v) in x.iter().enumerate() {
        run = if *v == 0.0 { run + 1 } else { 0 };
        assert!(run < 4, "{what}: silence at frame {n}");
    }
    // A click is a jump in the second difference: a 1 kHz sine at amplitude 0.5 bends at most
    // 0.5 * (2 pi 1000 / 48000)^2 = 0.0086 per frame.
    for (n, w) in x.windows(3).enumerate() {
        let bend = (w[2] - 2.0 * w[1] + w[0]).abs();
        assert!(bend < 0.02, "{what}: click of {bend:.3} at frame {n}");
    }
    // A phase step shows as a rising zero crossing out of its 48-frame rhythm.
    let mut last = None;
    for n in 1..x.len() {
        if x[n - 1] < 0.0 && x[n] >= 0.0 {
            let t = (n - 1) as f64 + f64::from(x[n - 1] / (x[n - 1] - x[n]));
            if let Some(l) = last {
                let period: f64 = t - l;
                assert!(
                    (period - 48.0).abs() < 1.0,
                    "{what}: period {period:.2} at frame {n}"
                );
            }
            last = Some(t);
        }
    }
}

#[test]
fn the_allocation_count_sees_an_allocation() {
    let before = crate::test_alloc::on_this_thread();
    let v = std::hint::black_box(vec![1u8; 64]);
    assert!(crate::test_alloc::on_this_thread() > before, "{v:?}");
}

#[test]
fn too_much_queued_is_skipped_by_an_aligned_crossfade() {
    let p = play(8.0, -0.060, 14.0);
    let g = p.glitches;
    assert!(g.skips >= 1, "{g:?}");
    assert!(g.skipped_frames >= 960, "at least 20 ms skipped: {g:?}");
    assert_eq!((g.underruns, g.silence_frames), (0, 0), "{g:?}");
    assert_clean_tone(&p.left, "skip");
    assert_eq!(p.allocations, 0, "a move allocates nothing");
}

#[test]
fn too_little_queued_is_repeated_by_an_aligned_crossfade() {
    let p = play(8.0, 0.012, 16.0);
    let g = p.glitches;
    assert!(g.repeats >= 1, "{g:?}");
    assert_eq!((g.underruns, g.silence_frames), (0, 0), "{g:?}");
    assert_clean_tone(&p.left, "repeat");
    assert_eq!(p.allocations, 0, "a move allocates nothing");
}
