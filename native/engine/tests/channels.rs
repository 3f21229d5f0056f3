//! Multichannel audio end to end: a 5.1 Scream source (a different tone on every channel) to a
//! 5.1 sink keeps every channel in its place; to a stereo sink it is down-mixed (front left
//! to left only, centre to both); header bytes follow the sink's format.

mod common;

use common::*;
use tributary_dsp::ChannelLayout;

/// FL FR FC LFE BL BR (mask 0x3F), each its own frequency.
const TONES: [(f64, f64); 6] = [
    (300.0, 0.4),
    (500.0, 0.4),
    (700.0, 0.4),
    (60.0, 0.4),
    (1100.0, 0.4),
    (1300.0, 0.4),
];

/// De-interleaves 16-bit little-endian PCM of `channels` channels.
fn split(bytes: &[u8], channels: usize) -> Vec<Vec<f64>> {
    let mut out = vec![Vec::new(); channels];
    for frame in bytes.chunks_exact(2 * channels) {
        for (c, s) in frame.chunks_exact(2).enumerate() {
            out[c].push(f64::from(i16::from_le_bytes([s[0], s[1]])) / 32768.0);
        }
    }
    out
}

/// Level of `freq` in `x` (single-bin DFT, amplitude).
fn level_at(x: &[f64], freq: f64, rate: f64) -> f64 {
    let (mut re, mut im) = (0.0, 0.0);
    for (n, v) in x.iter().enumerate() {
        let w = 2.0 * std::f64::consts::PI * freq * n as f64 / rate;
        re += v * w.cos();
        im += v * w.sin();
    }
    2.0 * (re * re + im * im).sqrt() / x.len() as f64
}

/// Level of the strongest frequency within 0.5 % of `freq`: the clock-drift controller may
/// play the stream up to that much faster or slower while its buffer settles after the start,
/// which moves a tone off the single DFT bin.
fn level_near(x: &[f64], freq: f64, rate: f64) -> f64 {
    (-25..=25)
        .map(|k| level_at(x, freq * (1.0 + f64::from(k) * 0.0002), rate))
        .fold(0.0, f64::max)
}

#[test]
fn surround_keeps_channel_order_and_down_mixes_to_stereo() {
    let _serial = serial();
    let mut engine = engine();
    let ((rx51, p51), (rx2, p2)) = (receiver(), receiver());
    let mut surround = scream_sink("surround", p51, vec![local_pc()]);
    surround.channels = 6;
    surround.layout = ChannelLayout::LAYOUT_5_1;
    let stereo = scream_sink("stereo", p2, vec![local_pc()]);
    let to = play(&mut engine, vec![surround, stereo]);
    let sender = std::thread::spawn(move || send_scream(to, 2.0, 0x3F, &TONES));
    let c2 = std::thread::spawn(move || collect(&rx2, 2.4));
    let p51 = collect(&rx51, 2.4);
    let p2 = c2.join().unwrap();
    sender.join().unwrap();
    engine.stop();

    assert!(p51
        .iter()
        .all(|(_, p)| p.len() == 1157 && p[..5] == [0x01, 16, 6, 0x3F, 0x00]));
    assert!(p2.iter().all(|(_, p)| p[..5] == [0x01, 16, 2, 0x03, 0x00]));
    // The middle of the tone: a whole number of 6-channel frames (1152 = 96 frames x 12 bytes).
    let mid51: Vec<u8> = p51[120..280]
        .iter()
        .flat_map(|(_, p)| p[5..].to_vec())
        .collect();
    let ch = split(&mid51, 6);
    for (c, (f, a)) in TONES.iter().enumerate() {
        let own = level_near(&ch[c], *f, 48_000.0);
        assert!(
            (own - a).abs() < 0.03,
            "channel {c} carries {f} Hz at {own}"
        );
        for (other, (g, _)) in TONES.iter().enumerate() {
            if other != c {
                let leak = level_at(&ch[c], *g, 48_000.0);
                assert!(
                    leak < 0.01,
                    "channel {c} leaks {g} Hz from channel {other}: {leak}"
                );
            }
        }
    }
    let mid2: Vec<u8> = p2[120..280]
        .iter()
        .flat_map(|(_, p)| p[5..].to_vec())
        .collect();
    let lr = split(&mid2, 2);
    let (fl, fr, fc) = (TONES[0].0, TONES[1].0, TONES[2].0);
    assert!(
        level_at(&lr[0], fl, 48_000.0) > 0.1 && level_at(&lr[1], fl, 48_000.0) < 0.01,
        "front left only left"
    );
    assert!(
        level_at(&lr[1], fr, 48_000.0) > 0.1 && level_at(&lr[0], fr, 48_000.0) < 0.01,
        "front right only right"
    );
    let (cl, cr) = (
        level_at(&lr[0], fc, 48_000.0),
        level_at(&lr[1], fc, 48_000.0),
    );
    assert!(
        cl > 0.05 && (cl - cr).abs() < 0.01,
        "centre in both, equally: {cl} {cr}"
    );
}
