//! The clock's limits seen from a reader playing a simulated sender: the buffer correction
//! driven to its documented cap of 50 ppm and no further, the rate never moving faster than the
//! documented 20 ppm per second (content/docs/processor.mdx, "Clock recovery"). The figures are
//! literals here, not the constants of `graph::clock`.

use super::tests::sine_packet;
use super::*;
use crate::options::JitterConfig;
use tributary_dsp::sample_format::SampleFormat;

/// What the reader did.
struct Run {
    /// (time s, applied ppm, correction ppm) after every render.
    steps: Vec<(f64, f64, f64)>,
    reader: SourceReader,
    drift_ppm: f64,
}

/// A sender `ppm` off nominal into a fixed 150 ms buffer: 6 ms packets on time for the first
/// `bursty_from_s`, then held and sent 102 ms (17 packets) at once every 102 ms (a Wi-Fi
/// client in power saving wakes at every beacon, about every 100 ms). Renders 6 ms sink blocks
/// on the router's clock for `seconds`.
fn run(ppm: f64, bursty_from_s: f64, seconds: f64) -> Run {
    let fixed = JitterConfig {
        adaptive: false,
        min_ms: 150.0,
        max_ms: 150.0,
    };
    let mut src = SourceBuffer::new(48_000, 2, 2.0, fixed);
    let mut reader = SourceReader::new(2, 48_000, 48_000, 288, 0.0);
    let sender_rate = 48_000.0 * (1.0 + ppm * 1e-6);
    let mut packet = Vec::with_capacity(1200);
    let mut out = vec![0.0f32; 576];
    let (mut seq, mut now) = (0u64, 0.0f64);
    let mut steps = Vec::new();
    // When packet `k` leaves: on its due time, or with the last one of its 60 ms burst.
    let leaves = |k: u64| {
        let due = (k * 288) as f64 / sender_rate;
        if due < bursty_from_s {
            due
        } else {
            let last_of_burst = (k / 17) * 17 + 16;
            (last_of_burst * 288) as f64 / sender_rate
        }
    };
    while now < seconds {
        while leaves(seq) <= now {
            sine_packet(seq * 288, 288, sender_rate, &mut packet);
            let (s, ts) = (seq as u16, (seq * 288) as u32);
            src.push_rtp(s, ts, &packet, SampleFormat::S16Be, leaves(seq));
            seq += 1;
        }
        reader.render(&src, now, &mut out);
        src.play_pos = reader.play_position();
        steps.push((now, reader.applied_ppm(), reader.correction_ppm()));
        now += 0.006;
    }
    Run {
        steps,
        drift_ppm: src.drift.ppm(),
        reader,
    }
}

/// Every change of the applied rate, step by step and second by second, is within 20 ppm/s.
fn assert_slew_within_20_ppm_per_s(steps: &[(f64, f64, f64)]) {
    for w in steps.windows(2) {
        let (dt, moved) = (w[1].0 - w[0].0, (w[1].1 - w[0].1).abs());
        assert!(
            moved <= 20.0 * dt + 1e-6,
            "at {:.3} s the rate moved {moved:.4} ppm in {dt:.4} s",
            w[1].0
        );
    }
    // Over every second (167 ticks of 6 ms), not only from tick to tick.
    for w in steps.windows(168) {
        let (first, last) = (w[0], w[167]);
        let moved = (last.1 - first.1).abs();
        assert!(
            moved <= 20.0 * (last.0 - first.0) + 1e-6,
            "from {:.3} s the rate moved {moved:.3} ppm in {:.3} s",
            first.0,
            last.0 - first.0
        );
    }
}

/// The sender turns bursty 10 s in: with a fixed buffer (whose target does not rise with the
/// bursts) the queue swings 0-96 ms below target, never 8 ms below throughout a quarter
/// second, so nothing is repeated, and the correction, at 3 ppm per ms beyond 2 ms of a mean
/// shortfall near 48 ms, asks for about 140 ppm: it holds exactly -50 ppm, never more, and the
/// rate (the sender's drift less those 50 ppm) gets there at no more than 20 ppm per second. A
/// sender 300 ppm fast and one 300 ppm slow.
#[test]
fn a_sender_turning_bursty_drives_the_correction_to_50_ppm_and_no_further() {
    for ppm in [300.0, -300.0] {
        let r = run(ppm, 10.0, 60.0);
        let g = &r.reader.glitches;
        assert!(
            (r.drift_ppm - ppm).abs() < 10.0,
            "{ppm}: drift {}",
            r.drift_ppm
        );
        let most = r.steps.iter().map(|s| s.2.abs()).fold(0.0, f64::max);
        assert!(most <= 50.0 + 1e-9, "{ppm}: correction reached {most} ppm");
        let capped = r.steps.iter().position(|s| (s.2 + 50.0).abs() < 1e-9);
        let Some(capped) = capped else {
            panic!("{ppm}: the correction never reached -50 ppm (at most {most})")
        };
        let capped_at = r.steps[capped].0;
        eprintln!(
            "{ppm} ppm sender: correction -50 ppm from {capped_at:.1} s, applied {:.1} ppm at the end, drift {:.1} ppm, {g:?}",
            r.steps.last().map_or(0.0, |s| s.1),
            r.drift_ppm
        );
        assert!(
            capped_at > 10.0 && capped_at < 20.0,
            "{ppm}: capped at {capped_at} s"
        );
        // It stays there: at 50 ppm the mean shortfall shrinks by only 0.05 ms per second.
        assert!(
            r.steps[capped..].iter().all(|s| (s.2 + 50.0).abs() < 1e-9),
            "{ppm}: left the cap"
        );
        let applied = r.steps.last().map_or(f64::NAN, |s| s.1);
        assert!(
            (applied - (r.drift_ppm - 50.0)).abs() < 1.0,
            "{ppm}: applied {applied} ppm, drift {} ppm",
            r.drift_ppm
        );
        assert_slew_within_20_ppm_per_s(&r.steps);
        assert_eq!((g.skips, g.repeats, g.underruns), (0, 0, 0), "{ppm}: {g:?}");
    }
}
