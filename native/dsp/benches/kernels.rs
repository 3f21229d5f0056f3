//! Criterion benches of the hot kernels. Buffers are made outside `iter`; throughput is in
//! frames, so "elem/s" divided by the sample rate is the x-realtime factor on one core. One path
//! of the engine as a whole (decode, conversion, EQ, volume, encode) is the engine's `path`
//! bench.

mod common;

use std::hint::black_box;

use common::{all_bands, signal};
use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use rubato::audioadapter_buffers::direct::SequentialSliceOfVecs;
use rubato::{
    calculate_cutoff, Async, FixedAsync, Resampler as _, SincInterpolationParameters,
    SincInterpolationType, WindowFunction,
};
use tributary_dsp::simd::Isa;
use tributary_dsp::{decode_into, AudioBuffer, Encoder, Equalizer, Mixer, Resampler, SampleFormat};

const BLOCK: usize = 1024;

fn eq(c: &mut Criterion) {
    let mut g = c.benchmark_group("eq 18 bands (all active), 48 kHz");
    g.throughput(Throughput::Elements(BLOCK as u64));
    for channels in [1, 2, 6] {
        let input = signal(channels, BLOCK);
        let mut buf = input.clone();
        let kernels = [
            ("pipelined", Isa::detect(), false),
            ("pipelined-sse2", Isa::Baseline, false),
            ("scalar-reference", Isa::detect(), true),
        ];
        for (name, isa, reference) in kernels {
            let mut eq = Equalizer::new(48_000, channels, &all_bands())
                .unwrap()
                .with_isa(isa);
            g.bench_function(BenchmarkId::new(name, format!("{channels}ch")), |b| {
                b.iter(|| {
                    buf.copy_from(&input).unwrap();
                    if reference {
                        eq.process_reference(black_box(&mut buf)).unwrap();
                    } else {
                        eq.process(black_box(&mut buf)).unwrap();
                    }
                })
            });
        }
    }
    g.finish();
}

fn resampler(c: &mut Criterion) {
    let mut g = c.benchmark_group("resampler 44.1 -> 48 kHz stereo");
    g.throughput(Throughput::Elements(BLOCK as u64));
    let input = signal(2, BLOCK);
    let mut ours = Resampler::new(44_100, 48_000, 2, BLOCK).unwrap();
    let mut out = AudioBuffer::new(2, ours.max_output_frames(BLOCK));
    g.bench_function("tributary polyphase", |b| {
        b.iter(|| ours.process_into(black_box(&input), &mut out).unwrap())
    });
    // Drift-nudged (the live engine's mode): off the exact grid, interpolated coefficients.
    let mut nudged = Resampler::new(44_100, 48_000, 2, BLOCK).unwrap();
    nudged.set_ratio_adjust(1e-4).unwrap();
    g.bench_function("tributary polyphase, drift-nudged", |b| {
        b.iter(|| nudged.process_into(black_box(&input), &mut out).unwrap())
    });
    let mut reference = Resampler::new(44_100, 48_000, 2, BLOCK).unwrap();
    g.bench_function("tributary scalar reference", |b| {
        b.iter(|| {
            reference
                .process_into_reference(black_box(&input), &mut out)
                .unwrap()
        })
    });
    // rubato's asynchronous sinc resampler with the same filter length and table density.
    let window = WindowFunction::BlackmanHarris2;
    let params = SincInterpolationParameters {
        sinc_len: ours.taps(),
        f_cutoff: Some(calculate_cutoff(ours.taps(), window)),
        oversampling_factor: 512,
        interpolation: SincInterpolationType::Linear,
        window,
    };
    let mut rubato = Async::<f32>::new_sinc(
        48_000.0 / 44_100.0,
        1.05,
        &params,
        BLOCK,
        2,
        FixedAsync::Input,
    )
    .unwrap();
    let rin: Vec<Vec<f32>> = (0..2).map(|ch| input.channel(ch).to_vec()).collect();
    let mut rout = vec![vec![0.0f32; rubato.output_frames_max()]; 2];
    let frames_out = rubato.output_frames_max();
    g.bench_function("rubato Async sinc (linear)", |b| {
        b.iter(|| {
            let i = SequentialSliceOfVecs::new(&rin, 2, BLOCK).unwrap();
            let mut o = SequentialSliceOfVecs::new_mut(&mut rout, 2, frames_out).unwrap();
            rubato
                .process_into_buffer(black_box(&i), &mut o, None)
                .unwrap()
        })
    });
    g.finish();
}

fn formats(c: &mut Criterion) {
    let mut g = c.benchmark_group("formats stereo");
    g.throughput(Throughput::Elements(BLOCK as u64));
    let bytes: Vec<u8> = (0..BLOCK * 2 * 3).map(|i| (i * 31) as u8).collect();
    let mut decoded = vec![0.0f32; BLOCK * 2];
    for f in [SampleFormat::S16Le, SampleFormat::S24Be] {
        g.bench_function(format!("decode {f}"), |b| {
            b.iter(|| {
                decode_into(
                    f,
                    black_box(&bytes[..BLOCK * f.bytes_per_sample() * 2]),
                    &mut decoded,
                )
            })
        });
    }
    let src = signal(2, BLOCK);
    let mut out = vec![0u8; BLOCK * 2 * 4];
    for (f, dither) in [
        (SampleFormat::S16Le, false),
        (SampleFormat::S16Le, true),
        (SampleFormat::S24Le, false),
    ] {
        let mut enc = Encoder::new(f, dither);
        g.bench_function(format!("encode {f} dither={dither}"), |b| {
            b.iter(|| enc.encode_into(black_box(&src), &mut out).unwrap())
        });
    }
    g.finish();
}

fn mixer(c: &mut Criterion) {
    let mut g = c.benchmark_group("mixer stereo");
    g.throughput(Throughput::Elements(BLOCK as u64));
    let inputs: Vec<AudioBuffer> = (0..4).map(|_| signal(2, BLOCK)).collect();
    let refs: Vec<&AudioBuffer> = inputs.iter().collect();
    let mut mixer = Mixer::new(2, 48_000, BLOCK).unwrap();
    let mut out = AudioBuffer::new(2, BLOCK);
    g.bench_function("4 inputs + limiter", |b| {
        b.iter(|| mixer.mix_into(black_box(&refs), &mut out).unwrap())
    });
    g.finish();
}

criterion_group!(benches, eq, resampler, formats, mixer);
criterion_main!(benches);
