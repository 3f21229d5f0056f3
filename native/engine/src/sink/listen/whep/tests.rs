//! WHEP against a real WebRTC peer: a second str0m instance as the listener, on its own UDP
//! socket on 127.0.0.1, decoding what it receives with libopus.

#[path = "../../../../tests/common/whep_peer.rs"]
mod whep_peer;
use whep_peer::Listener;

use super::*;
use crate::sink::listen::fold::StereoFold;
use crate::sink::listen::whep::session::Patched;
use std::sync::atomic::AtomicBool;
use std::thread::JoinHandle;
use std::time::Duration;
use tributary_codec::OPUS_PROFILES;
use tributary_dsp::{AudioBuffer, ChannelLayout};

const LOOPBACK: WhepBind = WhepBind {
    addresses: Vec::new(),
    port: 0,
};

fn bind_loopback() -> WhepBind {
    WhepBind {
        addresses: vec!["127.0.0.1".parse().unwrap()],
        ..LOOPBACK
    }
}

/// Plays 1 kHz left and 440 Hz right into `sink`'s WebRTC tap at `rate`, 10 ms at a time on
/// the wall clock (as the engine thread would), until `stop`.
fn play_tones(sink: Arc<SinkCounters>, rate: u32, stop: Arc<AtomicBool>) -> JoinHandle<()> {
    play_layout(sink, rate, ChannelLayout::STEREO, &[1000.0, 440.0], stop)
}

/// Plays one tone per channel of `layout` (amplitude 0.5) into `sink`'s WebRTC tap, folded
/// to stereo as the sink would.
fn play_layout(
    sink: Arc<SinkCounters>,
    rate: u32,
    layout: ChannelLayout,
    tones: &[f64],
    stop: Arc<AtomicBool>,
) -> JoinHandle<()> {
    let tones = tones.to_vec();
    std::thread::spawn(move || {
        let fold = StereoFold::for_layout(layout);
        let frames = rate as usize / 100;
        let mut buf = AudioBuffer::new(layout.channels(), frames);
        buf.set_frames(frames);
        let mut n = 0u64;
        let start = Instant::now();
        while !stop.load(Relaxed) {
            for (c, hz) in tones.iter().enumerate() {
                for i in 0..frames {
                    let t = (n + i as u64) as f64 / f64::from(rate);
                    buf.channel_mut(c)[i] = (0.5 * (std::f64::consts::TAU * hz * t).sin()) as f32;
                }
            }
            sink.webrtc.push_audio(&buf, rate, &fold);
            n += frames as u64;
            let due = start + Duration::from_secs_f64(n as f64 / f64::from(rate));
            std::thread::sleep(due.saturating_duration_since(Instant::now()));
        }
    })
}

/// Energy of `x` at `hz` (Goertzel), 48 kHz.
fn energy(x: &[f32], hz: f64) -> f64 {
    let k = 2.0 * (std::f64::consts::TAU * hz / 48_000.0).cos();
    let (mut s1, mut s2) = (0.0, 0.0);
    for &v in x {
        let s = f64::from(v) + k * s1 - s2;
        s2 = s1;
        s1 = s;
    }
    s1 * s1 + s2 * s2 - k * s1 * s2
}

fn request<'a>(offer: &'a str, client: &'a str, timeout: Duration) -> WhepRequest<'a> {
    WhepRequest {
        sink_id: "kitchen",
        offer_sdp: offer,
        profile: OPUS_PROFILES[1],
        client,
        timeout,
    }
}

/// A listener connected to `sink` (profile balanced, 5 s timeout) and the server's answer.
fn connect(server: &WhepServer, sink: &Arc<SinkCounters>, rate: u32) -> (Listener, WhepAnswer) {
    let (mut listener, offer) = Listener::new();
    let req = request(&offer, "a", Duration::from_secs(5));
    let answer = server
        .offer(sink.clone(), rate, &req, &bind_loopback())
        .unwrap();
    listener.accept(&answer.answer_sdp);
    (listener, answer)
}

/// What `listener` decodes until it has `frames` stereo frames (15 s at most): left, right.
fn hear(listener: &mut Listener, frames: usize) -> (Vec<f32>, Vec<f32>) {
    let (mut left, mut right) = (Vec::new(), Vec::new());
    listener.listen(Duration::from_secs(15), |_, pcm| {
        left.extend(pcm.chunks(2).map(|s| s[0]));
        right.extend(pcm.chunks(2).map(|s| s[1]));
        left.len() < frames
    });
    (left, right)
}

fn hears_tones_apart(rate: u32) {
    let server = WhepServer::default();
    let sink = Arc::new(SinkCounters::default());
    let stop = Arc::new(AtomicBool::new(false));
    let player = play_tones(sink.clone(), rate, stop.clone());
    let (mut listener, answer) = connect(&server, &sink, rate);
    let (id, answer) = (answer.id, answer.answer_sdp);
    assert!(answer.contains("stereo=1") && answer.contains("sprop-stereo=1"));
    assert!(answer.contains("a=candidate:") && answer.contains("127.0.0.1"));
    let (left, right) = hear(&mut listener, 72_000);
    stop.store(true, Relaxed);
    player.join().unwrap();
    // 1.5 s of audio (ICE and DTLS take a few hundred milliseconds before it).
    assert!(
        left.len() >= 72_000,
        "heard {} frames at {rate} Hz; server: {:?} {:?}",
        left.len(),
        server.sessions(),
        server.counters()
    );
    let (l, r) = (&left[left.len() - 24_000..], &right[right.len() - 24_000..]);
    assert!(
        energy(l, 1000.0) > 100.0 * energy(l, 440.0),
        "left at {rate} Hz"
    );
    assert!(
        energy(r, 440.0) > 100.0 * energy(r, 1000.0),
        "right at {rate} Hz"
    );
    let info = server.sessions();
    assert_eq!(info.len(), 1);
    let stats = &info[0].stats;
    assert_eq!(info[0].id, id);
    assert!(stats.connected && stats.packets >= 75, "{stats:?}");
    assert!(stats.bytes > stats.packets * 100, "{stats:?}");
    assert_eq!(stats.remote, Some(listener.socket.local_addr().unwrap()));
    assert!(server.close(&id));
    assert!(!server.close(&id));
}

#[test]
fn a_webrtc_peer_hears_the_sinks_tones_with_channels_apart() {
    hears_tones_apart(48_000);
}

#[test]
fn a_sink_at_44_1_khz_is_resampled_to_opus_48_khz() {
    hears_tones_apart(44_100);
}

#[test]
fn an_offer_that_is_not_sdp_or_has_no_audio_is_refused_with_the_reason() {
    let server = WhepServer::default();
    let sink = Arc::new(SinkCounters::default());
    let req = request("hello", "a", Duration::from_secs(1));
    let err = server
        .offer(sink.clone(), 48_000, &req, &bind_loopback())
        .unwrap_err();
    assert!(
        matches!(&err, WhepError::BadOffer(m) if m.contains("not valid SDP")),
        "{err}"
    );
    assert!(!server.is_running() && !sink.webrtc.is_open());
}

#[test]
fn a_silent_listener_is_freed_after_its_timeout_with_the_thread_and_tap() {
    let server = WhepServer::default();
    let sink = Arc::new(SinkCounters::default());
    let (_listener, offer) = Listener::new();
    let req = request(&offer, "a", Duration::from_millis(300));
    let id = server
        .offer(sink.clone(), 48_000, &req, &bind_loopback())
        .unwrap()
        .id;
    assert!(server.is_running() && sink.webrtc.is_open());
    assert_eq!(server.local_addresses().len(), 1);
    let t0 = Instant::now();
    while server.is_running() && t0.elapsed() < Duration::from_secs(3) {
        std::thread::sleep(Duration::from_millis(20));
    }
    assert!(t0.elapsed() >= Duration::from_millis(250));
    assert!(!server.is_running(), "the thread still runs");
    assert!(server.sessions().is_empty() && !sink.webrtc.is_open());
    assert!(server.local_addresses().is_empty(), "sockets left open");
    assert_eq!(server.counters().1, 1);
    assert!(!server.close(&id));
    let frag = "a=candidate:1 1 udp 1 127.0.0.1 9 typ host";
    assert_eq!(
        server.patch(&id, frag, None),
        Err(WhepPatchError::NoSession)
    );
}

#[test]
fn trickled_candidates_are_read_and_bad_lines_named() {
    let server = WhepServer::default();
    let sink = Arc::new(SinkCounters::default());
    let (_listener, offer) = Listener::new();
    let req = request(&offer, "a", Duration::from_secs(5));
    let answer = server.offer(sink, 48_000, &req, &bind_loopback()).unwrap();
    let (id, etag) = (&answer.id, format!("\"{}\"", answer.etag));
    let frag = "a=ice-ufrag:x\r\na=candidate:1 1 udp 2130706431 127.0.0.1 50000 typ host\r\n";
    assert_eq!(
        server.patch(id, frag, Some(&etag)),
        Ok(Patched::Trickled(1))
    );
    let bad = server.patch(id, "a=candidate:nonsense", None).unwrap_err();
    assert!(
        matches!(&bad, WhepPatchError::BadFragment(m) if m.contains("nonsense")),
        "{bad:?}"
    );
    // A PATCH for another ICE session changes nothing.
    let stale = server.patch(id, frag, Some("\"0123\""));
    assert!(
        matches!(stale, Err(WhepPatchError::Stale { .. })),
        "{stale:?}"
    );
    assert!(server.close(id));
}

#[test]
fn the_interfaces_include_loopback() {
    let ips = interface_addresses();
    assert!(ips.contains(&"127.0.0.1".parse().unwrap()), "{ips:?}");
}

#[test]
fn a_surround_sink_is_heard_as_its_stereo_down_mix() {
    let server = WhepServer::default();
    let sink = Arc::new(SinkCounters::default());
    let stop = Arc::new(AtomicBool::new(false));
    // FL FR FC LFE BL BR
    let tones = [1000.0, 440.0, 700.0, 60.0, 1500.0, 2500.0];
    let layout = ChannelLayout::LAYOUT_5_1;
    let player = play_layout(sink.clone(), 48_000, layout, &tones, stop.clone());
    let (mut listener, WhepAnswer { id, .. }) = connect(&server, &sink, 48_000);
    let (left, right) = hear(&mut listener, 48_000);
    stop.store(true, Relaxed);
    player.join().unwrap();
    assert!(left.len() >= 48_000, "heard {} frames", left.len());
    let (l, r) = (&left[left.len() - 24_000..], &right[right.len() - 24_000..]);
    let [fl, fr, fc, lfe, bl, br] = tones;
    // What reaches a side at all is far above what must not (LFE, the other side's speakers).
    for (x, heard, absent) in [
        (l, [fl, fc, bl], [fr, br, lfe]),
        (r, [fr, fc, br], [fl, bl, lfe]),
    ] {
        let floor = absent.iter().map(|f| energy(x, *f)).fold(0.0, f64::max);
        for f in heard {
            assert!(energy(x, f) > 100.0 * floor, "{f} Hz vs {floor}");
        }
    }
    // The centre equally on both sides; a front speaker 3 dB above it (1 vs 0.7071).
    let ratio = energy(l, fc) / energy(r, fc);
    assert!((0.8..1.25).contains(&ratio), "centre L/R energy {ratio}");
    let front = energy(l, fl) / energy(l, fc);
    assert!((1.6..2.5).contains(&front), "front/centre energy {front}");
    assert!(server.close(&id));
}

#[test]
fn an_ice_restart_moves_the_listener_to_a_new_address_and_the_audio_follows() {
    let server = WhepServer::default();
    let sink = Arc::new(SinkCounters::default());
    let stop = Arc::new(AtomicBool::new(false));
    let player = play_tones(sink.clone(), 48_000, stop.clone());
    let (mut listener, answer) = connect(&server, &sink, 48_000);
    let before = hear(&mut listener, 24_000).0.len();
    assert!(before >= 24_000, "heard {before} frames before the restart");
    let old_address = listener.socket.local_addr().unwrap();
    let stats = |server: &WhepServer| server.sessions()[0].stats.clone();

    let frag = listener.restart_ice();
    // A restart with the ETag of another ICE session is refused and changes nothing.
    let stale = server.patch(&answer.id, &frag, Some("\"feedface\""));
    assert!(
        matches!(stale, Err(WhepPatchError::Stale { .. })),
        "{stale:?}"
    );
    let patched = server.patch(&answer.id, &frag, Some("*")).unwrap();
    let Patched::Restarted { fragment, etag } = patched else {
        panic!("not a restart: {patched:?}");
    };
    assert_ne!(etag, answer.etag);
    let (old_ufrag, _) = restart::ice_credentials(&answer.answer_sdp).unwrap();
    let (new_ufrag, _) = restart::ice_credentials(&fragment).unwrap();
    assert_ne!(old_ufrag, new_ufrag);
    let mid = answer
        .answer_sdp
        .lines()
        .find(|l| l.starts_with("a=mid:"))
        .unwrap();
    assert!(
        fragment.contains("a=candidate:") && fragment.contains(mid),
        "{fragment}"
    );
    listener.accept_restart(&fragment);
    let new_address = listener.socket.local_addr().unwrap();
    assert_ne!(new_address, old_address);

    // The same session's audio now arrives on the new socket, tones still apart.
    let (left, right) = hear(&mut listener, 48_000);
    // str0m reports the selected pair with its statistics, once a second.
    for _ in 0..10 {
        if stats(&server).remote == Some(new_address) {
            break;
        }
        hear(&mut listener, 12_000);
    }
    stop.store(true, Relaxed);
    player.join().unwrap();
    assert!(
        left.len() >= 48_000,
        "heard {} frames after the restart",
        left.len()
    );
    let (l, r) = (&left[left.len() - 24_000..], &right[right.len() - 24_000..]);
    assert!(energy(l, 1000.0) > 100.0 * energy(l, 440.0));
    assert!(energy(r, 440.0) > 100.0 * energy(r, 1000.0));
    let after = stats(&server);
    assert_eq!(after.remote, Some(new_address), "{after:?}");
    assert!(after.connected && after.ice_restarts == 1, "{after:?}");
    // A trickle PATCH with the old ETag is now stale; with the new one it is taken.
    let trickle = "a=candidate:9 1 udp 2130706431 127.0.0.1 50001 typ host\r\n";
    let old = format!("\"{}\"", answer.etag);
    assert!(matches!(
        server.patch(&answer.id, trickle, Some(&old)),
        Err(WhepPatchError::Stale { .. })
    ));
    let new = format!("\"{etag}\"");
    assert_eq!(
        server.patch(&answer.id, trickle, Some(&new)),
        Ok(Patched::Trickled(1))
    );
    assert!(server.close(&answer.id));
}
