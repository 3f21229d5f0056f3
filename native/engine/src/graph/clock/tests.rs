//! The clock's limits as the docs state them (content/docs/processor.mdx, "Clock recovery";
//! native/README.md; `correction_ppm` in daemon/src/schema/stats.ts), written here as literals
//! and never taken from the constants under test: changing a limit fails these tests until the
//! docs and the figures below change with it.

use super::*;

/// The applied rate moves by at most 20 ppm per second.
const SLEW_LIMIT_PER_S: f64 = 20e-6;
/// The buffer correction is at most 50 ppm either way.
const CORRECTION_CAP: f64 = 50e-6;
/// The buffer correction: 3 ppm per ms of (filtered) error beyond a dead band of 2 ms.
const PPM_PER_MS_BEYOND: f64 = 3e-6;
const DEAD_BAND_MS: f64 = 2.0;

/// One sink tick (6 ms) and the frames of 1 ms at the 48 kHz the tests run.
const DT: f64 = 0.006;
const MS: f64 = 48.0;
/// A 20 ms target.
const TARGET: f64 = 20.0 * MS;

/// A controller started at `drift` and run for 3 s on target: settled, with nothing adopted
/// as part of the target, so every error after this is steered.
fn settled(drift: f64) -> RateControl {
    let mut c = RateControl::new(48_000);
    c.start(drift);
    for _ in 0..500 {
        assert_eq!(c.step(TARGET, TARGET, drift, true, DT), Action::Play);
    }
    assert_eq!(c.correction(), 0.0);
    c
}

/// Asserts one step moved the applied rate by no more than the slew limit allows.
fn assert_slewed(before: f64, after: f64, dt: f64) {
    assert!(
        (after - before).abs() <= SLEW_LIMIT_PER_S * dt * (1.0 + 1e-9),
        "the rate moved {:.4} ppm in {dt} s (at most 20 ppm/s)",
        (after - before) * 1e6
    );
}

#[test]
fn a_steady_error_is_corrected_within_bounds_and_slew() {
    let mut c = RateControl::new(48_000);
    c.start(0.0);
    let mut last = 0.0;
    for i in 0..3000 {
        // On target while the filter settles, then 6 ms too much queued, with a bursty
        // +-10 ms sawtooth on top.
        let extra = if i < 500 { 0.0 } else { 288.0 };
        let saw = (i % 4) as f64 * 320.0 - 480.0;
        let a = c.step(960.0 + extra + saw, 960.0, 0.0, true, DT);
        assert_eq!(a, Action::Play);
        assert_slewed(last, c.applied(), DT);
        last = c.applied();
    }
    // 6 ms (less what the start offset gave back meanwhile) beyond the 2 ms dead band at
    // 3 ppm per ms: about 12 ppm.
    assert!((c.applied() - 12e-6).abs() < 2e-6, "{}", c.applied());
}

/// A drift estimate that jumps (a sender's clock first measured) is followed at exactly the
/// slew limit, never faster, and no further than the drift.
#[test]
fn the_rate_moves_towards_a_new_drift_at_20_ppm_per_second() {
    for drift in [1000e-6, -1000e-6] {
        let mut c = settled(0.0);
        assert_eq!(c.applied(), 0.0);
        let mut last = 0.0;
        let mut every_6_s = vec![0.0];
        // 60 s: 50 s to get there at 20 ppm/s, then 10 s at the drift.
        for i in 1..=10_000 {
            assert_eq!(c.step(TARGET, TARGET, drift, true, DT), Action::Play);
            assert_slewed(last, c.applied(), DT);
            last = c.applied();
            if i == 1000 {
                // 6 s after the jump: 120 ppm, the limit's whole worth.
                let expected = drift.signum() * 120e-6;
                assert!(
                    (c.applied() - expected).abs() < 1e-9,
                    "{drift}: {} ppm after 6 s, expected {} ppm",
                    c.applied() * 1e6,
                    expected * 1e6
                );
            }
            if i % 1000 == 0 {
                every_6_s.push(c.applied());
            }
            assert!(
                c.applied().abs() <= 1000e-6 + 1e-15,
                "overshoot {}",
                c.applied()
            );
        }
        for w in every_6_s.windows(2) {
            assert!(
                (w[1] - w[0]).abs() <= 6.0 * SLEW_LIMIT_PER_S * (1.0 + 1e-9),
                "{w:?}"
            );
        }
        assert!((c.applied() - drift).abs() < 1e-12, "{}", c.applied());
    }
}

/// The buffer correction for a steady error (after the start settled on target): nothing
/// within 2 ms, then 3 ppm per ms beyond, either way.
#[test]
fn the_buffer_correction_is_3_ppm_per_ms_beyond_2_ms() {
    // (error ms, expected correction ppm), all short of a skip (10 ms) or a repeat (-8 ms).
    let table = [
        (0.5, 0.0),
        (1.9, 0.0),
        (-1.9, 0.0),
        (3.0, 3.0),
        (5.0, 9.0),
        (9.0, 21.0),
        (-4.0, -6.0),
        (-7.0, -15.0),
    ];
    for (error_ms, expected_ppm) in table {
        let mut c = settled(0.0);
        // 40 s: the 2 s filter has long converged, and the rate has slewed there.
        for _ in 0..6667 {
            let a = c.step(TARGET + error_ms * MS, TARGET, 0.0, true, DT);
            assert_eq!(a, Action::Play, "{error_ms} ms");
        }
        let beyond = error_ms - f64::clamp(error_ms, -DEAD_BAND_MS, DEAD_BAND_MS);
        assert!((PPM_PER_MS_BEYOND * beyond * 1e6 - expected_ppm).abs() < 1e-9);
        assert!(
            (c.correction() * 1e6 - expected_ppm).abs() < 0.01,
            "{error_ms} ms gives {} ppm, expected {expected_ppm}",
            c.correction() * 1e6
        );
        assert!((c.applied() - c.correction()).abs() < 1e-12);
    }
}

/// Driven to its cap: a sender running 1,000 ppm fast or slow (the most the drift estimate
/// believes) that turns bursty once playing started, delivering 60 ms of audio at once every
/// 60 ms, so the buffer holds between 0 and 54 ms more (or less) than the target. It is never
/// 10 ms over (8 ms under) throughout a quarter second, so nothing is skipped or repeated and
/// the correction carries it all: 3 ppm per ms beyond 2 ms of the 27 ms mean would be 75 ppm.
/// It reaches 50 ppm exactly and never more; the rate gets to the drift plus 50 ppm, and never
/// moves faster than 20 ppm per second on the way.
#[test]
fn a_far_off_buffer_drives_the_correction_to_its_cap_and_no_further() {
    for (drift, sign) in [(1000e-6, 1.0), (-1000e-6, -1.0)] {
        let mut c = settled(drift);
        assert_eq!(c.applied(), drift);
        let mut last = c.applied();
        let (mut at_cap, mut most) = (None, 0.0f64);
        // 60 s.
        for i in 0..10_000 {
            let off = (i % 10) as f64 * 6.0 * MS;
            let a = c.step(TARGET + sign * off, TARGET, drift, true, DT);
            assert_eq!(a, Action::Play, "step {i}");
            assert_slewed(last, c.applied(), DT);
            last = c.applied();
            most = most.max(c.correction().abs());
            assert!(
                c.correction().abs() <= CORRECTION_CAP,
                "step {i}: correction {} ppm",
                c.correction() * 1e6
            );
            assert!(
                (c.applied() - drift).abs() <= CORRECTION_CAP * (1.0 + 1e-9),
                "step {i}: {} ppm from the drift",
                (c.applied() - drift) * 1e6
            );
            if c.correction() == sign * CORRECTION_CAP {
                at_cap.get_or_insert(i);
            }
        }
        let at = at_cap.unwrap_or_else(|| panic!("{drift}: never capped, at most {most}"));
        // The filtered error passes 18.7 ms (2 + 50 / 3) within seconds.
        assert!(at as f64 * DT < 10.0, "capped after {} s", at as f64 * DT);
        assert_eq!(c.correction(), sign * 50e-6);
        assert!(
            (c.applied() - (drift + sign * 50e-6)).abs() < 1e-12,
            "{} ppm",
            c.applied() * 1e6
        );
    }
}

/// A drop of the held target by 5 ms or more is skipped at once, and the correction with it:
/// the rate then glides back to the drift at 20 ppm per second like any other change, it does
/// not step there (a 21 ppm step of pitch at once).
#[test]
fn a_skip_for_a_dropped_target_lets_the_rate_glide_back() {
    let mut c = settled(0.0);
    let high = 40.0 * MS;
    // 9 ms too much for 40 s: 21 ppm.
    for _ in 0..6667 {
        assert_eq!(c.step(high + 9.0 * MS, high, 0.0, true, DT), Action::Play);
    }
    assert!((c.applied() - 21e-6).abs() < 0.01e-6, "{}", c.applied());
    let mut last = c.applied();
    // The target drops by 10 ms: skipped at once.
    let low = 30.0 * MS;
    assert_eq!(
        c.step(high + 9.0 * MS, low, 0.0, true, DT),
        Action::Move(480)
    );
    assert_eq!(c.correction(), 0.0);
    assert_slewed(last, c.applied(), DT);
    last = c.applied();
    // Back on target: 21 ppm takes a little over a second at 20 ppm/s.
    for _ in 0..300 {
        assert_eq!(c.step(low, low, 0.0, true, DT), Action::Play);
        assert_slewed(last, c.applied(), DT);
        last = c.applied();
    }
    assert_eq!(c.applied(), 0.0);
}

#[test]
fn an_error_found_at_the_start_is_not_steered() {
    let mut c = RateControl::new(48_000);
    c.start(0.0);
    for _ in 0..5000 {
        // 8 ms more than the target: where the prebuffer happened to fill.
        assert_eq!(c.step(960.0 + 384.0, 960.0, 0.0, true, DT), Action::Play);
        // 0.5 ms of it is left as error, inside the 2 ms dead band, and the rest is kept as
        // part of the target and given back at 2 ppm (0.06 ms over these 30 s): no correction.
        assert!(c.applied().abs() < 0.1e-6, "{}", c.applied());
    }
}

#[test]
fn far_off_target_moves_instead_of_bending_pitch() {
    let mut c = RateControl::new(48_000);
    c.start(0.0);
    let mut moved = None;
    for _ in 0..2000 {
        if let Action::Move(n) = c.step(960.0 + 3168.0, 960.0, 0.0, true, DT) {
            moved = Some(n);
            break;
        }
    }
    let n = moved.expect("66 ms too much is skipped");
    assert!(n > 960 && n <= 3168, "{n}");
    assert!(c.applied().abs() <= CORRECTION_CAP);
    // Too little moves back.
    c.start(0.0);
    let mut back = None;
    for _ in 0..2000 {
        if let Action::Move(n) = c.step(2400.0 - 1200.0, 2400.0, 0.0, true, DT) {
            back = Some(n);
            break;
        }
    }
    assert!(back.is_some_and(|n| n < -720), "{back:?}");
}
