//! RTP with real peers on loopback: ffmpeg and GStreamer send, the engine plays to a Scream
//! socket; the engine sends RTP and GStreamer's depayloader writes a WAV we analyse.

mod common;

use common::*;
use std::net::UdpSocket;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};
use tributary_dsp::SampleFormat;
use tributary_engine::wire::rtp::RtpFormat;
use tributary_engine::SinkProtocol;

fn have(tool: &str) -> bool {
    let ok = Command::new(tool)
        .arg("-version")
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .is_ok()
        || Command::new(tool)
            .arg("--version")
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .status()
            .is_ok();
    assert!(
        ok,
        "{tool} is required (Debian: ffmpeg, gstreamer1.0-tools, gstreamer1.0-plugins-base/good)"
    );
    ok
}

/// Plays what arrives on an RTP source into a Scream sink and returns the sink's audio.
fn play_rtp_into_scream(
    format: RtpFormat,
    sender: impl FnOnce(u16) -> std::process::Child,
) -> (Vec<u8>, tributary_engine::EngineStats) {
    let mut engine = engine();
    let (rx, out_port) = receiver();
    let rtp_port = free_udp_port();
    let rtp_in = path("rtp-in", None, Some(rtp_source(rtp_port, format)));
    play(
        &mut engine,
        vec![scream_sink("out", out_port, vec![rtp_in])],
    );
    let mut child = sender(rtp_port);
    let packets = collect(&rx, 3.0);
    let _ = child.kill();
    let _ = child.wait();
    let stats = engine.stats();
    engine.stop();
    let audio: Vec<u8> = packets.iter().flat_map(|(_, p)| p[5..].to_vec()).collect();
    (audio, stats)
}

/// The loudest stretch of `n` samples (where the tone is).
fn loudest(samples: &[f64], n: usize) -> &[f64] {
    let mut best = 0;
    let mut best_e = -1.0;
    let mut i = 0;
    while i + n <= samples.len() {
        let e: f64 = samples[i..i + n].iter().map(|x| x * x).sum();
        if e > best_e {
            best_e = e;
            best = i;
        }
        i += n / 4;
    }
    &samples[best..(best + n).min(samples.len())]
}

#[test]
fn ffmpeg_l16_rtp_plays_with_frequency_level_and_channel_order() {
    let _serial = serial();
    have("ffmpeg");
    let (audio, stats) = play_rtp_into_scream(RtpFormat::DEFAULT, |port| {
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
            .arg("sine=frequency=1000:sample_rate=48000:duration=2")
            .args([
                "-af",
                "pan=stereo|c0=c0|c1=0.5*c0",
                "-c:a",
                "pcm_s16be",
                "-f",
                "rtp",
            ])
            .arg(format!("rtp://127.0.0.1:{port}"))
            .stdout(Stdio::null())
            .spawn()
            .expect("ffmpeg runs")
    });
    let [l, r] = split_s16(&audio, false);
    // ffmpeg is not a real-time process: on a loaded machine it can stall for longer than any
    // jitter buffer (the engine then holds silence until it has audio again). Judge the
    // longest uninterrupted stretch; gap-free playback itself is tested with our own sender.
    let (start, len) = longest_sound(&l);
    assert!(
        len > 12_000,
        "no 250 ms of uninterrupted tone ({len} samples)"
    );
    let (l, r) = (
        l[start..start + len].to_vec(),
        r[start..start + len].to_vec(),
    );
    let (fl, rl) = tone(&l, 48_000.0);
    let (fr, rr) = tone(&r, 48_000.0);
    assert!(
        (fl - 1000.0).abs() < 5.0 && (fr - 1000.0).abs() < 5.0,
        "{fl} / {fr} Hz"
    );
    // lavfi's sine is 1/8 full scale; the right channel is half of it.
    assert!((rl - 0.125 / 2f64.sqrt()).abs() < 0.01, "left rms {rl}");
    assert!((rr / rl - 0.5).abs() < 0.03, "right/left {}", rr / rl);
    let src = &stats.sources[0];
    assert!(src.packets > 100, "{src:?}");
    assert_eq!(src.format.as_deref(), Some("rtp L16 48000 Hz 2 ch"));
    assert_eq!(src.malformed, 0);
}

#[test]
fn gstreamer_l24_rtp_at_44k1_is_resampled_for_a_48k_sink() {
    let _serial = serial();
    have("gst-launch-1.0");
    let format = RtpFormat::new(SampleFormat::S24Be, 44_100, 2).unwrap();
    let (audio, stats) = play_rtp_into_scream(format, |port| {
        Command::new("gst-launch-1.0")
            .args([
                "-q",
                "audiotestsrc",
                "is-live=true",
                "freq=440",
                "volume=0.5",
                "num-buffers=200",
                "!",
            ])
            .args([
                "audio/x-raw,rate=44100,channels=2,format=S24BE",
                "!",
                "rtpL24pay",
                "!",
                "udpsink",
                "host=127.0.0.1",
            ])
            .arg(format!("port={port}"))
            .stdout(Stdio::null())
            .spawn()
            .expect("gst-launch-1.0 runs")
    });
    let [l, r] = split_s16(&audio, false);
    let (start, len) = longest_sound(&l);
    assert!(
        len > 12_000,
        "no 250 ms of uninterrupted tone ({len} samples)"
    );
    let (fl, rl) = tone(&l[start..start + len], 48_000.0);
    let (fr, _) = tone(&r[start..start + len], 48_000.0);
    assert!(
        (fl - 440.0).abs() < 3.0 && (fr - 440.0).abs() < 3.0,
        "{fl} / {fr} Hz after 44.1 -> 48 kHz"
    );
    assert!((rl - 0.5 / 2f64.sqrt()).abs() < 0.03, "rms {rl}");
    assert_eq!(
        stats.sources[0].format.as_deref(),
        Some("rtp L24 44100 Hz 2 ch")
    );
}

#[test]
fn engine_rtp_output_decodes_in_gstreamer() {
    let _serial = serial();
    have("gst-launch-1.0");
    let mut engine = engine();
    let out_port = free_udp_port();
    let rtp_out = sink(
        "rtp-out",
        out_port,
        SinkProtocol::Rtp,
        48_000,
        16,
        vec![local_pc()],
    );
    let to = play(&mut engine, vec![rtp_out]);
    let dir = std::env::temp_dir().join(format!("trib-engine-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let wav = dir.join("out.wav");
    let mut gst = Command::new("gst-launch-1.0")
        .args(["-q", "-e", "udpsrc", &format!("port={out_port}"), "address=127.0.0.1"])
        .arg("caps=application/x-rtp,media=audio,clock-rate=48000,encoding-name=L16,channels=2,payload=96")
        .args(["!", "rtpL16depay", "!", "audioconvert", "!", "audio/x-raw,format=S16LE", "!", "wavenc", "!", "filesink"])
        .arg(format!("location={}", wav.display()))
        .stdout(Stdio::null())
        .spawn()
        .expect("gst-launch-1.0 runs");
    std::thread::sleep(Duration::from_millis(500));
    send_scream_tone(to, 2.0, [(1000.0, 0.5), (500.0, 0.25)]);
    // SIGINT makes gst-launch -e send EOS so wavenc writes a complete header.
    // SAFETY: kill(2) on our own child's pid.
    unsafe { libc::kill(gst.id() as i32, libc::SIGINT) };
    let deadline = Instant::now() + Duration::from_secs(10);
    while gst.try_wait().unwrap().is_none() && Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(50));
    }
    let _ = gst.kill();
    engine.stop();
    let bytes = std::fs::read(&wav).expect("wav written");
    let _ = std::fs::remove_dir_all(&dir);
    let data = bytes
        .windows(4)
        .position(|w| w == b"data")
        .expect("data chunk")
        + 8;
    let [l, r] = split_s16(&bytes[data..], false);
    let (fl, rl) = tone(loudest(&l, 48_000), 48_000.0);
    let (fr, rr) = tone(loudest(&r, 48_000), 48_000.0);
    assert!((fl - 1000.0).abs() < 5.0, "left {fl} Hz");
    assert!(
        (fr - 500.0).abs() < 3.0,
        "right {fr} Hz (channel order kept)"
    );
    assert!(
        (rl - 0.5 / 2f64.sqrt()).abs() < 0.02 && (rr - 0.25 / 2f64.sqrt()).abs() < 0.02,
        "{rl} {rr}"
    );
}

#[test]
fn rtp_packets_are_frame_aligned_at_most_1152_bytes_with_sender_reports() {
    let _serial = serial();
    let mut engine = engine();
    let out_port = free_udp_port();
    let rx = UdpSocket::bind((LOCAL, out_port)).unwrap();
    let rtcp = UdpSocket::bind((LOCAL, out_port + 1)).unwrap();
    let mut s = sink("rtp-out", out_port, SinkProtocol::Rtp, 48_000, 24, vec![]);
    s.channels = 6;
    s.layout = tributary_dsp::ChannelLayout::LAYOUT_5_1;
    play(&mut engine, vec![s]);
    let packets = collect(&rx, 0.5);
    let reports = collect(&rtcp, 0.1);
    engine.stop();
    assert!(packets.len() > 50);
    let mut last: Option<(u16, u32)> = None;
    for (_, p) in &packets {
        let r = tributary_engine::wire::rtp::parse(p).unwrap();
        assert!(
            r.payload.len() <= 1152 && r.payload.len() % 18 == 0,
            "{}",
            r.payload.len()
        );
        assert_eq!(r.payload_type, 97, "L24 uses the dynamic type 97");
        if let Some((seq, ts)) = last {
            assert_eq!(r.sequence, seq.wrapping_add(1));
            assert_eq!(r.timestamp, ts.wrapping_add((r.payload.len() / 18) as u32));
        }
        last = Some((r.sequence, r.timestamp));
    }
    let sr = reports.first().expect("an RTCP sender report at start");
    assert!(matches!(
        tributary_engine::wire::rtcp::parse(&sr.1).next(),
        Some(Ok(
            tributary_engine::wire::rtcp::RtcpPacket::SenderReport { .. }
        ))
    ));
}

#[test]
fn an_rtp_sink_sends_the_payload_type_it_is_given() {
    let _serial = serial();
    let mut engine = engine();
    let out_port = free_udp_port();
    let rx = UdpSocket::bind((LOCAL, out_port)).unwrap();
    // PulseAudio's module-rtp-recv plays L16 at 44.1 kHz stereo only as payload type 10.
    let mut s = sink("pa-out", out_port, SinkProtocol::Rtp, 44_100, 16, vec![]);
    s.payload_type = Some(10);
    play(&mut engine, vec![s]);
    let packets = collect(&rx, 0.3);
    engine.stop();
    assert!(packets.len() > 10);
    for (_, p) in &packets {
        assert_eq!(
            tributary_engine::wire::rtp::parse(p).unwrap().payload_type,
            10
        );
    }
}
