use super::*;
use crate::desired::SinkProtocol;
use crate::runtime::net::empty_datagram;
use crate::runtime::worker::Worker;
use crate::wire::scream::{ScreamFormat, HEADER_LEN, PAYLOAD_LEN};
use crate::wire::PortKind;
use proptest::prelude::*;
use std::net::{IpAddr, Ipv4Addr, SocketAddr, UdpSocket};
use std::time::Duration;
use tributary_dsp::{decode_into, Encoder, SampleFormat};

const SOURCE_RATE: u32 = 44_100;
const SENDER: IpAddr = IpAddr::V4(Ipv4Addr::new(127, 0, 0, 9));
/// Stereo frames per Scream packet of 16-bit audio.
const PACKET_FRAMES: usize = PAYLOAD_LEN / 4;

/// A path with resampling (44.1 -> 48 kHz), a channel map (stereo up-mixed to 5.1), a
/// non-flat EQ, a volume and a delay; the sink's Scream receiver listens on `port`.
fn path_and_sink(port: u16) -> (PathSpec, SinkSpec) {
    let path = PathSpec {
        ip: Some(SENDER),
        volume: 0.7,
        eq: std::array::from_fn(|b| [1.0, 1.5, 0.6, 1.2, 0.8, 1.0][b % 6]),
        delay_ms: 20.0,
        ..PathSpec::new("pc")
    };
    let sink = SinkSpec {
        ip: Some(IpAddr::V4(Ipv4Addr::LOCALHOST)),
        port,
        paths: vec![path.clone()],
        ..SinkSpec::new(
            "den",
            SinkProtocol::Scream,
            48_000,
            16,
            ChannelLayout::LAYOUT_5_1,
        )
    };
    (path, sink)
}

/// `frames` of a stereo test signal at about -12 dBFS (two tones per channel, different on
/// each side), as little-endian 16-bit PCM.
fn input(frames: usize) -> Vec<u8> {
    (0..frames)
        .flat_map(|n| {
            let t = n as f64 / f64::from(SOURCE_RATE);
            let tau = 2.0 * std::f64::consts::PI;
            let left = 0.15 * (tau * 440.0 * t).sin() + 0.1 * (tau * 3_100.0 * t).sin();
            let right = 0.15 * (tau * 97.0 * t).sin() + 0.1 * (tau * 9_000.0 * t).sin();
            [left, right]
                .map(|x| ((x * 32_767.0) as i16).to_le_bytes())
                .concat()
        })
        .collect()
}

fn samples(bytes: &[u8]) -> Vec<i16> {
    bytes
        .chunks_exact(2)
        .map(|b| i16::from_le_bytes([b[0], b[1]]))
        .collect()
}

/// The engine playing `pcm` as a Scream sender would send it, on a simulated clock: the
/// desired state planned and swapped into the engine thread's state, every datagram ingested at
/// its nominal arrival time, every sink ticked when due; what the sink sent, as 16-bit samples.
fn engine_output(pcm: &[u8]) -> Vec<i16> {
    let receiver = UdpSocket::bind((Ipv4Addr::LOCALHOST, 0)).unwrap();
    receiver
        .set_read_timeout(Some(Duration::from_millis(200)))
        .unwrap();
    let (_, sink) = path_and_sink(receiver.local_addr().unwrap().port());
    let mut worker = Worker::playing(vec![sink]);
    let header = ScreamFormat {
        sample_rate: SOURCE_RATE,
        bit_depth: 16,
        channels: 2,
        channel_mask: 0x3,
    }
    .header()
    .unwrap();
    let epoch = worker.epoch;
    let packets: Vec<&[u8]> = pcm.chunks(PAYLOAD_LEN).collect();
    let mut sent = 0;
    let mut out = Vec::new();
    let mut buf = [0u8; 2048];
    let end_s = packets.len() as f64 * PACKET_FRAMES as f64 / f64::from(SOURCE_RATE) + 0.1;
    let mut t = 0.0;
    while t < end_s {
        while sent < packets.len()
            && sent as f64 * PACKET_FRAMES as f64 / f64::from(SOURCE_RATE) <= t
        {
            let mut d = empty_datagram();
            let payload = packets[sent];
            d.data[..HEADER_LEN].copy_from_slice(&header);
            d.data[HEADER_LEN..HEADER_LEN + payload.len()].copy_from_slice(payload);
            d.len = HEADER_LEN + payload.len();
            (d.kind, d.port) = (PortKind::Scream, 4010);
            d.from = SocketAddr::new(SENDER, 5000);
            let arrival = sent as f64 * PACKET_FRAMES as f64 / f64::from(SOURCE_RATE);
            d.arrival = epoch + Duration::from_secs_f64(arrival);
            worker.ingest(&d);
            sent += 1;
        }
        worker.tick_due(epoch + Duration::from_secs_f64(t));
        receiver.set_nonblocking(true).unwrap();
        while let Ok(n) = receiver.recv(&mut buf) {
            out.extend_from_slice(&buf[HEADER_LEN..n]);
        }
        t += 0.000_25;
    }
    receiver.set_nonblocking(false).unwrap();
    while let Ok(n) = receiver.recv(&mut buf) {
        out.extend_from_slice(&buf[HEADER_LEN..n]);
    }
    samples(&out)
}

/// `tributary render` of `pcm` with the same settings, without dither (a sink never dithers).
fn render_output(pcm: &[u8]) -> Vec<i16> {
    let (path, sink) = path_and_sink(4010);
    let mut preview = Preview::new(&path, SOURCE_RATE, ChannelLayout::STEREO, &sink).unwrap();
    let frames = pcm.len() / 4;
    let mut input = vec![0.0; frames * 2];
    decode_into(SampleFormat::S16Le, pcm, &mut input);
    let mut out = AudioBuffer::new(6, preview.max_output_frames(frames));
    let n = preview.process_into(&input, &mut out).unwrap();
    let mut bytes = vec![0u8; n * 12];
    let written = Encoder::new(SampleFormat::S16Le, false)
        .encode_into(&out, &mut bytes)
        .unwrap();
    samples(&bytes[..written])
}

#[test]
fn a_render_is_sample_for_sample_what_the_engine_sends_for_the_same_path() {
    let pcm = input(PACKET_FRAMES * 100);
    let engine = engine_output(&pcm);
    let render = render_output(&pcm);
    let ch = 6;
    // The engine starts a stream after prebuffering (how long depends on the packets' timing)
    // and fades it in; the render starts at once. From the end of the fades (20 ms of delay,
    // 5 ms of fade-in, the filter's half length) the two are the same samples, as long as the
    // engine's reader converts at the nominal ratio: until its first drift correction, after
    // 100 ms of steady playing (a file has no clock to correct).
    let from = 20 * 48 + 5 * 48 + 200;
    let to = from + 2_500;
    assert!(
        render[from * ch..to * ch].iter().any(|&s| s.abs() > 4_000),
        "audio to compare"
    );
    let offset = (0..engine.len() / ch - to)
        .find(|&o| engine[(o + from) * ch..(o + to) * ch] == render[from * ch..to * ch])
        .unwrap_or_else(|| {
            panic!(
                "no stretch of {} frames of the render in the engine's output",
                to - from
            )
        });
    // How far the identical stretch reaches: to the engine's first drift correction, from
    // which it converts at a ratio nudged by what it measured (the stream then slides against
    // the render by fractions of a sample).
    let same = (from..render.len() / ch)
        .take_while(|&f| {
            let e = (offset + f) * ch;
            e + ch <= engine.len() && engine[e..e + ch] == render[f * ch..(f + 1) * ch]
        })
        .count();
    assert!(same >= to - from, "{same} frames identical");
    eprintln!("render == engine: {same} frames (x {ch} channels) identical from frame {from}");
}

const RATES: [u32; 5] = [44_100, 48_000, 88_200, 96_000, 192_000];
const LAYOUTS: [&str; 9] = [
    "mono",
    "stereo",
    "quad",
    "surround",
    "3.1",
    "4.0",
    "5.1",
    "5.1(side)",
    "7.1",
];

fn any_sample() -> impl Strategy<Value = f32> {
    prop_oneof![
        -2.0f32..2.0,
        Just(f32::NAN),
        Just(f32::INFINITY),
        Just(f32::NEG_INFINITY),
        Just(1e-40f32),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]

    /// Any rates, layouts and settings, any samples (NaN, infinities) in pieces of any size:
    /// the path never fails or panics, and writes no more than it says it may.
    #[test]
    fn a_path_takes_any_formats_settings_and_pieces(
        (source_rate, sink_rate) in (0..5usize, 0..5usize),
        (source_layout, sink_layout) in (0..9usize, 0..9usize),
        samples in proptest::collection::vec(any_sample(), 0..3000),
        pieces in proptest::collection::vec(0usize..700, 1..6),
        eq in proptest::array::uniform18(0.0f32..=2.0),
        volume in 0.0f32..=1.0,
        delay_ms in 0.0f64..50.0,
        normalize in any::<bool>(),
    ) {
        let source: ChannelLayout = LAYOUTS[source_layout].parse().unwrap();
        let layout: ChannelLayout = LAYOUTS[sink_layout].parse().unwrap();
        let path = PathSpec { volume, eq, delay_ms, ..PathSpec::new("pc") };
        let mut sink = SinkSpec::new("den", SinkProtocol::Scream, RATES[sink_rate], 16, layout);
        sink.normalize = normalize;
        let mut preview = Preview::new(&path, RATES[source_rate], source, &sink).unwrap();
        let channels = source.channels();
        let mut at = 0;
        for len in pieces.iter().cycle().take(50) {
            let len = (len * channels).min(samples.len() - at) / channels * channels;
            let piece = &samples[at..at + len];
            let capacity = preview.max_output_frames(len / channels);
            let mut out = AudioBuffer::new(layout.channels(), capacity);
            let n = preview.process_into(piece, &mut out).unwrap();
            prop_assert!(n <= out.capacity());
            prop_assert_eq!(out.frames(), n);
            at += len;
            if samples.len() - at < channels {
                break;
            }
        }
    }
}
