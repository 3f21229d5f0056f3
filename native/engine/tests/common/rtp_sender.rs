//! An RTP sender for the engine's tests and the fidelity bench (which reaches it by `#[path]`):
//! ffmpeg sending a tone as L16, to an even UDP port whose neighbour (RTCP) is free too.
#![allow(dead_code)]

use std::net::{Ipv4Addr, UdpSocket};
use std::process::{Child, Command, Stdio};

const LOCAL: Ipv4Addr = Ipv4Addr::LOCALHOST;

/// An even port on 127.0.0.1 whose neighbour (RTCP) is free too.
pub fn free_udp_port() -> u16 {
    for _ in 0..50 {
        let s = UdpSocket::bind((LOCAL, 0)).unwrap();
        let p = s.local_addr().unwrap().port();
        if p.is_multiple_of(2) && p < 65_000 && UdpSocket::bind((LOCAL, p + 1)).is_ok() {
            return p;
        }
    }
    panic!("no free port pair");
}

/// ffmpeg sending a `freq` Hz sine at `rate` for `seconds` as L16 (`pcm_s16be`) RTP to
/// 127.0.0.1:`port`, paced by `-re` (bursts of 21 ms). `stereo` are the arguments that make
/// its two channels: `["-ac", "2"]` for the tone on both, or a `pan` filter.
pub fn ffmpeg_tone(port: u16, freq: f64, rate: u32, seconds: f64, stereo: &[&str]) -> Child {
    Command::new("ffmpeg")
        .args([
            "-hide_banner",
            "-loglevel",
            "error",
            "-re",
            "-f",
            "lavfi",
            "-i",
        ])
        .arg(format!(
            "sine=frequency={freq}:sample_rate={rate}:duration={seconds}"
        ))
        .args(stereo)
        .args(["-c:a", "pcm_s16be", "-f", "rtp"])
        .arg(format!("rtp://127.0.0.1:{port}"))
        .stdout(Stdio::null())
        .spawn()
        .expect("ffmpeg runs (Debian: ffmpeg)")
}
