//! The graphic-equalizer design against the slider curve, computed from the slider values.

use super::*;

/// xorshift64, uniform in [0, 1).
fn uniform(seed: &mut u64) -> f64 {
    *seed ^= *seed << 13;
    *seed ^= *seed >> 7;
    *seed ^= *seed << 17;
    (*seed >> 11) as f64 / (1u64 << 53) as f64
}

/// Slider dB, straight from the documented mapping (not from the design code).
fn slider_db(g: f32) -> f64 {
    20.0 * (g as f64).max(0.01).log10()
}

/// The worst errors (dB) at the band centres and at the midpoints between them.
fn errors(design: &Design) -> (f64, f64) {
    let (rate, g) = (design.rate, design.gains);
    let (mut centre_err, mut mid_err) = (0.0f64, 0.0f64);
    for b in 0..BANDS {
        let f = BAND_CENTRES[b];
        centre_err = centre_err.max((design.response_db(f) - slider_db(g[b])).abs());
        if b + 1 < BANDS {
            let m = (f * BAND_CENTRES[b + 1]).sqrt();
            let expected = 0.5 * (slider_db(g[b]) + slider_db(g[b + 1]));
            mid_err = mid_err.max((design.response_db(m) - expected).abs());
        }
    }
    assert!(rate >= 44_100, "centres unmoved");
    (centre_err, mid_err)
}

#[test]
fn accuracy_over_random_settings() {
    // Uniform in value and uniform in dB, 0.25-2.0, at the three common rates.
    for rate in [44_100u32, 48_000, 96_000] {
        let designer = Designer::new(rate);
        let mut seed = 0x2545_F491_4F6C_DD1D ^ rate as u64;
        let (mut worst_c, mut worst_m) = (0.0f64, 0.0f64);
        for k in 0..200 {
            let gains: [f32; BANDS] = std::array::from_fn(|_| {
                let u = uniform(&mut seed);
                if k % 2 == 0 {
                    (0.25 + 1.75 * u) as f32
                } else {
                    10f64.powf((-12.0 + 18.06 * u) / 20.0).min(2.0) as f32
                }
            });
            let (c, m) = errors(&designer.design(&gains));
            worst_c = worst_c.max(c);
            worst_m = worst_m.max(m);
        }
        assert!(
            worst_c < 0.5 && worst_m < 1.0,
            "{rate} Hz: centres {worst_c:.3} dB, midpoints {worst_m:.3} dB"
        );
    }
}

#[test]
fn all_bands_up_is_flat_from_50_hz_to_15_khz() {
    for rate in [44_100u32, 48_000, 96_000, 192_000] {
        let design = Designer::new(rate).design(&[2.0; BANDS]);
        for k in 0..=400 {
            let f = 50.0 * 300f64.powf(k as f64 / 400.0);
            let r = design.response_db(f);
            assert!(
                (r - 6.0206).abs() < 0.4,
                "{rate} Hz at {f:.0} Hz: {r:.3} dB"
            );
        }
    }
}

#[test]
fn one_band_is_its_slider_and_its_neighbours_stay_put() {
    for (band, g) in [(8usize, 2.0f32), (8, 0.5), (0, 0.25), (17, 1.5), (4, 0.0)] {
        let mut gains = FLAT;
        gains[band] = g;
        let design = Designer::new(48_000).design(&gains);
        let at = design.response_db(BAND_CENTRES[band]);
        let tol = if g == 0.0 { 1.0 } else { 0.3 };
        assert!((at - slider_db(g)).abs() < tol, "b{}: {at:.2}", band + 1);
        // One band and a half away the slider curve is flat again.
        for other in [band as isize - 2, band as isize + 2] {
            if (0..BANDS as isize).contains(&other) {
                let r = design.response_db(BAND_CENTRES[other as usize]);
                assert!(
                    r.abs() < 0.3,
                    "b{} next to b{}: {r:.2}",
                    other + 1,
                    band + 1
                );
            }
        }
    }
}

#[test]
fn flat_sliders_run_nothing_and_folded_bands_add_up() {
    assert!(Designer::new(48_000).design(&FLAT).is_flat());
    // At 32 kHz b17 and b18 both sit at 15.2 kHz: their dB add up there, as before the design.
    let mut gains = FLAT;
    gains[16] = 1.5;
    gains[17] = 1.5;
    let design = Designer::new(32_000).design(&gains);
    assert_eq!(
        design.gain_db[17], 0.0,
        "the folded band carries no filter of its own"
    );
    let r = design.response_db(0.475 * 32_000.0);
    assert!((r - 2.0 * slider_db(1.5)).abs() < 0.3, "{r:.2}");
    for rate in [8_000u32, 11_025, 16_000, 22_050, 32_000, 384_000] {
        let gains: [f32; BANDS] = std::array::from_fn(|b| [0.3, 1.9, 0.0, 1.2][b % 4]);
        let design = Designer::new(rate).design(&gains);
        for b in 0..BANDS {
            assert!(design.gain_db[b].is_finite() && design.shapes[b].alpha() > 0.0);
        }
        assert!(slider_curve_db(&gains, rate, 1000.0).is_finite());
    }
}

#[test]
fn a_slider_at_zero_is_a_deep_cut_at_the_floor() {
    for rate in [44_100u32, 48_000, 96_000] {
        let mut gains = FLAT;
        gains[9] = 0.0;
        let design = Designer::new(rate).design(&gains);
        let r = design.response_db(BAND_CENTRES[9]);
        assert!((r - FLOOR_DB).abs() < 2.0, "{rate}: {r:.1} dB");
        // Beside the notch, only the ripple of its compensation (no boost to pay for it).
        for k in 0..=200 {
            let f = 30.0 * 600f64.powf(k as f64 / 200.0);
            let r = design.response_db(f);
            assert!(r < 0.75, "{rate} at {f:.0} Hz: {r:.2}");
        }
    }
}

#[test]
fn designs_apply_only_at_their_rate_and_same_gains_change_nothing() {
    let mut eq = Equalizer::new(48_000, 2, &FLAT).unwrap();
    let mut gains = FLAT;
    gains[3] = 1.7;
    let other = Designer::new(44_100).design(&gains);
    let err = eq.set_design(&other).unwrap_err().to_string();
    assert!(
        err.contains("44100 Hz") && err.contains("48000 Hz"),
        "{err}"
    );
    assert!(eq.is_flat());
    let design = eq.designer().design(&gains);
    // Designs made by hand are checked: gains within bounds, positive widths, our centres.
    for broken in [
        Design {
            gain_db: [f64::NAN; BANDS],
            ..design
        },
        Design {
            gain_db: [40.0; BANDS],
            ..design
        },
        Design {
            shapes: [design.shapes[0].with_alpha(-1.0); BANDS],
            ..design
        },
        Design {
            shapes: [design.shapes[0]; BANDS],
            ..design
        },
    ] {
        let err = eq.set_design(&broken).unwrap_err().to_string();
        assert!(err.contains("equalizer design: filter"), "{err}");
    }
    assert!(eq.is_flat());
    eq.set_design(&design).unwrap();
    assert_eq!(eq.design(), &design);
    assert_eq!(eq.gains(), &gains);
    assert!(!eq.is_flat());
    // Setting the same gains again starts no new ramp.
    let mut buf = AudioBuffer::new(2, 4800);
    buf.set_frames(4800);
    eq.process(&mut buf).unwrap();
    let settled = eq.current_db(3);
    eq.set_gains(&gains).unwrap();
    eq.process(&mut buf).unwrap();
    assert_eq!(eq.current_db(3), settled);
    assert_eq!(settled, design.gain_db[3]);
}

#[test]
fn no_filter_rings_longer_than_0_4_s_even_for_combs_of_deep_cuts() {
    // Deep cuts between boosts would have the fit answer with narrow +24 dB filters ringing for
    // seconds; widths are held so that every filter decays by 120 dB within 0.4 s.
    for rate in [44_100u32, 96_000] {
        let designer = Designer::new(rate);
        let mut seed = 99u64;
        let mut slowest = 0.0f64;
        for _ in 0..100 {
            let gains: [f32; BANDS] = std::array::from_fn(|_| {
                if uniform(&mut seed) < 0.3 {
                    0.0
                } else {
                    (0.25 + 1.75 * uniform(&mut seed)) as f32
                }
            });
            let d = designer.design(&gains);
            for b in (0..BANDS).filter(|b| d.gain_db[*b] != 0.0) {
                let c = d.shapes[b].coefs(d.gain_db[b]);
                // Poles' radius squared is a2; dB lost per sample, then seconds for 120 dB.
                let per_sample = -10.0 * (c.a2 as f64).log10();
                slowest = slowest.max(120.0 / per_sample / rate as f64);
            }
        }
        assert!(slowest <= 0.401, "{rate} Hz: {slowest:.3} s");
    }
}

#[test]
fn ramping_between_two_designs_moves_gains_and_widths_without_clicks() {
    use crate::testutil::{buffer_of, sine};
    let rate = 48_000;
    let mut seed = 5u64;
    let mut setting =
        || -> [f32; BANDS] { std::array::from_fn(|_| (0.25 + 1.75 * uniform(&mut seed)) as f32) };
    let (first, second) = (setting(), setting());
    for f in [70.0, 185.0, 1000.0] {
        let mut eq = Equalizer::new(rate, 1, &first).unwrap();
        let sig = sine(f, rate as f64, 0.1, rate as usize);
        let mut out = Vec::new();
        for (k, chunk) in sig.chunks(SUBBLOCK).enumerate() {
            if k == 2000 {
                eq.set_gains(&second).unwrap();
            }
            let mut b = buffer_of(chunk, 1);
            eq.process(&mut b).unwrap();
            out.extend_from_slice(b.channel(0));
        }
        // The ramp ends on the second design exactly, gain and width.
        assert_eq!(eq.design(), &Designer::new(rate).design(&second));
        // A sine's second difference is at most its amplitude times w^2; every 16 frames the
        // ramp's coefficient step adds a little (zipper steps about 46-48 dB below the tone when
        // all 18 filters move at once, as here; 49-52 dB with the earlier fixed-width filters
        // set straight to the sliders). The bound allows 40 dB below the tone: a click, a jump of
        // 1 % of the tone or more, fails it.
        let w = 2.0 * std::f64::consts::PI * f / rate as f64;
        let settled = &out[rate as usize / 2..];
        let amp = settled.iter().fold(0.0f32, |m, v| m.max(v.abs())) as f64;
        let worst = (1..settled.len() - 1)
            .map(|n| (settled[n + 1] - 2.0 * settled[n] + settled[n - 1]).abs() as f64)
            .fold(0.0, f64::max);
        assert!(
            worst <= amp * (w * w + 0.01),
            "{f} Hz: second difference {worst:.2e}, amplitude {amp:.3}"
        );
    }
}

#[test]
fn a_notch_released_to_flat_decays_before_it_stops() {
    use crate::testutil::{buffer_of, sine};
    let rate = 48_000;
    let mut gains = FLAT;
    gains[1] = 0.0;
    let mut eq = Equalizer::new(rate, 1, &gains).unwrap();
    let f = 100.0;
    let sig = sine(f, rate as f64, 0.1, 3 * rate as usize);
    let mut out = Vec::new();
    for (k, chunk) in sig.chunks(SUBBLOCK).enumerate() {
        if k == 1000 {
            eq.set_gains(&FLAT).unwrap();
        }
        let mut b = buffer_of(chunk, 1);
        eq.process(&mut b).unwrap();
        out.extend_from_slice(b.channel(0));
    }
    assert!(eq.is_flat(), "stopped once its state had decayed");
    // Flat, the filter adds only its decaying state to the input; when it stops, what is left of
    // that is dropped at once. It must be gone by then (the 0.1 s that suits a wide filter is
    // far too short for this narrow notch's poles).
    let start = 1000 * SUBBLOCK + (RAMP_MS / 1000.0 * rate as f64) as usize + SUBBLOCK;
    let residual: Vec<f64> = (start..out.len())
        .map(|n| (out[n] - sig[n]) as f64)
        .collect();
    let stop = residual
        .iter()
        .rposition(|r| *r != 0.0)
        .map_or(0, |i| i + 1);
    let dropped = residual[stop.saturating_sub(1)].abs();
    let at_end = residual[..480].iter().fold(0.0f64, |m, r| m.max(r.abs()));
    // 0.05 when the ramp ends; stopping after a fixed 0.1 s would drop 2e-6 of it.
    assert!(
        at_end > 0.01 && dropped < 1e-7,
        "{at_end:.2e} at the end of the ramp, {dropped:.2e} dropped after {stop} frames"
    );
}
