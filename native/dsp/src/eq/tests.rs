use super::*;
use crate::testutil::{buffer_of, db, fit_sine, sine};

fn mixed_gains() -> [f32; BANDS] {
    std::array::from_fn(|b| [0.3, 1.7, 0.8, 2.0, 0.0, 1.25][b % 6])
}

#[test]
fn pipelined_kernels_match_the_scalar_reference() {
    let mut partial = FLAT;
    partial[0] = 1.5;
    partial[9] = 0.4;
    partial[17] = 1.9;
    let moderate: [f32; BANDS] = std::array::from_fn(|b| [0.5, 1.4, 0.8, 2.0, 0.6][b % 5]);
    for channels in [1, 2, 3, 6, 8] {
        for gains in [mixed_gains(), moderate] {
            for isa in Isa::supported() {
                let mut fast = Equalizer::new(48_000, channels, &gains)
                    .unwrap()
                    .with_isa(isa);
                let mut reference = Equalizer::new(48_000, channels, &gains).unwrap();
                let sig: Vec<f32> = (0..3000)
                    .map(|i| ((i * 7919 % 2001) as f32 / 1000.0 - 1.0) * 0.5)
                    .collect();
                let mut pos = 0;
                for (k, len) in [1usize, 7, 16, 17, 255, 1000, 3].iter().cycle().enumerate() {
                    if pos >= sig.len() {
                        break;
                    }
                    if k == 3 {
                        fast.set_gains(&partial).unwrap();
                        reference.set_gains(&partial).unwrap();
                    }
                    let len = (*len).min(sig.len() - pos);
                    let mut a = buffer_of(&sig[pos..pos + len], channels);
                    let mut b = a.clone();
                    fast.process(&mut a).unwrap();
                    reference.process_reference(&mut b).unwrap();
                    if isa == Isa::Baseline {
                        assert!(a == b, "{channels} ch, {isa:?}, block {k}: kernels differ");
                    } else {
                        // Fused multiply-adds round once instead of twice, so the kernels differ by
                        // f32 round-off, which the high-Q low bands amplify (each stays within
                        // about -104 dBFS peak of an f64 model on pink noise). A wrong lane or
                        // state would differ by orders of magnitude more.
                        let deep = gains.contains(&0.0);
                        let (peak_bound, rms_bound) = (2e-4f32, 1e-4f64);
                        for c in 0..channels {
                            let (mut worst, mut sq) = (0.0f32, 0.0f64);
                            for (x, y) in a.channel(c).iter().zip(b.channel(c)) {
                                worst = worst.max((x - y).abs());
                                sq += ((x - y) as f64).powi(2);
                            }
                            let rms = (sq / a.frames().max(1) as f64).sqrt();
                            assert!(
                                worst < peak_bound && rms < rms_bound,
                                "{channels} ch, deep {deep}, block {k}: {worst} / {rms}"
                            );
                        }
                    }
                    pos += len;
                }
            }
        }
    }
}

#[test]
fn measured_response_matches_the_analytic_response_within_0_1_db_at_the_centres() {
    let gains = mixed_gains();
    for rate in [44_100u32, 48_000, 96_000] {
        for band in 0..BANDS {
            let f = centre(band, rate);
            let n = rate as usize / 2;
            let mut eq = Equalizer::new(rate, 1, &gains).unwrap();
            let mut buf = buffer_of(&sine(f, rate as f64, 0.25, n), 1);
            eq.process(&mut buf).unwrap();
            let (amp, _, _) = fit_sine(&buf.channel(0)[n / 2..], f, rate as f64);
            let measured = db(amp / 0.25);
            let expected = Designer::new(rate).design(&gains).response_db(f);
            assert!(
                (measured - expected).abs() < 0.1,
                "{rate} Hz, band {band} ({f} Hz): {measured:.3} vs {expected:.3}"
            );
        }
    }
}

#[test]
fn live_changes_ramp_in_small_steps_without_clicks() {
    let rate = 48_000;
    let mut eq = Equalizer::new(rate, 1, &FLAT).unwrap();
    let f = BAND_CENTRES[8];
    let sig = sine(f, rate as f64, 0.2, rate as usize);
    let mut out = Vec::new();
    let mut max_step: f64 = 0.0;
    let mut gains = FLAT;
    for (k, chunk) in sig.chunks(SUBBLOCK).enumerate() {
        if k == 100 {
            gains[8] = 2.0;
            eq.set_gains(&gains).unwrap();
        }
        if k == 1500 {
            gains[8] = 0.0;
            eq.set_gains(&gains).unwrap();
        }
        let before = eq.current_db(8);
        let mut b = buffer_of(chunk, 1);
        eq.process(&mut b).unwrap();
        max_step = max_step.max((eq.current_db(8) - before).abs());
        out.extend_from_slice(b.channel(0));
    }
    assert_eq!(
        eq.current_db(8),
        eq.design().gain_db[8],
        "ramp reached the target"
    );
    // The filter ramps from about +6 dB to the design's notch (about -50 dB) in 150 steps.
    assert!(
        max_step < 0.45,
        "largest gain step {max_step} dB per {SUBBLOCK} frames"
    );
    // The sine's second difference stays within what a sine of the largest amplitude allows.
    let w = 2.0 * std::f64::consts::PI * f / rate as f64;
    let bound = 0.2 * 2.0 * w * w * 1.1;
    for n in 1..out.len() - 1 {
        let d2 = (out[n + 1] - 2.0 * out[n] + out[n - 1]).abs() as f64;
        assert!(d2 <= bound, "click at {n}: {d2} > {bound}");
    }
}

#[test]
fn flat_bands_cost_nothing_and_flat_is_bit_transparent() {
    let mut eq = Equalizer::new(48_000, 2, &FLAT).unwrap();
    assert!(eq.is_flat());
    let mut buf =
        AudioBuffer::from_planes(&[&[0.1, f32::NAN, -0.3], &[1e-30, 0.5, f32::INFINITY]]).unwrap();
    let before = format!("{buf:?}");
    eq.process(&mut buf).unwrap();
    assert_eq!(format!("{buf:?}"), before);
    // Ramping away and back to flat ends flat (after the state has decayed).
    let mut g = FLAT;
    g[3] = 1.8;
    eq.set_gains(&g).unwrap();
    assert!(!eq.is_flat());
    let mut block = buffer_of(&sine(185.0, 48_000.0, 0.5, 48_000), 2);
    eq.process(&mut block).unwrap();
    eq.set_gains(&FLAT).unwrap();
    let mut block = buffer_of(&sine(185.0, 48_000.0, 0.5, 48_000), 2);
    eq.process(&mut block).unwrap();
    assert!(eq.is_flat());
}

#[test]
fn nan_input_does_not_poison_the_filter_and_bad_gains_are_rejected() {
    let mut eq = Equalizer::new(48_000, 1, &mixed_gains()).unwrap();
    let mut bad = AudioBuffer::from_planes(&[&[f32::NAN, f32::INFINITY, 0.0]]).unwrap();
    eq.process(&mut bad).unwrap();
    let mut good = buffer_of(&sine(1000.0, 48_000.0, 0.5, 1000), 1);
    eq.process(&mut good).unwrap();
    assert!(good.channel(0).iter().all(|v| v.is_finite()));
    assert!(eq.set_gains(&[1.0; 17]).is_err());
    let mut g = FLAT;
    g[4] = 2.5;
    assert!(eq.set_gains(&g).unwrap_err().to_string().contains("b5"));
    g[4] = f32::NAN;
    assert!(eq.set_gains(&g).is_err());
    assert!(Equalizer::new(48_000, 9, &FLAT).is_err());
}

#[test]
fn f32_round_off_stays_below_16_bit_dither() {
    // Pink-ish noise through strong low-band settings, against the same filters in f64.
    let rate = 48_000;
    let n = 96_000;
    let mut seed = 12_345u32;
    let mut acc = [0.0f32; 6];
    let sig: Vec<f32> = (0..n)
        .map(|_| {
            seed ^= seed << 13;
            seed ^= seed >> 17;
            seed ^= seed << 5;
            let w = seed as f32 / u32::MAX as f32 - 0.5;
            for (k, v) in acc.iter_mut().enumerate() {
                *v = 0.97f32.powi(k as i32 + 1) * *v + 0.05 * w;
            }
            acc.iter().sum::<f32>() * 0.5
        })
        .collect();
    let mut gains = FLAT;
    gains[..6].copy_from_slice(&[1.6, 1.5, 1.4, 1.25, 0.3, 0.0]);
    for isa in Isa::supported() {
        let mut eq = Equalizer::new(rate, 1, &gains).unwrap().with_isa(isa);
        let mut buf = buffer_of(&sig, 1);
        eq.process(&mut buf).unwrap();
        let mut exact: Vec<f64> = sig.iter().map(|v| *v as f64).collect();
        let design = *eq.design();
        for band in (0..BANDS).filter(|b| design.gain_db[*b] != 0.0) {
            let c = design.shapes[band].coefs(design.gain_db[band]);
            let [b0, a1d2, c2, a1, a2] = [c.b0, c.a1d2, c.c2, c.a1, c.a2].map(|v| v as f64);
            let (mut s1, mut s2) = (0.0f64, 0.0f64);
            for x in exact.iter_mut() {
                let y = b0 * *x + s1;
                let old = s1;
                s1 = a1d2 * *x + s2 - a1 * old;
                s2 = c2 * *x - a2 * old;
                *x = y;
            }
        }
        let (mut peak, mut sq) = (0.0f64, 0.0f64);
        for (a, b) in buf.channel(0).iter().zip(&exact).skip(rate as usize / 2) {
            let d = *a as f64 - b;
            peak = peak.max(d.abs());
            sq += d * d;
        }
        let rms = (sq / (n - rate as usize / 2) as f64).sqrt();
        assert!(
            db(rms) < -110.0 && db(peak) < -95.0,
            "{isa:?}: rms {:.1} dB, peak {:.1} dB",
            db(rms),
            db(peak)
        );
    }
}
