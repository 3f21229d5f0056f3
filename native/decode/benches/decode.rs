//! Decode speed per format against ffmpeg on the same file in the same run. Files: BENCH_SECONDS
//! (default 120) of pink noise, 44.1 kHz stereo, made by ffmpeg now, in each format URL playback
//! decodes. Criterion times ours (throughput in frames: elem/s / 44 100 = x realtime on one
//! core, wall time); then both sides are timed by CPU time, best of 3 (ours: decoding from
//! memory into f32 on this thread; ffmpeg: `ffmpeg -threads 1 -i FILE -f f32le -` into
//! /dev/null), whole and less a 1 s file's time (ffmpeg's start), and the ratios printed; last,
//! one JSON line of those CPU times for scripts/bench/bench-decode.mjs (`--json`:
//! bench/results/decode.json). `npm run bench -- decode` runs it.

#[path = "../tests/common/mod.rs"]
mod common;

use common::FORMATS;
use criterion::{criterion_group, Criterion, Throughput};
use std::io::Cursor;
use std::process::{Command, Stdio};
use std::time::Duration;
use tributary_decode::{DecodeOptions, Decoder};

fn seconds() -> u32 {
    std::env::var("BENCH_SECONDS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(120)
}

/// The bench file (`seconds` long) in the format of `ext`, and its path on disk (for ffmpeg).
fn file(ext: &str, args: &[&str], seconds: u32) -> (Vec<u8>, std::path::PathBuf) {
    let input =
        format!("anoisesrc=c=pink:r=44100:a=0.3:d={seconds},aformat=channel_layouts=stereo");
    let name = format!("bench-{seconds}s.{ext}");
    let bytes = common::encode(&name, &input, args);
    let path = std::env::temp_dir().join(format!("tributary-decode-{name}"));
    std::fs::write(&path, &bytes).unwrap();
    (bytes, path)
}

/// Decodes `bytes` to the end; returns the frames.
fn decode(bytes: &[u8]) -> u64 {
    let mut d = Decoder::open(Cursor::new(bytes.to_vec()), &DecodeOptions::default()).unwrap();
    let mut sum = 0.0f32;
    while let Some(block) = d.next_block().unwrap() {
        sum += block.first().copied().unwrap_or_default();
    }
    std::hint::black_box(sum);
    d.decoded_frames()
}

fn cpu_of_thread() -> Duration {
    let mut ts = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: clock_gettime writes the timespec it is given.
    unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut ts) };
    Duration::new(ts.tv_sec as u64, ts.tv_nsec as u32)
}

fn cpu_of_children() -> Duration {
    // SAFETY: getrusage fills the struct it is given.
    let mut ru: libc::rusage = unsafe { std::mem::zeroed() };
    unsafe { libc::getrusage(libc::RUSAGE_CHILDREN, &mut ru) };
    let tv = |t: libc::timeval| Duration::new(t.tv_sec as u64, t.tv_usec as u32 * 1000);
    tv(ru.ru_utime) + tv(ru.ru_stime)
}

fn best_of<F: FnMut() -> Duration>(n: usize, mut f: F) -> Duration {
    (0..n).map(|_| f()).min().unwrap()
}

fn decode_speed(c: &mut Criterion) {
    let mut g = c.benchmark_group("decode");
    g.sample_size(10);
    for f in &FORMATS {
        let (bytes, path) = file(f.ext, f.args, seconds());
        std::fs::remove_file(path).unwrap();
        let frames = decode(&bytes);
        g.throughput(Throughput::Elements(frames));
        g.bench_function(f.ext, |b| b.iter(|| decode(&bytes)));
    }
    g.finish();
}

/// CPU time of decoding `bytes` (from `path`) ourselves and with ffmpeg, best of 3 each.
fn cpu_times(bytes: &[u8], path: &std::path::Path) -> (Duration, Duration) {
    let ours = best_of(3, || {
        let t = cpu_of_thread();
        decode(bytes);
        cpu_of_thread() - t
    });
    let theirs = best_of(3, || {
        let t = cpu_of_children();
        let status = Command::new("ffmpeg")
            .args(["-hide_banner", "-loglevel", "error", "-threads", "1", "-i"])
            .arg(path)
            .args(["-f", "f32le", "-"])
            .stdout(Stdio::null())
            .status()
            .unwrap();
        assert!(status.success());
        cpu_of_children() - t
    });
    (ours, theirs)
}

/// Both sides on the long file, and again less what each spends on a 1 s file of the same
/// format (ffmpeg's start, ~0.1 s of CPU here, is most of its time on short files): the
/// decoding alone, over the difference in length.
fn against_ffmpeg() {
    let n = seconds();
    println!("\ndecode speed by CPU time, best of 3, {n} s of pink noise (x realtime, one core):");
    println!("format  ours    ffmpeg  ratio   | less a 1 s file: ours  ffmpeg  ratio (ours/ffmpeg speed)");
    let mut json = Vec::new();
    for f in &FORMATS {
        let (long, long_path) = file(f.ext, f.args, n);
        let (short, short_path) = file(f.ext, f.args, 1);
        let (ours, theirs) = cpu_times(&long, &long_path);
        let (ours_1, theirs_1) = cpu_times(&short, &short_path);
        let x = |s: f64, d: Duration| s / d.as_secs_f64();
        let (ours_net, theirs_net) = (ours.saturating_sub(ours_1), theirs.saturating_sub(theirs_1));
        let span = f64::from(n - 1);
        println!(
            "{:6} {:6.0}x {:6.0}x {:6.2}  | {:21.0}x {:6.0}x {:6.2}",
            f.ext,
            x(f64::from(n), ours),
            x(f64::from(n), theirs),
            theirs.as_secs_f64() / ours.as_secs_f64(),
            x(span, ours_net),
            x(span, theirs_net),
            theirs_net.as_secs_f64() / ours_net.as_secs_f64(),
        );
        json.push(format!(
            "{{\"format\":\"{}\",\"ours_cpu_s\":{},\"ffmpeg_cpu_s\":{},\"ours_1s_cpu_s\":{},\"ffmpeg_1s_cpu_s\":{}}}",
            f.ext,
            ours.as_secs_f64(),
            theirs.as_secs_f64(),
            ours_1.as_secs_f64(),
            theirs_1.as_secs_f64()
        ));
        std::fs::remove_file(long_path).unwrap();
        std::fs::remove_file(short_path).unwrap();
    }
    // The figures above as data, for scripts/bench/bench-decode.mjs: CPU seconds of the long file
    // and of the 1 s one, each side.
    println!("{{\"seconds\":{n},\"formats\":[{}]}}", json.join(","));
}

criterion_group!(benches, decode_speed);

fn main() {
    benches();
    Criterion::default().configure_from_args().final_summary();
    against_ffmpeg();
}
