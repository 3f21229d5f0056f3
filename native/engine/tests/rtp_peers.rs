//! RTP with real peers on loopback: ffmpeg and GStreamer send, the engine plays to a Scream
//! socket; the engine sends RTP and GStreamer's depayloader writes a WAV we analyse.

mod common;
#[path = "common/hearing.rs"]
mod hearing;

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
        ffmpeg_tone(
            port,
            1000.0,
            48_000,
            2.0,
            &["-af", "pan=stereo|c0=c0|c1=0.5*c0"],
        )
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
    // No gap over 2 ms after the first sample that the stats do not count (a live GStreamer
    // sender rarely stalls, but a busy machine can stall it).
    let heard = hearing::hear(&l, 48_000.0, 440.0, 0.0);
    let sink = &stats.sinks[0];
    let counted = sink.silence_ms + sink.concealed_ms;
    assert!(
        (heard.gap_ms() - counted).abs() <= 3.0 + 10.0 * heard.gaps.len() as f64,
        "heard gaps {:?}, counted {counted} ms: {sink:?}",
        heard.gaps
    );
}

/// Plays a tone (997 Hz left at half scale, 500 Hz right at a quarter: a dropped or doubled
/// 6 ms packet is not a whole number of periods) from a Scream sender through an RTP sink
/// (L16 48 kHz stereo, payload type 127) to a receiver started by `receiver(port, dir)`, stopped
/// with SIGINT (so it finishes its file); returns the bytes of `dir/file` and the engine's
/// stats.
fn receive_engine_rtp(
    file: &str,
    receiver: impl FnOnce(u16, &std::path::Path) -> std::process::Child,
) -> (Vec<u8>, tributary_engine::EngineStats) {
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
    let dir = std::env::temp_dir().join(format!("trib-rtp-rx-{}-{file}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let mut child = receiver(out_port, &dir);
    std::thread::sleep(Duration::from_millis(600));
    send_scream_tone(to, 2.0, [(997.0, 0.5), (500.0, 0.25)]);
    std::thread::sleep(Duration::from_millis(300));
    // SAFETY: kill(2) on our own child's pid.
    unsafe { libc::kill(child.id() as i32, libc::SIGINT) };
    let deadline = Instant::now() + Duration::from_secs(10);
    while child.try_wait().unwrap().is_none() && Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(50));
    }
    let _ = child.kill();
    let stats = engine.stats();
    engine.stop();
    let bytes = std::fs::read(dir.join(file)).expect("the receiver wrote what it received");
    let _ = std::fs::remove_dir_all(&dir);
    (bytes, stats)
}

/// What a receiver decoded (16-bit little-endian stereo) is the tone [`receive_engine_rtp`]
/// sends: frequency and level per channel (order kept), and one continuous tone from its first
/// sample on (no gap over 2 ms, nothing dropped or doubled), unless the engine's stats count a
/// glitch (its Scream sender stalled on a busy machine).
fn assert_decoded(pcm: &[u8], stats: &tributary_engine::EngineStats) {
    let [l, r] = split_s16(pcm, false);
    let (fl, rl) = tone(loudest(&l, 48_000), 48_000.0);
    let (fr, rr) = tone(loudest(&r, 48_000), 48_000.0);
    assert!(
        (fl - 997.0).abs() < 3.0 && (fr - 500.0).abs() < 3.0,
        "{fl} / {fr} Hz (channel order kept)"
    );
    assert!(
        (rl - 0.5 / 2f64.sqrt()).abs() < 0.02 && (rr - 0.25 / 2f64.sqrt()).abs() < 0.02,
        "{rl} {rr}"
    );
    let heard = hearing::hear(&l, 48_000.0, 997.0, 0.0);
    let jumps = hearing::jumps(&l, 48_000.0, 997.0);
    let sink = &stats.sinks[0];
    let glitches = sink.underruns + sink.concealed;
    assert!(
        (heard.gaps.is_empty() && jumps.is_empty()) || glitches > 0,
        "gaps {:?}, jumps at {jumps:?}, but the stats count none: {sink:?}",
        heard.gaps
    );
    assert!(heard.seconds > 1.5, "{} s of tone", heard.seconds);
    // The check is not vacuous: the same audio with one packet (6 ms) dropped mid-tone jumps.
    // 288 samples are 5.98 cycles of 997 Hz, a phase step of 0.11 rad: the detector sees it as
    // a step of 0.5 * 0.11 * |cos(phase)|, so the cut is made where the tone crosses zero
    // rising (|cos| = 1, a step of 0.056 against the detector's 0.02), not wherever the middle
    // happens to fall (at a peak the step is below the threshold whatever the detector).
    let first = l.iter().position(|s| s.abs() > 0.01).unwrap_or(0);
    let middle = first + (heard.seconds * 24_000.0) as usize;
    let mid = (middle..l.len() - 288)
        .find(|&i| l[i - 1] < 0.0 && l[i] >= 0.0)
        .expect("a rising zero crossing mid-tone");
    let mut dropped = l.clone();
    dropped.drain(mid..mid + 288);
    assert!(!hearing::jumps(&dropped, 48_000.0, 997.0).is_empty());
}

#[test]
fn engine_rtp_output_decodes_in_gstreamer() {
    let _serial = serial();
    have("gst-launch-1.0");
    let (wav, stats) = receive_engine_rtp("out.wav", |port, dir| {
        Command::new("gst-launch-1.0")
            .args(["-q", "-e", "udpsrc", &format!("port={port}"), "address=127.0.0.1"])
            .arg("caps=application/x-rtp,media=audio,clock-rate=48000,encoding-name=L16,channels=2,payload=127")
            .args(["!", "rtpL16depay", "!", "audioconvert", "!", "audio/x-raw,format=S16LE"])
            .args(["!", "wavenc", "!", "filesink"])
            .arg(format!("location={}", dir.join("out.wav").display()))
            .stdout(Stdio::null())
            .spawn()
            .expect("gst-launch-1.0 runs")
    });
    let data = wav
        .windows(4)
        .position(|w| w == b"data")
        .expect("data chunk")
        + 8;
    assert_decoded(&wav[data..], &stats);
}

#[test]
fn engine_rtp_output_plays_in_ffmpeg_without_a_gap() {
    let _serial = serial();
    have("ffmpeg");
    let (pcm, stats) = receive_engine_rtp("out.raw", |port, dir| {
        // What an SAP announcement of this sink says (payload type 127, L16/48000/2).
        let sdp = dir.join("in.sdp");
        std::fs::write(
            &sdp,
            format!(
                "v=0\r\no=- 1 1 IN IP4 127.0.0.1\r\ns=Tributary\r\nc=IN IP4 127.0.0.1\r\n\
                 t=0 0\r\nm=audio {port} RTP/AVP 127\r\na=rtpmap:127 L16/48000/2\r\n"
            ),
        )
        .unwrap();
        Command::new("ffmpeg")
            .args(["-hide_banner", "-loglevel", "error", "-protocol_whitelist"])
            .args(["file,udp,rtp", "-i"])
            .arg(&sdp)
            .args(["-f", "s16le", "-y"])
            .arg(dir.join("out.raw"))
            .stdout(Stdio::null())
            .spawn()
            .expect("ffmpeg runs")
    });
    assert_decoded(&pcm, &stats);
}

#[test]
fn rtp_packets_are_frame_aligned_at_most_1152_bytes_with_sender_reports() {
    let _serial = serial();
    let mut engine = engine();
    let out_port = free_udp_port();
    let rx = UdpSocket::bind((LOCAL, out_port)).unwrap();
    roomy(&rx);
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
            r.payload.len() <= 1152 && r.payload.len().is_multiple_of(18),
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
