//! Property tests: no input length, format combination, setting or sample value (NaN, Inf)
//! makes a processor panic, and outputs always fit the advertised sizes.

use proptest::prelude::*;
use tributary_dsp::sample_format::ALL_SAMPLE_FORMATS;
use tributary_dsp::{
    AudioBuffer, Chain, ChainConfig, ChannelLayout, DelayLine, Encoder, Equalizer, Mixer,
    Normalizer, Resampler, StreamFormat, Volume,
};

const RATES: [u32; 5] = [44_100, 48_000, 88_200, 96_000, 192_000];
const LAYOUTS: [&str; 9] = [
    "mono",
    "stereo",
    "quad",
    "surround",
    "3.1",
    "4.0",
    "5.1",
    "5.1(side)",
    "7.1",
];

fn stream_format() -> impl Strategy<Value = StreamFormat> {
    (0..5usize, 0..5usize, 0..9usize).prop_map(|(f, r, l)| {
        let layout: ChannelLayout = LAYOUTS[l].parse().unwrap();
        StreamFormat::with_layout(ALL_SAMPLE_FORMATS[f], RATES[r], layout).unwrap()
    })
}

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
    fn chains_take_any_bytes_in_any_pieces(
        input in stream_format(),
        output in stream_format(),
        bytes in proptest::collection::vec(any::<u8>(), 0..3000),
        pieces in proptest::collection::vec(0usize..700, 1..6),
        eq in proptest::array::uniform18(0.0f32..=2.0),
        volume in 0.0f32..=1.0,
        delay in 0.0f64..50.0,
        normalize in any::<bool>(),
        drift in any::<bool>(),
        block in 1usize..600,
    ) {
        let mut cfg = ChainConfig::new(input, output);
        cfg.eq = eq;
        cfg.volume = volume;
        cfg.delay_ms = delay;
        cfg.normalize = normalize;
        cfg.drift_correction = drift;
        cfg.max_block_frames = block;
        let mut chain = Chain::new(&cfg).unwrap();
        let mut pos = 0;
        for len in pieces.iter().cycle().take(50) {
            let len = (*len).min(bytes.len() - pos);
            let piece = &bytes[pos..pos + len];
            let mut out = vec![0u8; chain.max_output_bytes(piece.len())];
            let n = chain.process_into(piece, &mut out).unwrap();
            prop_assert!(n <= out.len());
            prop_assert_eq!(n % output.frame_bytes(), 0);
            pos += len;
            if pos == bytes.len() { break; }
        }
        let _ = chain.set_ratio_adjust(0.02);
        chain.set_eq(&[2.0; 18]).unwrap();
        let mut out = vec![0u8; chain.max_output_bytes(bytes.len())];
        chain.process_into(&bytes, &mut out).unwrap();
    }

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
        DelayLine::new(rate, channels, 3.0).unwrap().process(&mut buf).unwrap();
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
}
