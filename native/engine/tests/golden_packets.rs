//! The golden packets in `testdata/packets/` (shared with the ESP32-S3 firmware's C tests):
//! real ffmpeg and GStreamer datagrams and Scream packets, each parsed as `expected.tsv` says
//! (the SAP rows are the daemon's).

use std::collections::HashMap;
use std::path::PathBuf;
use tributary_engine::wire::packet::DropReason;
use tributary_engine::wire::{rtp, scream};

fn folder() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../testdata/packets")
}

fn verdict(result: Result<(), DropReason>) -> &'static str {
    result.map_or_else(DropReason::as_str, |()| "ok")
}

fn samples(payload: &[u8], big_endian: bool) -> Vec<i16> {
    let at = |i: usize| {
        let b = [payload[2 * i], payload[2 * i + 1]];
        if big_endian {
            i16::from_be_bytes(b)
        } else {
            i16::from_le_bytes(b)
        }
    };
    let n = payload.len() / 2;
    vec![at(0), at(1), at(2), at(3), at(n - 2), at(n - 1)]
}

fn listed(fields: &HashMap<&str, &str>) -> Vec<i16> {
    let mut v: Vec<i16> = fields["samples"]
        .split(',')
        .map(|s| s.parse().unwrap())
        .collect();
    v.extend(fields["last"].split(',').map(|s| s.parse::<i16>().unwrap()));
    v
}

#[test]
fn every_golden_packet_parses_as_the_table_says() {
    let table = std::fs::read_to_string(folder().join("expected.tsv")).unwrap();
    let mut checked = 0;
    for line in table
        .lines()
        .filter(|l| !l.starts_with('#') && !l.is_empty())
    {
        let cols: Vec<&str> = line.split('\t').collect();
        let bytes = std::fs::read(folder().join(cols[0])).unwrap();
        let fields: HashMap<&str, &str> = cols
            .get(3)
            .map(|f| f.split(' ').filter_map(|kv| kv.split_once('=')).collect())
            .unwrap_or_default();
        let got = match cols[1] {
            "scream" => verdict(scream::parse(&bytes).map(|p| {
                let f = p.format;
                let want = |k: &str| fields[k].parse::<u32>().unwrap();
                assert_eq!(f.sample_rate, want("rate"), "{line}");
                assert_eq!(u32::from(f.bit_depth), want("depth"), "{line}");
                assert_eq!(u32::from(f.channels), want("channels"), "{line}");
                assert_eq!(u32::from(f.channel_mask), want("mask"), "{line}");
                assert_eq!(p.payload.len() as u32, want("payload"), "{line}");
                if fields.contains_key("samples") {
                    assert_eq!(samples(p.payload, false), listed(&fields), "{line}");
                }
            })),
            "rtp" => verdict(rtp::parse(&bytes).map(|p| {
                let want = |k: &str| fields[k].parse::<u64>().unwrap();
                assert_eq!(u64::from(p.payload_type), want("pt"), "{line}");
                assert_eq!(u64::from(p.marker), want("marker"), "{line}");
                assert_eq!(u64::from(p.sequence), want("seq"), "{line}");
                assert_eq!(u64::from(p.timestamp), want("timestamp"), "{line}");
                assert_eq!(u64::from(p.ssrc), want("ssrc"), "{line}");
                assert_eq!(p.payload.len() as u64, want("payload"), "{line}");
                assert_eq!(samples(p.payload, true), listed(&fields), "{line}");
            })),
            // SAP and the SDP inside are the daemon's to read: its own test reads these rows
            // (daemon/test/discovery/golden-sap.test.ts).
            "sap" => continue,
            other => panic!("unknown kind {other} in {line}"),
        };
        assert_eq!(got, cols[2], "{}", cols[0]);
        checked += 1;
    }
    assert!(checked >= 12, "only {checked} golden packets listed");
}
