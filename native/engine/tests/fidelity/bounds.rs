//! What the fidelity tests hold a run to, and how attempts count.
//!
//! Bounds: the row of the fidelity bench's committed results for the same sender and load
//! (bench/results/fidelity.json, `results.rs`; content/docs/processor.mdx renders the same file),
//! each figure with a stated margin, because a test run is not the bench's run: 10 s measured
//! from 5 s (the bench: 60 s, 109 windows), on whatever machine runs the tests.
//!
//! - Pitch p50 of the run's windows: the row's p50 x1.5 + 1 ppm. A median of 10 windows
//!   scatters more than one of 109 (x1.5), and 1 ppm keeps a committed figure near 0 (the
//!   jittered sender's 0.24 ppm) from asking a 10 s run for less than the half-second measure
//!   scatters by from run to run (the jittered sender's windows read up to 1.4 ppm in 35 quiet
//!   10 s runs, December 2026).
//! - Every window: the row's p99, with the same margin. A 10 s run's largest window is about
//!   the p90 of its own windows, so the p99 is the figure that bounds it. A 10 s run measures
//!   from 5 s to 10 s, which is when the first drift estimate comes in (after 8 one-second
//!   windows): from ffmpeg's bursts that young estimate can be tens of ppm off, and the page
//!   publishes what it does to the pitch ("up to about 25 ppm" for a few seconds with ffmpeg,
//!   up to about 4.5 ppm with the jittered sender: [`YOUNG_BURSTY_PPM`], [`YOUNG_JITTERED_PPM`],
//!   from ten-second runs, not bench figures). A 60 s run's p99 holds those windows only when
//!   they are its largest, so a window may reach the young figure for its sender (same margin)
//!   where the row's p99 is lower: jittered-sender runs idle read 2.48 and 3.37 ppm at load 1.7
//!   and 1.2, over the idle row's 0.57 x1.5 + 1 = 1.85 ppm.
//! - Gaps: as many as the row heard, scaled to the test's length and rounded up (none where the
//!   bench heard none; one gap in a 60 s run allows one in a 10 s run, since it may fall in any
//!   10 s), each on average no longer than the row's gaps were x1.5; every gap heard must be in
//!   the stats (checked apart, on every attempt).
//!
//! These bounds moved on 6 Dec 2026 from November literals (5-minute runs on an older engine,
//! which the page no longer publishes) to the committed 60 s run. Where that made one looser, it
//! is because the committed run measured that much and the docs publish it: a test held to less
//! fails on what the docs state plainly. Against the November literals: the p50 bound under
//! `stress-ng` with ffmpeg 7.5 ppm (was 5.5), with the jittered sender 17.8 (was 4.9), and for
//! type 10 idle 9.7 (was 1.9); one gap of up to 45 ms allowed to the jittered sender under
//! `stress-ng` (was none; the committed run heard one of 30.2 ms, counted). The rest tightened
//! (the jittered sender idle: every window within 4.5 x1.5 + 1 = 7.75 ppm, was 21.6).
//!
//! Attempts: every attempt is reported, and every check runs on every attempt. The one thing
//! that can excuse a failed check is the sender: ffmpeg is not a real-time process, and on a
//! busy machine it can stall for longer than any buffer holds. The relay in front of the engine
//! (`common/relay.rs`) sees that. When an attempt misses a published figure and a packet of its
//! sender came later behind the sender's own pace than the buffer holds for it (the jitter
//! target the engine keeps for that sender), the attempt is reported as void, with both,
//! and run again, at most 3 times in all. When it misses one and the sender kept pace, the test
//! fails at once: no later attempt can hide it. Three void attempts fail the test too (nothing
//! was measured). What no sender excuses is checked on every attempt, void or not: every gap
//! heard is counted in the stats, and the format is the one sent.

use crate::hearing::{quantile_abs, Heard};
use crate::relay::Delivery;
use crate::results::Published;

/// How far a young drift estimate bends the pitch for a few seconds after it comes in, ppm, as
/// content/docs/processor.mdx publishes it ("The first seconds of a stream", from ten-second
/// runs: not bench figures): up to about 25 ppm from a bursty sender (ffmpeg), up to about 4.5
/// ppm from the jittered sender, whose on-time packets keep a clean pace (1.4 ppm at most in 35
/// quiet runs; 0.2-4.2 ppm in 10 runs on a shared machine at load 1.2-10, 6 Dec 2026).
pub const YOUNG_BURSTY_PPM: f64 = 25.0;
pub const YOUNG_JITTERED_PPM: f64 = 4.5;

/// A committed pitch figure with the stated margin: x1.5 + 1 ppm.
pub fn pitch_bound(figure: f64) -> f64 {
    figure * 1.5 + 1.0
}

/// What a run of `seconds` is held to, from a row of the committed results.
#[derive(Debug, PartialEq)]
pub struct Bounds {
    /// Pitch p50 of the run's windows, ppm.
    pub p50: f64,
    /// Every window, ppm, and the figure it came from (`p99` or the young estimate's).
    pub window: f64,
    pub window_figure: f64,
    /// Gaps heard, and their ms in all.
    pub gaps: usize,
    pub gap_ms: f64,
}

impl Bounds {
    /// `young`: how far the sender's young drift estimate, which comes in during the run, is
    /// published to bend the pitch ([`YOUNG_BURSTY_PPM`], [`YOUNG_JITTERED_PPM`]).
    pub fn of(published: &Published, young: f64, seconds: f64) -> Self {
        let window_figure = published.p99.max(young);
        let gaps = (published.gaps * seconds / published.seconds).ceil() as usize;
        let mean_gap_ms = if published.gaps > 0.0 {
            published.gap_ms / published.gaps
        } else {
            0.0
        };
        Self {
            p50: pitch_bound(published.p50),
            window: pitch_bound(window_figure),
            window_figure,
            gaps,
            gap_ms: gaps as f64 * mean_gap_ms * 1.5,
        }
    }
}

/// Half-second windows a 10 s run must measure after its first 5 s (a gap-free run has 9 or
/// 10; fewer means the tone was not there to measure).
pub const MIN_WINDOWS: usize = 8;

/// Whether the sender fell behind its own pace by more than the buffer holds for it
/// (`holds_ms`, the jitter target the engine keeps for it). The reason if so.
pub fn sender_stalled(delivery: &Delivery, holds_ms: f64) -> Option<String> {
    (delivery.latest_ms > holds_ms).then(|| {
        format!(
            "the sender itself fell {:.1} ms behind its pace ({:.2} s in), more than the \
             {holds_ms:.1} ms the buffer holds for it",
            delivery.latest_ms, delivery.latest_at_s
        )
    })
}

/// Checks a run against `bounds` (from `published`): gaps, enough windows, pitch p50 and every
/// window. Every figure missed, if any, each with the committed figure and its key.
pub fn check_published(
    name: &str,
    heard: &Heard,
    published: &Published,
    bounds: &Bounds,
) -> Result<(), String> {
    let mut missed = Vec::new();
    // + 0.0: the sum of no gaps is -0.0.
    let gap_ms = heard.gap_ms() + 0.0;
    if heard.gaps.len() > bounds.gaps || gap_ms > bounds.gap_ms + 1e-9 {
        missed.push(format!(
            "gaps {:?} (s, ms), {gap_ms:.1} ms in all; at most {} gap(s), {:.1} ms in all \
             allowed ({} {} and {} ms in a {} s run: scaled to this run, rounded up, x1.5 ms)",
            heard.gaps,
            bounds.gaps,
            bounds.gap_ms,
            published.source("gaps"),
            published.gaps,
            published.gap_ms,
            published.seconds
        ));
    }
    if heard.pitch_ppm.len() < MIN_WINDOWS {
        missed.push(format!(
            "{} pitch windows after 5 s, at least {MIN_WINDOWS} expected",
            heard.pitch_ppm.len()
        ));
    }
    let p50 = quantile_abs(&heard.pitch_ppm, 0.5);
    // NaN (no window at all) fails too.
    if p50.is_nan() || p50 > bounds.p50 {
        missed.push(format!(
            "pitch p50 {p50:.1} ppm, more than {:.2} ppm ({} is {} ppm; x1.5 + 1)",
            bounds.p50,
            published.source("pitch_ppm_p50"),
            published.p50
        ));
    }
    let most = quantile_abs(&heard.pitch_ppm, 1.0);
    if most.is_nan() || most > bounds.window {
        let source = if bounds.window_figure > published.p99 {
            format!(
                "{} ppm, published for a young drift estimate, above {} ({} ppm)",
                bounds.window_figure,
                published.source("pitch_ppm_p99"),
                published.p99
            )
        } else {
            format!(
                "{} is {} ppm",
                published.source("pitch_ppm_p99"),
                published.p99
            )
        };
        missed.push(format!(
            "a window {most:.1} ppm off, more than {:.2} ppm ({source}; x1.5 + 1)",
            bounds.window
        ));
    }
    eprintln!(
        "FIDELITY {name}: measured p50 {p50:.2} ppm (bound {:.2}), largest window {most:.2} ppm \
         (bound {:.2}), gaps {} / {:.1} ms (bound {} / {:.1} ms), from {} row {}",
        bounds.p50,
        bounds.window,
        heard.gaps.len(),
        gap_ms,
        bounds.gaps,
        bounds.gap_ms,
        published.file,
        published.row
    );
    if missed.is_empty() {
        Ok(())
    } else {
        Err(format!(
            "{name}: {}; windows {:.1?}",
            missed.join("; "),
            heard.pitch_ppm
        ))
    }
}

/// The verdict on one attempt for [`until_measured`]: measured (`None`) when it met the
/// figures; void (the reason) when it missed them and the sender stalled; a failure (panics)
/// when it missed them and the sender kept pace.
pub fn judge(checked: Result<(), String>, stalled: Option<String>) -> Option<String> {
    match (checked, stalled) {
        (Ok(()), _) => None,
        (Err(missed), Some(stall)) => Some(format!("{missed}; excused: {stall}")),
        (Err(missed), None) => panic!("{missed} (the sender kept pace)"),
    }
}

/// Runs `attempt` (given its number, 1-3) until one is measured rather than voided by its
/// sender; see the module's docs.
pub fn until_measured(name: &str, mut attempt: impl FnMut(u32) -> Option<String>) {
    let mut void = Vec::new();
    for n in 1..=3 {
        match attempt(n) {
            None => {
                if !void.is_empty() {
                    eprintln!("FIDELITY {name}: measured on attempt {n}; void before: {void:?}");
                }
                return;
            }
            Some(reason) => {
                eprintln!("FIDELITY {name}, attempt {n}: void, {reason}");
                void.push(reason);
            }
        }
    }
    panic!("{name}: 3 attempts void (each missed a figure while its sender stalled), nothing measured: {void:?}");
}

/// The bounds follow the results file: the same run, held to a fixture written as the bench
/// writes it, then to the fixture with other figures, meets the first and misses the second.
#[test]
fn the_bounds_follow_the_results_file() {
    let fixture = |p50: f64, p99: f64, gaps: u32, gap_ms: f64| {
        format!(
            r#"{{"figures": {{
              "jitter.stress.seconds": {{"value": 60, "unit": "s", "digits": 0}},
              "jitter.stress.tributary.pitch_ppm_p50": {{"value": {p50}, "unit": "ppm", "digits": 1}},
              "jitter.stress.tributary.pitch_ppm_p99": {{"value": {p99}, "unit": "ppm", "digits": 1}},
              "jitter.stress.tributary.gaps": {{"value": {gaps}, "unit": "count", "digits": 0}},
              "jitter.stress.tributary.gap_ms": {{"value": {gap_ms}, "unit": "ms", "digits": 1}}
            }}}}"#
        )
    };
    let dir =
        std::env::temp_dir().join(format!("tributary-fidelity-bounds-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("fidelity.json");
    let held = |text: String| {
        std::fs::write(&file, text).unwrap();
        let published = Published::read(&file, "jitter.stress").unwrap();
        // No young-estimate figure: the file's alone.
        let bounds = Bounds::of(&published, 0.0, 10.0);
        (published, bounds)
    };
    // A run with one 20 ms gap, p50 2 ppm, largest window 6 ppm.
    let run = Heard {
        gaps: vec![(6.0, 20.0)],
        pitch_ppm: vec![1.0, -2.0, 2.0, 6.0, -1.5, 2.5, 0.5, -3.0, 2.0, 1.0],
        seconds: 10.0,
    };

    let (published, bounds) = held(fixture(11.21, 13.17, 1, 30.2));
    assert_eq!(published.p99, 13.17);
    assert!(
        (bounds.p50 - (11.21 * 1.5 + 1.0)).abs() < 1e-9,
        "{bounds:?}"
    );
    assert!(
        (bounds.window - (13.17 * 1.5 + 1.0)).abs() < 1e-9,
        "{bounds:?}"
    );
    assert_eq!(bounds.gaps, 1);
    assert!((bounds.gap_ms - 45.3).abs() < 1e-9, "{bounds:?}");
    assert_eq!(
        check_published("fixture", &run, &published, &bounds),
        Ok(())
    );

    // The same run against a file whose figures are lower: each lower figure is a miss.
    let (published, tighter) = held(fixture(0.5, 2.0, 0, 0.0));
    assert!(
        tighter.p50 < bounds.p50 && tighter.window < bounds.window,
        "{tighter:?}"
    );
    assert_eq!((tighter.gaps, tighter.gap_ms), (0, 0.0));
    let missed = check_published("fixture", &run, &published, &tighter).unwrap_err();
    for what in [
        "jitter.stress.tributary.gaps",
        "jitter.stress.tributary.pitch_ppm_p50 is 0.5 ppm",
        "jitter.stress.tributary.pitch_ppm_p99 is 2 ppm",
    ] {
        assert!(missed.contains(what), "{what} not in: {missed}");
    }
    // Three gaps in 60 s allow one in 10 s (rounded up), and 7 in 60 s two.
    let (_, b) = held(fixture(1.0, 2.0, 3, 36.0));
    assert_eq!(b.gaps, 1);
    assert!((b.gap_ms - 18.0).abs() < 1e-9, "{b:?}");
    assert_eq!(held(fixture(1.0, 2.0, 7, 70.0)).1.gaps, 2);
    // A sender's windows may reach its young estimate's figure where the p99 is lower.
    let (published, _) = held(fixture(1.0, 2.0, 0, 0.0));
    let young = Bounds::of(&published, YOUNG_BURSTY_PPM, 10.0);
    assert_eq!(young.window, YOUNG_BURSTY_PPM * 1.5 + 1.0);
    assert_eq!(
        Bounds::of(&published, YOUNG_JITTERED_PPM, 10.0).window,
        YOUNG_JITTERED_PPM * 1.5 + 1.0
    );
    std::fs::remove_dir_all(&dir).unwrap();
}
