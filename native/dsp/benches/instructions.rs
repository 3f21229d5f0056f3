//! Instruction counts of the hot kernels, for `valgrind --tool=callgrind` (run by
//! `scripts/bench-native-callgrind.mjs`). Wall-clock benchmarks on a shared machine are noisy;
//! instruction counts repeat exactly, so they are the fair way to compare one change with the
//! next. Each case runs one second of audio through a kernel inside `measured`, the only
//! function callgrind collects (`--toggle-collect=*measured*`); the script divides by the frames.
//!
//! `cargo bench -p tributary-dsp --bench instructions -- CASE` runs one case (`list` names them).

mod common;

use std::hint::black_box;

use common::{all_bands, signal};
use tributary_dsp::{
    decode_into, AudioBuffer, Chain, ChainConfig, Encoder, Equalizer, Resampler, SampleFormat,
};

const BLOCK: usize = 1024;
const SECOND: usize = 48_000;

fn pcm(frames: usize, channels: usize) -> Vec<u8> {
    (0..frames * channels)
        .flat_map(|i| ((((i * 7919) % 40_000) as i32 - 20_000) as i16).to_le_bytes())
        .collect()
}

/// The only function callgrind counts: `blocks` calls of `f`.
#[inline(never)]
fn measured(blocks: usize, f: &mut dyn FnMut()) {
    for _ in 0..blocks {
        f();
    }
}

/// Runs `f` once unmeasured (first-call work), then one second's worth of blocks measured.
fn run(f: &mut dyn FnMut()) {
    f();
    measured(SECOND / BLOCK, f);
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

fn chain(from: &str, to: &str, drift: bool) {
    let mut cfg = ChainConfig::new(from.parse().unwrap(), to.parse().unwrap());
    cfg.eq = all_bands();
    cfg.volume = 0.8;
    cfg.drift_correction = drift;
    let mut chain = Chain::new(&cfg).unwrap();
    if drift {
        chain.set_ratio_adjust(1e-4).unwrap();
    }
    let bytes = pcm(BLOCK, 2);
    let mut out = vec![0u8; chain.max_output_bytes(bytes.len())];
    run(&mut || {
        chain.process_into(black_box(&bytes), &mut out).unwrap();
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
    let mut buf = AudioBuffer::new(2, BLOCK);
    run(&mut || {
        decode_into(
            format,
            black_box(&bytes[..BLOCK * 2 * format.bytes_per_sample()]),
            &mut buf,
        )
        .unwrap();
    });
}

/// (name, case); every case feeds the same number of input frames.
type Case = (&'static str, fn());

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
    ("chain-44k1-48k", || {
        chain("s16le:44100:2", "s16le:48000:2", false)
    }),
    ("chain-48k-48k", || {
        chain("s16le:48000:2", "s16le:48000:2", false)
    }),
    ("chain-48k-48k-drift", || {
        chain("s16le:48000:2", "s16le:48000:2", true)
    }),
    ("encode-s16-dither", || encode(SampleFormat::S16Le, true)),
    ("encode-s16", || encode(SampleFormat::S16Le, false)),
    ("decode-s16", || decode(SampleFormat::S16Le)),
];

fn main() {
    // `cargo bench` passes `--bench`; the case is the first other argument.
    let arg = std::env::args().skip(1).find(|a| !a.starts_with("--"));
    match arg.as_deref() {
        None | Some("list") => {
            for (name, _) in CASES {
                println!("{name}");
            }
            println!("frames-per-case {}", SECOND / BLOCK * BLOCK);
        }
        Some(name) => match CASES.iter().find(|(n, _)| *n == name) {
            Some((_, case)) => case(),
            None => {
                eprintln!("unknown case {name}; `list` names them");
                std::process::exit(2);
            }
        },
    }
}
