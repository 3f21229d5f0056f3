use super::*;
use tributary_engine::wire::{rtp, scream};

const START: RtpStart = RtpStart {
    ssrc: 0xdead_beef,
    sequence: 0xfffe,
    timestamp: 0xffff_ff00,
};

/// `count` packets of 16-bit PCM whose samples count up from 0, each parsed back by the
/// engine's own receive-side parser.
fn packets(p: &mut Packetiser, count: usize) -> Vec<Vec<u8>> {
    let mut buf = [0u8; MAX_DATAGRAM];
    let mut sample = 0u16;
    (0..count)
        .map(|_| {
            for pair in p.payload_mut(&mut buf).chunks_exact_mut(2) {
                pair.copy_from_slice(&sample.to_ne_bytes());
                sample = sample.wrapping_add(1);
            }
            let n = p.finish(&mut buf);
            buf[..n].to_vec()
        })
        .collect()
}

#[test]
fn rtp_l16_stereo_48k_is_payload_type_127_in_1152_byte_packets_numbered_on_from_the_start() {
    let mut p = Packetiser::new(Protocol::Rtp, 48_000, 2, START).unwrap();
    assert_eq!(p.sample_format(), SampleFormat::S16Be);
    assert_eq!((p.payload_len(), p.frames_per_packet()), (1152, 288));
    let sent = packets(&mut p, 4);
    for (k, bytes) in sent.iter().enumerate() {
        assert_eq!(bytes.len(), rtp::HEADER_LEN + 1152);
        let r = rtp::parse(bytes).expect("the engine parses it");
        assert_eq!(r.payload_type, 127);
        assert_eq!(r.marker, k == 0, "the marker is on the first packet only");
        assert_eq!(r.ssrc, 0xdead_beef);
        assert_eq!(
            r.sequence,
            0xfffe_u16.wrapping_add(k as u16),
            "wraps 0xffff to 0"
        );
        assert_eq!(r.timestamp, 0xffff_ff00_u32.wrapping_add(288 * k as u32));
        // The payload is the PCM the caller put there, untouched: sample k*576 first.
        let first = u16::from_ne_bytes([r.payload[0], r.payload[1]]);
        assert_eq!(usize::from(first), k * 576);
    }
}

#[test]
fn rtp_payload_types_are_the_engine_sinks_own_and_payloads_whole_frames() {
    let pt = |rate, channels| {
        Packetiser::new(Protocol::Rtp, rate, channels, START)
            .unwrap()
            .payload_type()
    };
    assert_eq!(pt(44_100, 2), 10);
    assert_eq!(pt(44_100, 1), 11);
    assert_eq!(pt(48_000, 1), 127);
    assert_eq!(pt(96_000, 2), 127);
    for channels in 1..=8u8 {
        let p = Packetiser::new(Protocol::Rtp, 48_000, channels, START).unwrap();
        let frame = 2 * usize::from(channels);
        assert!(p.payload_len() <= 1152 && p.payload_len() + frame > 1152);
        assert_eq!(
            p.payload_len() % frame,
            0,
            "{channels} channels: whole frames"
        );
    }
    // Five channels: 115 frames of 10 bytes.
    let five = Packetiser::new(Protocol::Rtp, 48_000, 5, START).unwrap();
    assert_eq!((five.payload_len(), five.frames_per_packet()), (1150, 115));
}

#[test]
fn scream_packets_carry_the_header_the_engine_parses_and_le_pcm() {
    let mut p = Packetiser::new(Protocol::Scream, 48_000, 2, START).unwrap();
    assert_eq!(p.sample_format(), SampleFormat::S16Le);
    let sent = packets(&mut p, 3);
    for bytes in &sent {
        assert_eq!(bytes.len(), scream::HEADER_LEN + 1152);
        assert_eq!(&bytes[..5], &[0x01, 16, 2, 0x03, 0x00]);
        let s = scream::parse(bytes).expect("the engine parses it");
        assert_eq!(
            (s.format.sample_rate, s.format.bit_depth, s.format.channels),
            (48_000, 16, 2)
        );
        assert_eq!(s.payload.len(), 1152);
    }
    let p = Packetiser::new(Protocol::Scream, 44_100, 1, START).unwrap();
    let mut buf = [0u8; MAX_DATAGRAM];
    let mut p = p;
    let n = p.finish(&mut buf);
    assert_eq!(n, 5 + 1152);
    let s = scream::parse(&buf[..n]).unwrap();
    assert_eq!(
        (
            s.format.sample_rate,
            s.format.channels,
            s.format.channel_mask
        ),
        (44_100, 1, 0x4)
    );
}

#[test]
fn formats_a_protocol_cannot_carry_are_refused_with_the_rule() {
    let err =
        |protocol, rate, channels| Packetiser::new(protocol, rate, channels, START).unwrap_err();
    assert_eq!(
        err(Protocol::Scream, 32_000, 2),
        "32000 Hz: Scream carries 44100 or 48000 Hz times 1 to 8"
    );
    assert_eq!(
        err(Protocol::Rtp, 4_000, 2),
        "4000 Hz: RTP carries 8000 to 384000 Hz"
    );
    assert_eq!(err(Protocol::Rtp, 48_000, 0), "0 channels: 1 to 8");
    assert_eq!(err(Protocol::Scream, 48_000, 9), "9 channels: 1 to 8");
    assert!(Packetiser::new(Protocol::Rtp, 32_000, 2, START).is_ok());
}

#[test]
fn random_starts_differ() {
    let (a, b) = (random_start(), random_start());
    assert_ne!(a, b, "two runs must not share an SSRC and start");
}
