//! Instruction counts of the DSP kernels under callgrind (the harness: `common/callgrind.rs`).
//! One path of the engine as a whole (decode, conversion, EQ, volume, encode) is the engine's
//! `instructions` bench.
//!
//! `cargo bench -p tributary-dsp --bench instructions -- CASE` runs one case (`list` names them).

#[path = "common/callgrind.rs"]
mod callgrind;
mod common;

use std::hint::black_box;

use callgrind::{run, Case, BLOCK};
use common::{all_bands, signal};
use tributary_dsp::{decode_into, AudioBuffer, Encoder, Equalizer, Resampler, SampleFormat};

fn pcm(frames: usize, channels: usize) -> Vec<u8> {
    (0..frames * channels)
        .flat_map(|i| ((((i * 7919) % 40_000) as i32 - 20_000) as i16).to_le_bytes())
        .collect()
}

fn eq(channels: usize, reference: bool) {
    let input = signal(channels, BLOCK);
    let mut buf = input.clone();
    let mut eq = Equalizer::new(48_000, channels, &all_bands()).unwrap();
    run(&mut || {
        buf.copy_from(&input).unwrap();
        if reference {
            eq.process_reference(black_box(&mut buf)).unwrap();
        } else {
            eq.process(black_box(&mut buf)).unwrap();
        }
    });
}

fn resampler(from: u32, to: u32, adjust: f64, reference: bool) {
    let input = signal(2, BLOCK);
    let mut r = Resampler::new(from, to, 2, BLOCK).unwrap();
    if adjust != 0.0 {
        r.set_ratio_adjust(adjust).unwrap();
    }
    let mut out = AudioBuffer::new(2, r.max_output_frames(BLOCK));
    run(&mut || {
        if reference {
            r.process_into_reference(black_box(&input), &mut out)
                .unwrap();
        } else {
            r.process_into(black_box(&input), &mut out).unwrap();
        }
    });
}

fn encode(format: SampleFormat, dither: bool) {
    let src = signal(2, BLOCK);
    let mut out = vec![0u8; BLOCK * 2 * 4];
    let mut enc = Encoder::new(format, dither);
    run(&mut || {
        enc.encode_into(black_box(&src), &mut out).unwrap();
    });
}

fn decode(format: SampleFormat) {
    let bytes = pcm(BLOCK * 2, 2);
    let mut out = vec![0.0f32; BLOCK * 2];
    run(&mut || {
        decode_into(
            format,
            black_box(&bytes[..BLOCK * 2 * format.bytes_per_sample()]),
            &mut out,
        );
    });
}

const CASES: &[Case] = &[
    ("eq-2ch", || eq(2, false)),
    ("eq-2ch-reference", || eq(2, true)),
    ("eq-6ch", || eq(6, false)),
    ("resample-44k1-48k-exact", || {
        resampler(44_100, 48_000, 0.0, false)
    }),
    ("resample-44k1-48k-nudged", || {
        resampler(44_100, 48_000, 1e-4, false)
    }),
    ("resample-48k-48k-nudged", || {
        resampler(48_000, 48_000, 1e-4, false)
    }),
    ("resample-44k1-48k-reference", || {
        resampler(44_100, 48_000, 0.0, true)
    }),
    ("encode-s16-dither", || encode(SampleFormat::S16Le, true)),
    ("encode-s16", || encode(SampleFormat::S16Le, false)),
    ("decode-s16", || decode(SampleFormat::S16Le)),
];

fn main() {
    callgrind::main(CASES);
}
