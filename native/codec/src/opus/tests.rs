use super::*;
use opus::Decoder;

fn tones(seconds: f64) -> Vec<f32> {
    (0..(48_000.0 * seconds) as usize)
        .flat_map(|i| {
            let t = i as f64 / 48_000.0;
            let l = (2.0 * std::f64::consts::PI * 1000.0 * t).sin() * 0.5;
            let r = (2.0 * std::f64::consts::PI * 440.0 * t).sin() * 0.5;
            [l as f32, r as f32]
        })
        .collect()
}

/// Rising zero crossings per second.
fn frequency(x: &[f32]) -> f64 {
    let up = x.windows(2).filter(|w| w[0] < 0.0 && w[1] >= 0.0).count();
    up as f64 * 48_000.0 / x.len() as f64
}

#[test]
fn every_profile_encodes_20_ms_packets_that_decode_to_the_tones_channels_apart() {
    for profile in OPUS_PROFILES {
        let mut enc = OpusEncoder::new(profile).unwrap();
        let mut packets = Vec::new();
        // Odd block sizes: packets are cut at 960 frames whatever the input's blocks.
        for block in tones(2.0).chunks(2 * 333) {
            enc.encode(block, |p| packets.push(p.to_vec())).unwrap();
        }
        assert_eq!(packets.len(), 100, "{}", profile.name);
        let bytes: usize = packets.iter().map(Vec::len).sum();
        let kbps = bytes as f64 * 8.0 / 2.0 / 1000.0;
        let target = f64::from(profile.bitrate) / 1000.0;
        assert!(
            kbps > target * 0.6 && kbps < target * 1.2,
            "{}: {kbps} kbit/s",
            profile.name
        );
        let mut dec = Decoder::new(48_000, Channels::Stereo).unwrap();
        let mut pcm = vec![0.0f32; OPUS_FRAME * 2];
        let (mut left, mut right) = (Vec::new(), Vec::new());
        for p in &packets[10..] {
            let n = dec.decode_float(p, &mut pcm, false).unwrap();
            assert_eq!(n, OPUS_FRAME);
            left.extend(pcm.chunks(2).map(|s| s[0]));
            right.extend(pcm.chunks(2).map(|s| s[1]));
        }
        let (fl, fr) = (frequency(&left), frequency(&right));
        assert!((fl - 1000.0).abs() < 5.0, "{}: left {fl} Hz", profile.name);
        assert!((fr - 440.0).abs() < 5.0, "{}: right {fr} Hz", profile.name);
    }
}

#[test]
fn the_profiles_are_the_specs() {
    let b: Vec<(i32, i32)> = OPUS_PROFILES
        .iter()
        .map(|p| (p.bitrate, p.complexity))
        .collect();
    assert_eq!(b, [(64_000, 5), (128_000, 8), (256_000, 10)]);
}
