//! A source's levels (the dashboard's active source): measured from what the source renders
//! into the graph through one of its taps, before any path's volume, only while someone reads
//! them.

mod common;

use common::*;
use std::time::{Duration, Instant};
use tributary_engine::{Levels, PathSpec, SinkProtocol};

/// Centre of band `b` of 64 log-spaced bands from 20 Hz to 20 kHz.
fn centre_hz(b: usize) -> f64 {
    20.0 * 1000f64.powf((b as f64 + 0.5) / 64.0)
}

fn loudest_band(l: &Levels) -> usize {
    (0..l.spectrum.len())
        .max_by(|&a, &b| l.spectrum[a].total_cmp(&l.spectrum[b]))
        .unwrap()
}

fn one(levels: Vec<Levels>) -> Levels {
    assert_eq!(levels.len(), 1, "{levels:?}");
    levels.into_iter().next().unwrap()
}

#[test]
fn a_tone_into_a_source_reads_its_peak_rms_and_band_before_the_route_volume() {
    let _serial = serial();
    let mut engine = engine();
    let (_rx_a, port_a) = receiver();
    let (_rx_b, port_b) = receiver();
    let quiet = || PathSpec {
        volume: 0.5,
        ..local_pc()
    };
    let to = play(
        &mut engine,
        vec![
            scream_sink("a", port_a, vec![quiet()]),
            // A second sink at another rate: a second tap of the source, which must not
            // measure it twice.
            sink("b", port_b, SinkProtocol::Scream, 44_100, 16, vec![quiet()]),
        ],
    );
    let pc = vec!["pc".to_string()];
    // The first read starts the meter: nothing measured yet.
    let first = one(engine.source_levels(&pc));
    assert_eq!((first.id.as_str(), first.windows), ("pc", 0));
    let sender = std::thread::spawn(move || {
        send_scream_tone(to, 2.5, [(1000.0, 0.5), (1000.0, 0.25)]);
    });
    // Read as the dashboard does (a few times a second) until the tone has played a while.
    let start = Instant::now();
    let mut windows_at_1s = None;
    while start.elapsed() < Duration::from_millis(2000) {
        let l = one(engine.source_levels(&pc));
        if windows_at_1s.is_none() && start.elapsed() >= Duration::from_secs(1) {
            windows_at_1s = Some((l.windows, Instant::now()));
        }
        engine.levels(&["a".to_string()]);
        std::thread::sleep(Duration::from_millis(100));
    }
    let l = one(engine.source_levels(&pc));
    let sink = one(engine.levels(&["a".to_string()]));
    sender.join().unwrap();

    assert_eq!((l.channels, l.name.as_str()), (2, "pc"));
    assert!((l.peak[0] - 0.5).abs() < 0.02, "peak {:?}", l.peak);
    assert!((l.peak[1] - 0.25).abs() < 0.02, "peak {:?}", l.peak);
    let sine_rms = std::f32::consts::FRAC_1_SQRT_2;
    assert!((l.rms[0] - 0.5 * sine_rms).abs() < 0.02, "rms {:?}", l.rms);
    assert!((l.rms[1] - 0.25 * sine_rms).abs() < 0.02, "rms {:?}", l.rms);
    // The spectrum of the channels' average (a 1 kHz sine of 0.375).
    let band = loudest_band(&l);
    assert!((centre_hz(band) / 1000.0).log2().abs() < 0.2, "band {band}");
    let expected_db = 20.0 * 0.375f32.log10();
    assert!(
        (l.spectrum[band] - expected_db).abs() < 2.0,
        "{} dB",
        l.spectrum[band]
    );
    assert!(l.wave_max.iter().copied().fold(f32::MIN, f32::max) > 0.35);
    // The sink plays it at the route's volume: the source's meter is before it.
    assert!(
        sink.peak[0] > 0.01 && sink.peak[0] < l.peak[0] - 0.05,
        "{:?}",
        sink.peak
    );
    // One tap measures the source: about 30 windows a second, not 60 (two taps). Fewer than 30
    // when the machine is loaded and the sending thread falls behind (19.99 in a fresh-clone CI
    // run beside other work), so the floor only says that it measures at all.
    let (w1, t1) = windows_at_1s.unwrap();
    let rate = (l.windows - w1) as f64 / t1.elapsed().as_secs_f64();
    assert!((10.0..40.0).contains(&rate), "{rate} windows/s");
}

#[test]
fn a_source_nobody_reads_is_not_measured() {
    let _serial = serial();
    let mut engine = engine();
    let (_rx, port) = receiver();
    let to = play(&mut engine, vec![scream_sink("a", port, vec![local_pc()])]);
    send_scream_tone(to, 0.6, [(1000.0, 0.5), (1000.0, 0.5)]);
    // The tone played through the tap, but nobody read the source's levels: no window was
    // measured, no waveform written.
    let l = one(engine.source_levels(&["pc".to_string()]));
    assert_eq!((l.windows, l.channels), (0, 0));
    assert!(l.peak.is_empty());
    assert!(l.wave_max.iter().all(|&v| v == 0.0));
    // Only the sources some path plays are known; an unknown id reports nothing.
    assert!(engine.source_levels(&["nobody".to_string()]).is_empty());
    assert_eq!(engine.source_levels(&[]).len(), 1);
}
