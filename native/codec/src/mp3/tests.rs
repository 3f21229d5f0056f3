use super::*;

fn tone(rate: u32, hz: f64, seconds: f64, amplitude: f32) -> Vec<f32> {
    let n = (f64::from(rate) * seconds) as usize;
    (0..n)
        .flat_map(|i| {
            let v = (2.0 * std::f64::consts::PI * hz * i as f64 / f64::from(rate)).sin() as f32;
            [v * amplitude, -v * amplitude]
        })
        .collect()
}

fn encode_all(rate: u32, kbps: u32, pcm: &[f32]) -> Vec<(usize, FrameHeader)> {
    let mut enc = Mp3Encoder::new(rate, kbps, 4096).unwrap();
    let mut frames = Vec::new();
    let mut push = |f: &[u8], h: &FrameHeader| frames.push((f.len(), *h));
    enc.encode(pcm, &mut push).unwrap();
    enc.finish(&mut push).unwrap();
    frames
}

#[test]
fn encodes_constant_320_kbps_stereo_frames_at_the_sink_rate() {
    let pcm = tone(48_000, 1000.0, 2.0, 0.5);
    let frames = encode_all(48_000, 320, &pcm);
    // 2 s at 48 kHz = 83.3 frames of 1152, plus LAME's encoder delay and the flush.
    assert!((83..=86).contains(&frames.len()), "{} frames", frames.len());
    for (len, h) in &frames {
        assert_eq!((h.version, h.bitrate_kbps, h.sample_rate), (1, 320, 48_000));
        assert_eq!(h.channels, 2);
        assert_eq!(*len, 960);
    }
}

#[test]
fn silence_still_makes_full_frames() {
    let frames = encode_all(44_100, 128, &vec![0.0; 44_100 * 2]);
    assert!(frames.len() >= 38);
    assert!(frames
        .iter()
        .all(|(_, h)| h.bitrate_kbps == 128 && h.sample_rate == 44_100));
}

#[test]
fn other_sink_rates_are_resampled_to_an_mpeg1_rate() {
    assert_eq!(mp3_output_rate(96_000), 48_000);
    assert_eq!(mp3_output_rate(88_200), 44_100);
    assert_eq!(mp3_output_rate(16_000), 48_000);
    let frames = encode_all(96_000, 320, &tone(96_000, 440.0, 1.0, 0.3));
    assert!(frames.len() >= 40, "{} frames", frames.len());
    assert!(frames.iter().all(|(_, h)| h.sample_rate == 48_000));
}

#[test]
fn refuses_a_bit_rate_layer_iii_does_not_have() {
    let err = Mp3Encoder::new(48_000, 384, 1024).err().unwrap();
    assert!(err.0.contains("384"), "{err}");
    assert!(Mp3Encoder::new(48_000, 56, 1024).is_err());
    for kbps in MP3_BITRATES {
        assert!(Mp3Encoder::new(48_000, kbps, 1024).is_ok(), "{kbps}");
    }
}

#[test]
fn blocks_of_any_size_give_the_same_stream() {
    let pcm = tone(48_000, 997.0, 1.0, 0.5);
    let whole = encode_all(48_000, 192, &pcm);
    let mut enc = Mp3Encoder::new(48_000, 192, 300).unwrap();
    let mut pieces = Vec::new();
    for chunk in pcm.chunks(2 * 137) {
        enc.encode(chunk, |f, _| pieces.push(f.len())).unwrap();
    }
    enc.finish(|f, _| pieces.push(f.len())).unwrap();
    let whole: Vec<usize> = whole.iter().map(|(l, _)| *l).collect();
    assert_eq!(pieces, whole);
}
