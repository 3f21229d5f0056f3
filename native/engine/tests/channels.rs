//! Multichannel audio end to end: a 5.1 Scream source (a different tone on every channel) to a
//! 5.1 sink keeps every channel in its place; to a stereo sink it is down-mixed (front left
//! to left only, centre to both); header bytes follow the sink's format. A 5.1 sink's MP3
//! stream (decoded by ffmpeg) is its normalised stereo down-mix, LFE dropped.

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

/// Decodes MP3 with ffmpeg to 48 kHz stereo: (left, right).
fn decode_mp3(mp3: &[u8]) -> [Vec<f64>; 2] {
    use std::io::Write;
    use std::process::{Command, Stdio};
    let mut child = Command::new("ffmpeg")
        .args(["-v", "error", "-f", "mp3", "-i", "pipe:0"])
        .args(["-f", "s16le", "-ar", "48000", "-ac", "2", "pipe:1"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("ffmpeg runs");
    let mut stdin = child.stdin.take().unwrap();
    let input = mp3.to_vec();
    let writer = std::thread::spawn(move || stdin.write_all(&input));
    let out = child.wait_with_output().unwrap();
    writer.join().unwrap().unwrap();
    assert!(out.status.success(), "ffmpeg failed");
    let lr = split(&out.stdout, 2);
    [lr[0].clone(), lr[1].clone()]
}

#[test]
fn a_surround_sinks_mp3_stream_is_its_normalised_stereo_down_mix() {
    let _serial = serial();
    let mut engine = engine();
    let (_rx, port) = receiver();
    let mut surround = scream_sink("surround", port, vec![local_pc()]);
    surround.channels = 6;
    surround.layout = ChannelLayout::LAYOUT_5_1;
    let to = play(&mut engine, vec![surround]);
    let mp3 = std::sync::Arc::new(std::sync::Mutex::new(Vec::new()));
    let into = mp3.clone();
    let deliver = Box::new(move |b: &[u8]| into.lock().unwrap().extend_from_slice(b));
    let stream = engine.listen_mp3("surround", 320, deliver).unwrap();
    send_scream(to, 2.0, 0x3F, &TONES);
    std::thread::sleep(std::time::Duration::from_millis(200));
    drop(stream);
    engine.stop();

    let [left, right] = decode_mp3(&mp3.lock().unwrap());
    let (start, end) = (
        left.iter().position(|s| s.abs() > 0.01).unwrap(),
        left.iter().rposition(|s| s.abs() > 0.01).unwrap(),
    );
    assert!(end - start > 80_000, "{} frames sounding", end - start);
    let mid = start + (end - start) / 4..end - (end - start) / 4;
    let (l, r) = (&left[mid.clone()], &right[mid]);
    // L = k (FL + 0.7071 FC + 0.7071 BL), k = 1 / 2.414 (the row's gains sum to 1).
    let k = 1.0 / (1.0 + std::f64::consts::SQRT_2);
    let side = 0.4 * k;
    let centre = 0.4 * k * std::f64::consts::FRAC_1_SQRT_2;
    let level = |x: &[f64], f: f64| level_near(x, f, 48_000.0);
    let near = |got: f64, want: f64, what: &str| {
        assert!(
            (got - want).abs() < 0.015,
            "{what}: {got:.4}, want {want:.4}"
        );
    };
    let [fl, fr, fc, lfe, bl, br] = TONES.map(|(f, _)| f);
    near(level(l, fl), side, "front left on the left");
    near(level(r, fr), side, "front right on the right");
    near(level(l, fc), centre, "centre on the left");
    near(level(r, fc), centre, "centre on the right");
    near(level(l, bl), centre, "back left on the left");
    near(level(r, br), centre, "back right on the right");
    for (x, f, what) in [
        (l, fr, "front right on the left"),
        (r, fl, "front left on the right"),
        (l, br, "back right on the left"),
        (r, bl, "back left on the right"),
        (l, lfe, "LFE on the left"),
        (r, lfe, "LFE on the right"),
    ] {
        assert!(level(x, f) < 0.01, "{what}: {}", level(x, f));
    }
}
