//! Decode speed per format against ffmpeg on the same file in the same run. Files: BENCH_SECONDS
//! (default 120) of pink noise, 44.1 kHz stereo, made by ffmpeg now, in each format URL playback
//! decodes. Criterion times ours (throughput in frames: elem/s / 44 100 = x realtime on one
//! core); then both sides are timed by CPU time, best of 3 (ours: decoding from memory into
//! f32 on this thread; ffmpeg: `ffmpeg -threads 1 -i FILE -f f32le -` into /dev/null, its start
//! included), and the ratio printed. `npm run bench -- decode` runs it.

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

/// The bench file in the format of `ext`, and its path on disk (for ffmpeg).
fn file(ext: &str, args: &[&str]) -> (Vec<u8>, std::path::PathBuf) {
    let input = format!(
        "anoisesrc=c=pink:r=44100:a=0.3:d={},aformat=channel_layouts=stereo",
        seconds()
    );
    let bytes = common::encode(&format!("bench.{ext}"), &input, args);
    let path = std::env::temp_dir().join(format!("tributary-decode-bench.{ext}"));
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
        let (bytes, _) = file(f.ext, f.args);
        let frames = decode(&bytes);
        g.throughput(Throughput::Elements(frames));
        g.bench_function(f.ext, |b| b.iter(|| decode(&bytes)));
    }
    g.finish();
}

fn against_ffmpeg() {
    println!(
        "\ndecode speed by CPU time, best of 3, {} s of pink noise:",
        seconds()
    );
    println!("format  tributary-decode    ffmpeg -threads 1    ours / ffmpeg");
    for f in &FORMATS {
        let (bytes, path) = file(f.ext, f.args);
        let ours = best_of(3, || {
            let t = cpu_of_thread();
            decode(&bytes);
            cpu_of_thread() - t
        });
        let theirs = best_of(3, || {
            let t = cpu_of_children();
            let status = Command::new("ffmpeg")
                .args(["-hide_banner", "-loglevel", "error", "-threads", "1", "-i"])
                .arg(&path)
                .args(["-f", "f32le", "-"])
                .stdout(Stdio::null())
                .status()
                .unwrap();
            assert!(status.success());
            cpu_of_children() - t
        });
        let x = |d: Duration| f64::from(seconds()) / d.as_secs_f64();
        println!(
            "{:6}  {:7.0}x realtime    {:7.0}x realtime    {:.2} (ours {:.3} s, ffmpeg {:.3} s)",
            f.ext,
            x(ours),
            x(theirs),
            theirs.as_secs_f64() / ours.as_secs_f64(),
            ours.as_secs_f64(),
            theirs.as_secs_f64()
        );
        std::fs::remove_file(path).unwrap();
    }
}

criterion_group!(benches, decode_speed);

fn main() {
    benches();
    Criterion::default().configure_from_args().final_summary();
    against_ffmpeg();
}
