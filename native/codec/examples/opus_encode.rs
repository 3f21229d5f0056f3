//! Encodes raw 48 kHz stereo s16le PCM (a file) to 20 ms Opus packets with Tributary's encoder
//! at one profile (`low_latency`, `balanced`, `high_quality`) and prints the CPU seconds its
//! thread spent and the bytes made, for `npm run bench -- streams` to compare with ffmpeg's
//! libopus on the same input.
//!
//! Usage: opus_encode IN.raw PROFILE

#[path = "common/cpu.rs"]
mod cpu;

use cpu::cpu_seconds;
use tributary_codec::{OpusEncoder, OPUS_PROFILES};

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let (Some(input), Some(name)) = (args.get(1), args.get(2)) else {
        eprintln!("usage: opus_encode IN.raw PROFILE");
        std::process::exit(2);
    };
    let profile = OPUS_PROFILES
        .iter()
        .find(|p| p.name == name)
        .expect("a profile: low_latency, balanced or high_quality");
    let raw = std::fs::read(input).expect("read the input");
    let pcm: Vec<f32> = raw
        .chunks_exact(2)
        .map(|s| f32::from(i16::from_le_bytes([s[0], s[1]])) / 32768.0)
        .collect();
    let mut bytes = 0usize;
    let start = cpu_seconds();
    let mut enc = OpusEncoder::new(*profile).expect("an encoder");
    for block in pcm.chunks(4096 * 2) {
        enc.encode(block, |p| bytes += p.len()).expect("encode");
    }
    let cpu = cpu_seconds() - start;
    println!("{{\"cpu_s\":{cpu:.3},\"bytes\":{bytes}}}");
}
