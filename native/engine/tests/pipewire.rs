//! PipeWire interop (Debian bookworm's PipeWire 0.3.65), both directions, with the settings the
//! RTP guide gives: `libpipewire-module-rtp-sink` plays a 1 kHz tone from `pw-play` into an RTP
//! source of Tributary on 127.0.0.1, and an RTP sink of Tributary (48 kHz L16, payload type 127,
//! announced by hand with SAP) plays in `libpipewire-module-rtp-source`, recorded with
//! `pw-record`. SAP goes to a unicast 127.0.0.1 port of the test's own (`sap.ip`, `sap.port`),
//! so no namespace is needed. A private daemon without a session manager
//! (tests/common/pipewire.rs) runs each.

mod common;
#[path = "common/hearing.rs"]
mod hearing;
#[path = "common/listen.rs"]
mod listen;
#[path = "common/pipewire.rs"]
mod pipewire;

use common::*;
use listen::listen;
use pipewire::PipeWire;
use std::net::UdpSocket;
use std::path::Path;
use std::time::Duration;
use tributary_engine::wire::rtp::RtpFormat;
use tributary_engine::SinkProtocol;

/// True when PipeWire and its tools are here; otherwise the test is skipped (failed in CI).
fn have_pipewire(test: &str) -> bool {
    if ["pipewire", "pw-cli", "pw-link", "pw-play"]
        .iter()
        .all(|t| have_tool(t))
    {
        return true;
    }
    skip_for_environment(
        test,
        "needs PipeWire (Debian: pipewire, pipewire-bin, libpipewire-0.3-modules)",
    );
    false
}

/// Writes a 48 kHz 16-bit stereo WAV file of `seconds` of `freq` Hz at `amp` on both channels.
fn write_tone_wav(file: &Path, seconds: f64, freq: f64, amp: f64) {
    let frames = (seconds * 48_000.0) as u32;
    let data_len = frames * 4;
    let mut wav = Vec::with_capacity(44 + data_len as usize);
    wav.extend_from_slice(b"RIFF");
    wav.extend_from_slice(&(36 + data_len).to_le_bytes());
    wav.extend_from_slice(b"WAVEfmt ");
    for (v, n) in [
        (16u32, 4),
        (1, 2),
        (2, 2),
        (48_000, 4),
        (192_000, 4),
        (4, 2),
        (16, 2),
    ] {
        wav.extend_from_slice(&v.to_le_bytes()[..n]);
    }
    wav.extend_from_slice(b"data");
    wav.extend_from_slice(&data_len.to_le_bytes());
    for n in 0..frames {
        let v = (amp
            * (2.0 * std::f64::consts::PI * freq * f64::from(n) / 48_000.0).sin()
            * 32767.0) as i16;
        wav.extend_from_slice(&v.to_le_bytes());
        wav.extend_from_slice(&v.to_le_bytes());
    }
    std::fs::write(file, wav).unwrap();
}

/// The guide's `libpipewire-module-rtp-sink` block, aimed at 127.0.0.1:`port`, with its SAP
/// sent to 127.0.0.1:`sap_port`.
fn rtp_sink_module(port: u16, sap_port: u16) -> String {
    format!(
        "  {{ name = libpipewire-module-rtp-sink\n    args = {{\n      \
         destination.ip = \"127.0.0.1\"\n      destination.port = {port}\n      \
         net.mtu = 1152\n      net.ttl = 32\n      sess.name = \"Tributary\"\n      \
         audio.format = \"S16BE\"\n      audio.rate = 48000\n      audio.channels = 2\n      \
         audio.position = [ FL FR ]\n      sap.ip = \"127.0.0.1\"\n      sap.port = {sap_port}\n      \
         stream.props = {{\n        node.name = \"tributary-rtp\"\n        \
         node.description = \"Tributary\"\n        media.class = \"Audio/Sink\"\n      }}\n    }}\n  }}"
    )
}

#[test]
fn pipewire_rtp_sink_plays_through_an_rtp_source() {
    if !have_pipewire("pipewire_rtp_sink_plays_through_an_rtp_source") {
        return;
    }
    let _serial = serial();
    let rtp_port = free_udp_port();
    let sap = UdpSocket::bind((LOCAL, 0)).unwrap();
    let sap_port = sap.local_addr().unwrap().port();
    let mut pw = PipeWire::start("rtp-sink", &rtp_sink_module(rtp_port, sap_port));
    let wav = pw.dir.join("tone.wav");
    write_tone_wav(&wav, 12.0, 1000.0, 0.5);
    let wav = wav.to_str().unwrap().to_owned();
    pw.spawn("pw-play", &["-P", "{ node.name = tone }", &wav]);
    pw.dsp_ports("tone", true, 48_000);
    pw.dsp_ports("tributary-rtp", false, 48_000);
    pw.link("tone", "tributary-rtp");

    // What PipeWire sends goes through a relay of the test's (a plain socket on the port
    // PipeWire sends to, forwarding to the engine's source), so the test hears both.
    let engine_port = free_udp_port();
    let relay = std::thread::spawn(move || relay(rtp_port, engine_port, 5.6));
    let mut engine = engine();
    let (rx, out_port) = receiver();
    let pw_in = path(
        "pipewire",
        None,
        Some(rtp_source(engine_port, RtpFormat::DEFAULT)),
    );
    play(&mut engine, vec![scream_sink("out", out_port, vec![pw_in])]);
    let packets = collect(&rx, 5.0);
    let stats = engine.stats();
    engine.stop();
    let sent = relay.join().unwrap();
    assert!(sent.len() > 400, "{} packets: {}", sent.len(), pw.log());
    for pair in sent.windows(2) {
        let (a, b) = (&pair[0], &pair[1]);
        assert_eq!(b.len(), 1164, "RTP header 12 + payload 1152 bytes");
        assert_eq!(b[0] >> 6, 2, "RTP version 2");
        assert_eq!(b[1] & 0x7f, 127, "dynamic payload type 127");
        let seq = |p: &[u8]| u16::from_be_bytes([p[2], p[3]]);
        let ts = |p: &[u8]| u32::from_be_bytes([p[4], p[5], p[6], p[7]]);
        assert_eq!(seq(b), seq(a).wrapping_add(1), "sequence");
        assert_eq!(ts(b).wrapping_sub(ts(a)), 288, "288 frames a packet");
    }
    let payload: Vec<u8> = sent.iter().flat_map(|p| p[12..].to_vec()).collect();
    let [sent_left, _] = split_s16(&payload, true);
    let (sent_gaps, sent_f, _) = listen(&sent_left, 48_000.0, 1000.0);

    sap.set_read_timeout(Some(Duration::from_secs(6))).unwrap();
    let mut buf = [0u8; 2048];
    let n = sap.recv(&mut buf).expect("PipeWire announces with SAP");
    let sdp = String::from_utf8_lossy(&buf[8..n]).into_owned();
    eprintln!("PIPEWIRE SAP header {:02x?}: {sdp}", &buf[..8]);
    assert_eq!(buf[0] >> 5, 1, "SAP version 1");
    assert!(sdp.starts_with("application/sdp\0v=0\n"), "{sdp}");
    assert!(sdp.contains("\ns=Tributary\n"), "{sdp}");
    assert!(sdp.contains("\nc=IN IP4 127.0.0.1\n"), "{sdp}");
    assert!(
        sdp.contains(&format!("\nm=audio {rtp_port} RTP/AVP 127\n")),
        "{sdp}"
    );
    assert!(sdp.contains("\na=rtpmap:127 L16/48000/2\n"), "{sdp}");
    assert!(sdp.contains("\na=ptime:6\n"), "{sdp}");

    let left = left_channel(&packets, None);
    let (gaps, f, rms) = listen(&left, 48_000.0, 1000.0);
    let src = &stats.sources[0];
    eprintln!(
        "PIPEWIRE module-rtp-sink -> tributary: {f:.2} Hz, rms {rms:.3}, gaps {gaps:?}, {:.2} s, \
         sink silence {} ms, {src:?}; PipeWire sent {} packets, {sent_f:.2} Hz, gaps {sent_gaps:?}",
        sounding(&left).len() as f64 / 48_000.0,
        stats.sinks[0].silence_ms,
        sent.len(),
    );
    assert_eq!(src.format.as_deref(), Some("rtp L16 48000 Hz 2 ch"));
    assert_eq!(src.format_problem, None);
    assert!(src.packets > 400, "{src:?}");
    assert_eq!(
        (src.lost, src.malformed, src.late, src.duplicates),
        (0, 0, 0, 0),
        "{src:?}"
    );
    assert!(
        sounding(&left).len() > 48_000 * 3,
        "{} frames",
        sounding(&left).len()
    );
    assert!((f - 1000.0).abs() < 1.0, "{f} Hz");
    // PipeWire 0.3.65 itself sends silence (256-frame multiples) when a loaded machine delays
    // its graph; what Tributary adds must be none, or counted in its stats.
    let counted = stats.sinks[0].silence_ms + src.silence_ms + src.concealed_ms;
    let (heard, in_sent): (f64, f64) = (gaps.iter().sum(), sent_gaps.iter().sum());
    assert!(
        heard <= in_sent + counted + 3.0 * (gaps.len() as f64 + 1.0),
        "heard gaps {gaps:?} ms, PipeWire sent {sent_gaps:?}, counted {counted} ms"
    );
    if sent_gaps.is_empty() {
        assert!((rms - 0.5 / 2f64.sqrt()).abs() < 0.01, "rms {rms}");
        assert!(gaps.is_empty(), "gaps {gaps:?} ms");
    } else {
        assert!(rms > 0.25 && rms < 0.36, "rms {rms}");
    }
}

/// Receives what PipeWire sends to `port` for `seconds` and forwards it to the engine's
/// `to` port (at real-time priority, as a sender's thread); returns the packets.
fn relay(port: u16, to: u16, seconds: f64) -> Vec<Vec<u8>> {
    tributary_engine::runtime::scheduling::raise_current_thread(30);
    let socket = UdpSocket::bind((LOCAL, port)).unwrap();
    socket
        .set_read_timeout(Some(Duration::from_millis(50)))
        .unwrap();
    let end = std::time::Instant::now() + Duration::from_secs_f64(seconds);
    let mut sent = Vec::new();
    let mut buf = [0u8; 2048];
    while std::time::Instant::now() < end {
        if let Ok(n) = socket.recv(&mut buf) {
            socket.send_to(&buf[..n], (LOCAL, to)).unwrap();
            sent.push(buf[..n].to_vec());
        }
    }
    sent
}

/// A SAP announcement (RFC 2974) of an L16 48 kHz stereo stream, payload type 127, on
/// 127.0.0.1:`port`, named `tributary-test`.
fn sap_announcement(port: u16) -> Vec<u8> {
    let sdp = format!(
        "v=0\no=- 4242 0 IN IP4 127.0.0.1\ns=tributary-test\nc=IN IP4 127.0.0.1\nt=0 0\n\
         a=recvonly\nm=audio {port} RTP/AVP 127\na=rtpmap:127 L16/48000/2\n"
    );
    let mut p = vec![0x20, 0, 0x42, 0x42, 127, 0, 0, 1];
    p.extend_from_slice(b"application/sdp\0");
    p.extend_from_slice(sdp.as_bytes());
    p
}

/// The 16-bit samples of a WAV file's `data` chunk.
fn wav_data(bytes: &[u8]) -> &[u8] {
    let at = bytes
        .windows(4)
        .position(|w| w == b"data")
        .expect("a WAV data chunk");
    &bytes[(at + 8).min(bytes.len())..]
}

#[test]
fn an_rtp_sink_plays_in_pipewire_rtp_source() {
    if !have_pipewire("an_rtp_sink_plays_in_pipewire_rtp_source") {
        return;
    }
    let _serial = serial();
    let rtp_port = free_udp_port();
    let sap_port = free_udp_port();
    let mut pw = PipeWire::start(
        "rtp-source",
        &format!(
            "  {{ name = libpipewire-module-rtp-source\n    args = {{\n      \
             sap.ip = \"127.0.0.1\"\n      sap.port = {sap_port}\n      \
             sess.latency.msec = 100\n    }}\n  }}"
        ),
    );
    let mut engine = engine();
    let rtp_out = sink(
        "to-pipewire",
        rtp_port,
        SinkProtocol::Rtp,
        48_000,
        16,
        vec![local_pc()],
    );
    let to = play(&mut engine, vec![rtp_out]);
    let sap = UdpSocket::bind((LOCAL, 0)).unwrap();
    let announcement = sap_announcement(rtp_port);
    sap.send_to(&announcement, (LOCAL, sap_port)).unwrap();
    let file = pw.dir.join("recorded.wav");
    let file_arg = file.to_str().unwrap().to_owned();
    pw.spawn(
        "pw-record",
        &[
            "-P",
            "{ node.name = rec }",
            "--rate",
            "48000",
            "--channels",
            "2",
            "--format",
            "s16",
            &file_arg,
        ],
    );
    pw.dsp_ports("tributary-test", true, 48_000);
    pw.dsp_ports("rec", false, 48_000);
    pw.link("tributary-test", "rec");
    let sender =
        std::thread::spawn(move || send_scream_tone(to, 6.0, [(1000.0, 0.25), (500.0, 0.25)]));
    for _ in 0..6 {
        sap.send_to(&announcement, (LOCAL, sap_port)).unwrap();
        std::thread::sleep(Duration::from_secs(1));
    }
    sender.join().unwrap();
    std::thread::sleep(Duration::from_millis(500));
    pw.stop_clients();
    let stats = engine.stats();
    engine.stop();
    let bytes = std::fs::read(&file).unwrap_or_default();
    let [left, right] = split_s16(wav_data(&bytes), false);
    let (gaps, fl, rms) = listen(&left, 48_000.0, 1000.0);
    let (_, fr, _) = listen(&right, 48_000.0, 500.0);
    eprintln!(
        "PIPEWIRE tributary -> module-rtp-source: {fl:.2} / {fr:.2} Hz, rms {rms:.3}, gaps {gaps:?}, \
         {:.2} s of sound, sink {:?}",
        sounding(&left).len() as f64 / 48_000.0,
        stats.sinks[0]
    );
    assert!(
        sounding(&left).len() > 48_000 * 3,
        "PipeWire played no tone: {}",
        pw.log()
    );
    assert!(
        (fl - 1000.0).abs() < 2.0 && (fr - 500.0).abs() < 1.0,
        "{fl} / {fr} Hz"
    );
    assert!((rms - 0.25 / 2f64.sqrt()).abs() < 0.02, "rms {rms}");
    assert!(gaps.is_empty(), "gaps {gaps:?} ms");
}
