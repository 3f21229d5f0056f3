//! Property tests: no input length, setting or sample value (NaN, Inf) makes a processor panic,
//! and outputs always fit the advertised sizes. (The engine's path, these stages in the order it
//! runs them, has the same test over formats and settings: `graph/preview/tests.rs`.)

use proptest::prelude::*;
use tributary_dsp::sample_format::ALL_SAMPLE_FORMATS;
use tributary_dsp::{
    decode_into, AudioBuffer, Encoder, Equalizer, Mixer, Normalizer, Resampler, Volume,
};

const RATES: [u32; 5] = [44_100, 48_000, 88_200, 96_000, 192_000];

fn special_f32() -> impl Strategy<Value = f32> {
    prop_oneof![
        -2.0f32..2.0,
        Just(f32::NAN),
        Just(f32::INFINITY),
        Just(f32::NEG_INFINITY),
        Just(f32::MAX),
        Just(1e-40f32),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]

    #[test]
    fn planar_stages_survive_nan_inf_and_odd_sizes(
        samples in proptest::collection::vec(special_f32(), 0..700),
        channels in 1usize..=8,
        rate_in in 0..5usize,
        rate_out in 0..5usize,
    ) {
        let frames = samples.len() / channels;
        let planes: Vec<&[f32]> = (0..channels).map(|c| &samples[c * frames..(c + 1) * frames]).collect();
        let mut buf = AudioBuffer::from_planes(&planes).unwrap();
        let rate = RATES[rate_out];
        Equalizer::new(rate, channels, &[0.3; 18]).unwrap().process(&mut buf).unwrap();
        let mut v = Volume::new(rate, 1.0).unwrap();
        v.set(0.5).unwrap();
        v.process(&mut buf);
        Normalizer::new(rate).process(&mut buf);
        let mut r = Resampler::new(RATES[rate_in], rate, channels, 64).unwrap();
        let mut out = AudioBuffer::new(channels, r.max_output_frames(frames));
        r.process_into(&buf, &mut out).unwrap();
        let mut mixer = Mixer::new(channels, rate, 4096).unwrap();
        let mut mixed = AudioBuffer::new(channels, 4096);
        mixer.mix_into(&[&buf, &out], &mut mixed).unwrap();
        prop_assert!((0..channels).all(|c| mixed.channel(c).iter().all(|x| x.abs() <= 1.0)));
        for f in ALL_SAMPLE_FORMATS {
            let mut bytes = vec![0u8; out.frames() * channels * 4];
            Encoder::new(f, true).encode_into(&out, &mut bytes).unwrap();
        }
    }

    #[test]
    fn any_bytes_decode_to_whole_samples_within_full_scale(
        bytes in proptest::collection::vec(any::<u8>(), 0..700),
        room in 0usize..400,
        f in 0..5usize,
    ) {
        let format = ALL_SAMPLE_FORMATS[f];
        let mut out = vec![9.0f32; room];
        let n = decode_into(format, &bytes, &mut out);
        prop_assert_eq!(n, (bytes.len() / format.bytes_per_sample()).min(room));
        prop_assert!(out[..n].iter().all(|x| (-1.0..1.0).contains(x)));
        prop_assert!(out[n..].iter().all(|&x| x == 9.0));
    }
}
