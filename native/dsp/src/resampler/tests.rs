use super::*;
use crate::testutil::{buffer_of, db, fit_sine, rms, sine};

fn run_all(r: &mut Resampler, input: &AudioBuffer) -> Vec<Vec<f32>> {
    let mut out = AudioBuffer::new(r.channels(), r.max_output_frames(input.frames()));
    r.process_into(input, &mut out).unwrap();
    (0..r.channels()).map(|c| out.channel(c).to_vec()).collect()
}

/// Converts a sine and returns (gain dB, residual dB relative to the input amplitude) measured
/// on the steady-state part of the output.
fn measure(in_rate: u32, out_rate: u32, freq: f64) -> (f64, f64) {
    measure_mode(in_rate, out_rate, freq, false)
}

/// `interpolated`: leave the exact rational table for the interpolated one (a ratio adjustment
/// of 1e-12 changes no measurable frequency).
fn measure_mode(in_rate: u32, out_rate: u32, freq: f64, interpolated: bool) -> (f64, f64) {
    let mut r = Resampler::new(in_rate, out_rate, 1, 4096).unwrap();
    if interpolated {
        r.set_ratio_adjust(1e-12).unwrap();
    }
    let n_in = (r.taps() * 4).max(in_rate as usize / 8);
    let amp = 0.5;
    let input = buffer_of(&sine(freq, in_rate as f64, amp, n_in), 1);
    let out = &run_all(&mut r, &input)[0];
    let skip = (r.taps() as f64 * out_rate as f64 / in_rate as f64) as usize + 8;
    let steady = &out[skip..out.len() - skip];
    let (a, _, resid) = if freq < out_rate as f64 / 2.0 {
        fit_sine(steady, freq, out_rate as f64)
    } else {
        (0.0, 0.0, rms(steady))
    };
    (db(a / amp), db(resid / (amp / std::f64::consts::SQRT_2)))
}

#[test]
fn passband_flat_and_aliasing_below_100_db_for_every_rate_pair() {
    for &a in &SUPPORTED_RATES {
        for &b in &SUPPORTED_RATES {
            for f in [97.0, 1_000.0, 6_007.0, 12_345.0, 17_000.0, 19_990.0] {
                for interpolated in [false, true] {
                    let (gain, resid) = measure_mode(a, b, f, interpolated);
                    let mode = if interpolated {
                        "interpolated"
                    } else {
                        "exact"
                    };
                    assert!(
                        gain.abs() <= 0.1,
                        "{a}->{b} {mode} at {f} Hz: gain {gain:.4} dB"
                    );
                    assert!(
                        resid < -100.0,
                        "{a}->{b} {mode} at {f} Hz: residual {resid:.1} dB"
                    );
                }
            }
        }
    }
}

#[test]
fn images_and_aliases_of_content_above_the_passband_stay_below_100_db() {
    // Upsampling: a tone just below the input Nyquist frequency images just above it.
    for interpolated in [false, true] {
        let (_, resid) = measure_mode(44_100, 48_000, 21_900.0, interpolated);
        assert!(resid < -100.0, "44.1->48 image: {resid:.1} dB");
    }
    // Downsampling: a tone between the output and the input Nyquist frequency must vanish.
    for (a, b, f) in [
        (48_000, 44_100, 23_000.0),
        (96_000, 48_000, 30_000.0),
        (192_000, 44_100, 60_000.0),
    ] {
        let (_, resid) = measure(a, b, f);
        assert!(resid < -100.0, "{a}->{b}, {f} Hz alias: {resid:.1} dB");
    }
}

#[test]
fn optimised_kernel_matches_the_scalar_reference() {
    for (a, b, ch) in [
        (44_100, 48_000, 2),
        (48_000, 44_100, 3),
        (96_000, 48_000, 1),
        (48_000, 48_000, 8),
    ] {
        let sig = sine(1234.5, a as f64, 0.7, 3000);
        let input = buffer_of(&sig, ch);
        // Exact rational grid, then drift-nudged (interpolated coefficients).
        for (isa, adjust) in Isa::supported()
            .into_iter()
            .flat_map(|isa| [(isa, 0.0), (isa, 0.003)])
        {
            let mut fast = Resampler::new(a, b, ch, 512).unwrap().with_isa(isa);
            let mut reference = Resampler::new(a, b, ch, 512).unwrap();
            if adjust != 0.0 {
                fast.set_ratio_adjust(adjust).unwrap();
                reference.set_ratio_adjust(adjust).unwrap();
            }
            let mut o1 = AudioBuffer::new(ch, fast.max_output_frames(3000));
            let mut o2 = o1.clone();
            fast.process_into(&input, &mut o1).unwrap();
            reference.process_into_reference(&input, &mut o2).unwrap();
            assert_eq!(o1.frames(), o2.frames());
            for c in 0..ch {
                for (x, y) in o1.channel(c).iter().zip(o2.channel(c)) {
                    assert!(
                        (x - y).abs() < 2e-6,
                        "{a}->{b} {isa:?} {adjust}: {x} vs {y}"
                    );
                }
            }
        }
    }
}

#[test]
fn block_splits_do_not_change_the_output() {
    let sig = sine(440.0, 44_100.0, 0.5, 10_000);
    let mut whole = Resampler::new(44_100, 48_000, 1, 20_000).unwrap();
    let reference = run_all(&mut whole, &buffer_of(&sig, 1)).remove(0);
    let mut split = Resampler::new(44_100, 48_000, 1, 64).unwrap();
    let mut got = Vec::new();
    let mut pos = 0;
    for (k, len) in [1usize, 7, 300, 64, 65, 1000, 3].iter().cycle().enumerate() {
        if pos >= sig.len() {
            break;
        }
        let len = (*len + k % 3).min(sig.len() - pos);
        let piece = buffer_of(&sig[pos..pos + len], 1);
        got.extend(run_all(&mut split, &piece).remove(0));
        pos += len;
    }
    assert_eq!(got.len(), reference.len());
    assert!(got == reference, "split output differs");
}

#[test]
fn equal_rates_pass_every_sample_through_until_the_ratio_is_nudged() {
    // Noise-like samples (no two alike) through odd block sizes, on every kernel: each output is
    // the input sample at its time, bit for bit (the exact row is a unit
    // impulse; the fast kernels copy it), and a sample no filter would pass (NaN) spoils one
    // output, not the 150-odd a multiplication by the row would.
    let mut sig: Vec<f32> = (0..20_000u32)
        .map(|i| ((i.wrapping_mul(2_654_435_761) >> 8) as f32 / 16_777_216.0) - 0.5)
        .collect();
    sig[7_000] = f32::NAN;
    let neg: Vec<f32> = sig.iter().map(|v| -v).collect();
    for isa in Isa::supported() {
        let mut r = Resampler::new(48_000, 48_000, 2, 1024)
            .unwrap()
            .with_isa(isa);
        let (mut out, mut pos, mut k) = ([Vec::<f32>::new(), Vec::new()], 0, 0);
        while pos < 16_000 {
            let len = [1usize, 333, 1024, 5000, 17][k % 5].min(16_000 - pos);
            let piece = [&sig[pos..pos + len], &neg[pos..pos + len]];
            let got = run_all(&mut r, &AudioBuffer::from_planes(&piece).unwrap());
            out[0].extend(&got[0]);
            out[1].extend(&got[1]);
            (pos, k) = (pos + len, k + 1);
        }
        // Time-aligned (output frame n is input frame n); the filter's lookahead is held back.
        assert_eq!(
            out[0].len(),
            16_000 - r.latency_frames(),
            "{isa:?}: frames out"
        );
        for n in 0..out[0].len() {
            let (l, r) = (out[0][n], out[1][n]);
            let want = sig[n];
            if want.is_nan() {
                assert!(l.is_nan() && r.is_nan(), "{isa:?}: the NaN itself at {n}");
            } else {
                assert!(
                    l == want && r == -want,
                    "{isa:?}: frame {n}: {l}, {r} vs {want}"
                );
            }
        }
        // Nudged, the interpolated table's low-pass takes over: no longer a copy.
        r.set_ratio_adjust(1e-9).unwrap();
        let piece = [&sig[16_000..], &neg[16_000..]];
        let got = run_all(&mut r, &AudioBuffer::from_planes(&piece).unwrap());
        assert!(got[0].len() > 3_000 && got[0].iter().all(|v| v.is_finite()));
        let moved = (0..got[0].len())
            .filter(|i| (got[0][*i] - sig[16_000 - r.latency_frames() + i]).abs() > 1e-4)
            .count();
        assert!(
            moved > got[0].len() / 2,
            "{isa:?}: {moved} samples filtered after the nudge"
        );
    }
}

#[test]
fn ratio_nudges_change_the_rate_without_clicks() {
    let rate = 48_000.0;
    let freq = 1_000.0;
    let sig = sine(freq, rate, 0.5, 96_000);
    let mut r = Resampler::new(48_000, 48_000, 1, 1024).unwrap();
    let mut out = Vec::new();
    for (k, chunk) in sig.chunks(480).enumerate() {
        if k == 20 {
            r.set_ratio_adjust(0.02).unwrap();
        }
        if k == 120 {
            r.set_ratio_adjust(-0.02).unwrap();
        }
        out.extend(run_all(&mut r, &buffer_of(chunk, 1)).remove(0));
    }
    assert!(
        (r.ratio_adjust() + 0.02).abs() < 1e-9,
        "slewed to the target"
    );
    // Output length reflects the nudges. Each output frame consumes 1 + adjust input frames
    // while the adjustment slews at ADJUST_SLEW_PER_SECOND towards a target set at input frames
    // 9600 and 57600; this model counts the frames that consumes the input with (the filter
    // keeps half its taps back). About 300 frames fewer than without nudges, so ignoring them,
    // or applying them with the wrong sign or no slew, misses by far more than 50.
    let slew = ADJUST_SLEW_PER_SECOND / rate;
    let available = (sig.len() - r.latency_frames()) as f64;
    let (mut consumed, mut adjust, mut expected) = (0.0f64, 0.0f64, 0usize);
    while consumed < available {
        let target = match consumed {
            c if c < 9_600.0 => 0.0,
            c if c < 57_600.0 => 0.02,
            _ => -0.02,
        };
        adjust += (target - adjust).clamp(-slew, slew);
        consumed += 1.0 + adjust;
        expected += 1;
    }
    assert!(
        out.len().abs_diff(expected) <= 50,
        "{} frames out, about {expected} expected ({} without nudges)",
        out.len(),
        sig.len() - r.latency_frames()
    );
    // No clicks: the second difference of a sine of amplitude A at pitch f' is at most
    // A (2 pi f' / rate)^2; allow the 2 % pitch change plus a small margin.
    let bound = 0.5 * (2.0 * std::f64::consts::PI * freq * 1.03 / rate).powi(2) * 1.05;
    let skip = r.taps();
    for n in skip..out.len() - 1 {
        let d2 = (out[n + 1] - 2.0 * out[n] + out[n - 1]).abs() as f64;
        assert!(d2 <= bound, "step at {n}: {d2} > {bound}");
    }
    assert!(r.set_ratio_adjust(0.2).is_err());
    assert!(r.set_ratio_adjust(f64::NAN).is_err());
}

#[test]
fn rejects_bad_settings_and_small_outputs() {
    assert!(Resampler::new(1000, 48_000, 2, 64).is_err());
    assert!(Resampler::new(48_000, 48_000, 0, 64).is_err());
    assert!(Resampler::new(48_000, 48_000, 9, 64).is_err());
    let mut r = Resampler::new(44_100, 48_000, 2, 64).unwrap();
    let input = AudioBuffer::from_planes(&[&[0.0; 100], &[0.0; 100]]).unwrap();
    let mut small = AudioBuffer::new(2, 10);
    assert!(matches!(
        r.process_into(&input, &mut small),
        Err(DspError::OutputTooSmall { .. })
    ));
    let mut mono = AudioBuffer::new(1, 1000);
    assert!(matches!(
        r.process_into(&input, &mut mono),
        Err(DspError::ChannelMismatch { .. })
    ));
}

#[test]
fn the_filter_is_as_long_as_a_pass_band_to_20_khz_needs() {
    let taps = |a, b| Resampler::new(a, b, 1, 64).unwrap().taps();
    // 44.1 kHz: 20 kHz to 22.05 kHz of transition.
    assert_eq!(taps(44_100, 48_000), 160);
    assert_eq!(taps(48_000, 44_100), 168);
    // 48 kHz and above: the pass band ends at 20 kHz, not at 0.4535 of the rate.
    assert_eq!(taps(48_000, 48_000), 88);
    assert_eq!(taps(96_000, 96_000), 32);
    assert_eq!(taps(192_000, 96_000), 56);
    // Drift-nudged, 48 kHz: a tone at 20 kHz is still within 0.1 dB.
    let (gain, resid) = measure_mode(48_000, 48_000, 20_000.0, true);
    assert!(
        gain.abs() <= 0.1 && resid < -100.0,
        "{gain} dB, residual {resid} dB"
    );
}
