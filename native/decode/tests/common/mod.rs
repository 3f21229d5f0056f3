//! Test files made by ffmpeg at test time (never committed): a 2 s 1 kHz tone at 44.1 kHz,
//! left at 0.5 and right at 0.25 of full scale, in every format URL playback decodes; and how
//! the decoded audio is measured.
#![allow(dead_code)]

#[path = "../../../engine/tests/common/hearing.rs"]
mod hearing;

use std::collections::HashMap;
use std::io::Read;
use std::path::PathBuf;
use std::process::Command;
use std::sync::{Mutex, OnceLock};
use tributary_decode::{DecodeError, DecodeOptions, Decoder, StreamInfo};

#[allow(unused_imports)]
pub use hearing::precise_frequency;

pub const SECONDS: f64 = 2.0;
pub const TONE_HZ: f64 = 1000.0;
pub const LEFT: f64 = 0.5;
pub const RIGHT: f64 = 0.25;
pub const SOURCE: &str = "aevalsrc=0.5*sin(2*PI*1000*t)|0.25*sin(2*PI*1000*t):s=44100:d=2";

/// A format under test: its file extension, the ffmpeg encoder arguments, the rate it decodes
/// at, the codec name the decoder reports and its bit depth.
pub struct Format {
    pub ext: &'static str,
    pub args: &'static [&'static str],
    pub rate: u32,
    pub codec: &'static str,
    pub bit_depth: Option<u32>,
}

pub const FORMATS: [Format; 6] = [
    Format {
        ext: "mp3",
        args: &["-c:a", "libmp3lame", "-b:a", "192k"],
        rate: 44_100,
        codec: "mp3",
        bit_depth: None,
    },
    Format {
        ext: "flac",
        args: &["-c:a", "flac", "-sample_fmt", "s16"],
        rate: 44_100,
        codec: "flac",
        bit_depth: Some(16),
    },
    Format {
        ext: "ogg",
        args: &["-c:a", "libvorbis", "-q:a", "6"],
        rate: 44_100,
        codec: "vorbis",
        bit_depth: None,
    },
    // libopus encodes at 48 kHz (ffmpeg resamples), and Opus always decodes at 48 kHz.
    Format {
        ext: "opus",
        args: &["-c:a", "libopus", "-b:a", "160k"],
        rate: 48_000,
        codec: "opus",
        bit_depth: None,
    },
    Format {
        ext: "wav",
        args: &["-c:a", "pcm_s16le"],
        rate: 44_100,
        codec: "pcm_s16le",
        bit_depth: Some(16),
    },
    Format {
        ext: "m4a",
        args: &["-c:a", "aac", "-b:a", "192k", "-movflags", "+faststart"],
        rate: 44_100,
        codec: "aac",
        bit_depth: None,
    },
];

fn dir() -> PathBuf {
    let d =
        PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(format!("decode-{}", std::process::id()));
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// The bytes ffmpeg writes for `input` (lavfi) encoded with `args` into `name` (its extension
/// picks the container); made once per test binary.
pub fn encode(name: &str, input: &str, args: &[&str]) -> Vec<u8> {
    static MADE: OnceLock<Mutex<HashMap<String, Vec<u8>>>> = OnceLock::new();
    // Held while ffmpeg runs: tests of one binary ask for the same files at once.
    let mut made = MADE
        .get_or_init(Mutex::default)
        .lock()
        .unwrap_or_else(|e| e.into_inner());
    if let Some(bytes) = made.get(name) {
        return bytes.clone();
    }
    let path = dir().join(name);
    let out = Command::new("ffmpeg")
        .args([
            "-hide_banner",
            "-loglevel",
            "error",
            "-y",
            "-f",
            "lavfi",
            "-i",
            input,
        ])
        .args(args)
        .arg(&path)
        .output()
        .expect("ffmpeg runs (Debian package ffmpeg)");
    assert!(
        out.status.success(),
        "ffmpeg: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let bytes = std::fs::read(&path).unwrap();
    std::fs::remove_file(&path).unwrap();
    made.insert(name.to_owned(), bytes.clone());
    bytes
}

/// The tone in `format`.
pub fn tone(format: &Format) -> Vec<u8> {
    encode(&format!("tone.{}", format.ext), SOURCE, format.args)
}

/// A reader that hands out `bytes` in pieces of pseudo-random sizes (1 to `max` bytes), as a
/// network delivers them.
pub struct Pieces {
    bytes: Vec<u8>,
    at: usize,
    max: usize,
    seed: u64,
}

impl Pieces {
    pub fn new(bytes: Vec<u8>, max: usize, seed: u64) -> Pieces {
        Pieces {
            bytes,
            at: 0,
            max,
            seed: seed | 1,
        }
    }

    /// The next pseudo-random piece length, 1 to `max`.
    pub fn next_len(&mut self) -> usize {
        self.seed ^= self.seed << 13;
        self.seed ^= self.seed >> 7;
        self.seed ^= self.seed << 17;
        1 + (self.seed % self.max as u64) as usize
    }
}

impl Read for Pieces {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let n = self
            .next_len()
            .min(buf.len())
            .min(self.bytes.len() - self.at);
        buf[..n].copy_from_slice(&self.bytes[self.at..self.at + n]);
        self.at += n;
        Ok(n)
    }
}

/// Decodes everything `input` holds: the stream's info, its interleaved samples, and the
/// decoder's skipped-packet count; or the error that ended it.
pub fn decode_all<R: Read + Send + Sync + 'static>(
    input: R,
    options: &DecodeOptions,
) -> Result<(StreamInfo, Vec<f32>, u64), DecodeError> {
    let mut d = Decoder::open(input, options)?;
    let mut samples = Vec::new();
    while let Some(block) = d.next_block()? {
        samples.extend_from_slice(block);
    }
    assert_eq!(
        samples.len() as u64,
        d.decoded_frames() * d.info().channels as u64
    );
    Ok((d.info().clone(), samples, d.skipped_packets()))
}

/// Channel `c` of interleaved samples, as f64.
pub fn channel(samples: &[f32], channels: usize, c: usize) -> Vec<f64> {
    samples
        .iter()
        .skip(c)
        .step_by(channels)
        .map(|&s| f64::from(s))
        .collect()
}

/// RMS level in dBFS.
pub fn rms_db(x: &[f64]) -> f64 {
    let ms = x.iter().map(|v| v * v).sum::<f64>() / x.len() as f64;
    10.0 * ms.log10()
}

/// A sine of amplitude `amp`, in dBFS RMS.
pub fn sine_db(amp: f64) -> f64 {
    20.0 * (amp / 2f64.sqrt()).log10()
}
