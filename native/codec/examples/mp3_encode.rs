//! Encodes raw stereo s16le PCM (a file) to MP3 with Tributary's encoder, as the engine does
//! (f32 blocks of 4096 frames, 320 kbit/s CBR unless given), and prints the CPU seconds its
//! thread spent encoding, for `npm run bench -- streams` to compare with the `lame` CLI and
//! ffmpeg's libmp3lame on the same input.
//!
//! Usage: mp3_encode IN.raw RATE OUT.mp3 [KBPS]

#[path = "common/cpu.rs"]
mod cpu;

use cpu::cpu_seconds;
use std::io::Write;
use tributary_codec::Mp3Encoder;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    if args.len() < 4 {
        eprintln!("usage: mp3_encode IN.raw RATE OUT.mp3 [KBPS]");
        std::process::exit(2);
    }
    let raw = std::fs::read(&args[1]).expect("read the input");
    let rate: u32 = args[2].parse().expect("a sample rate");
    let kbps: u32 = args.get(4).map_or(320, |k| k.parse().expect("a bit rate"));
    let pcm: Vec<f32> = raw
        .chunks_exact(2)
        .map(|s| f32::from(i16::from_le_bytes([s[0], s[1]])) / 32768.0)
        .collect();
    let mut out = Vec::with_capacity(raw.len() / 4);
    let start = cpu_seconds();
    let mut enc = Mp3Encoder::new(rate, kbps, 4096).expect("an encoder");
    for block in pcm.chunks(4096 * 2) {
        enc.encode(block, |f, _| out.extend_from_slice(f))
            .expect("encode");
    }
    enc.finish(|f, _| out.extend_from_slice(f)).expect("finish");
    let cpu = cpu_seconds() - start;
    std::fs::File::create(&args[3])
        .and_then(|mut f| f.write_all(&out))
        .expect("write the output");
    println!("{{\"cpu_s\":{cpu:.3},\"bytes\":{}}}", out.len());
}
