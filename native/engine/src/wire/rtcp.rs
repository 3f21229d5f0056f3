//! RTCP (RFC 3550 section 6): compound packets of SR (200), RR (201), SDES (202), BYE (203) and
//! APP (204). The engine reads sender reports to map RTP timestamps to the sender's wall clock
//! and sends its own SR every 5 s for each RTP sink.

use crate::wire::packet::DropReason;

/// One report block (24 bytes) of an SR or RR.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ReportBlock {
    pub ssrc: u32,
    pub fraction_lost: u8,
    /// Cumulative packets lost (24-bit signed).
    pub cumulative_lost: i32,
    pub highest_sequence: u32,
    pub jitter: u32,
    pub last_sr: u32,
    pub delay_since_last_sr: u32,
}

/// The sender information of an SR.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SenderInfo {
    pub ntp_timestamp: u64,
    pub rtp_timestamp: u32,
    pub packet_count: u32,
    pub octet_count: u32,
}

/// One packet of a compound RTCP datagram, borrowing its variable parts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RtcpPacket<'a> {
    SenderReport {
        ssrc: u32,
        info: SenderInfo,
        reports: Reports<'a>,
    },
    ReceiverReport {
        ssrc: u32,
        reports: Reports<'a>,
    },
    /// Source description: `count` chunks of (SSRC, items); [`sdes_cname`] reads the CNAME.
    SourceDescription {
        count: u8,
        chunks: &'a [u8],
    },
    Goodbye {
        ssrcs: &'a [u8],
        reason: Option<&'a [u8]>,
    },
    App {
        subtype: u8,
        ssrc: u32,
        name: [u8; 4],
        data: &'a [u8],
    },
}

/// The report blocks of an SR or RR, read lazily.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Reports<'a>(&'a [u8]);

impl Reports<'_> {
    pub fn len(&self) -> usize {
        self.0.len() / 24
    }

    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    pub fn iter(&self) -> impl Iterator<Item = ReportBlock> + '_ {
        self.0.chunks_exact(24).map(|b| ReportBlock {
            ssrc: be32(&b[0..4]),
            fraction_lost: b[4],
            cumulative_lost: (i32::from_be_bytes([b[5], b[6], b[7], 0])) >> 8,
            highest_sequence: be32(&b[8..12]),
            jitter: be32(&b[12..16]),
            last_sr: be32(&b[16..20]),
            delay_since_last_sr: be32(&b[20..24]),
        })
    }
}

fn be32(b: &[u8]) -> u32 {
    u32::from_be_bytes([b[0], b[1], b[2], b[3]])
}

/// Iterates over the packets of a compound datagram. A malformed packet ends the iteration with
/// one `Err`; packet types outside 200-204 are skipped as RFC 3550 asks.
pub fn parse(datagram: &[u8]) -> impl Iterator<Item = Result<RtcpPacket<'_>, DropReason>> {
    let mut rest = datagram;
    let mut failed = datagram.len() < 4;
    std::iter::from_fn(move || loop {
        if failed {
            failed = false;
            rest = &[];
            return Some(Err(DropReason::Truncated));
        }
        if rest.is_empty() {
            return None;
        }
        match split_one(rest) {
            Ok((packet_type @ 200..=204, count, body, tail)) => {
                rest = tail;
                let packet = read_packet(packet_type, count, body);
                if packet.is_err() {
                    rest = &[];
                }
                return Some(packet);
            }
            Ok((_, _, _, tail)) => rest = tail,
            Err(e) => {
                rest = &[];
                return Some(Err(e));
            }
        }
    })
}

/// One packet split off a compound: (type, count field, body after the 4-byte header, rest).
type Split<'a> = (u8, u8, &'a [u8], &'a [u8]);

fn split_one(buf: &[u8]) -> Result<Split<'_>, DropReason> {
    let h = buf.get(..4).ok_or(DropReason::Truncated)?;
    if h[0] >> 6 != 2 {
        return Err(DropReason::Malformed);
    }
    let len = (usize::from(u16::from_be_bytes([h[2], h[3]])) + 1) * 4;
    let packet = buf.get(..len).ok_or(DropReason::Truncated)?;
    let mut body = &packet[4..];
    if h[0] & 0x20 != 0 {
        let pad = usize::from(*body.last().ok_or(DropReason::Malformed)?);
        if pad == 0 || pad > body.len() {
            return Err(DropReason::Malformed);
        }
        body = &body[..body.len() - pad];
    }
    Ok((h[1], h[0] & 0x1f, body, &buf[len..]))
}

fn read_packet(packet_type: u8, count: u8, body: &[u8]) -> Result<RtcpPacket<'_>, DropReason> {
    let n = usize::from(count);
    match packet_type {
        200 => {
            let b = body.get(..24).ok_or(DropReason::Truncated)?;
            let reports = body.get(24..24 + 24 * n).ok_or(DropReason::Truncated)?;
            Ok(RtcpPacket::SenderReport {
                ssrc: be32(&b[0..4]),
                info: SenderInfo {
                    ntp_timestamp: (u64::from(be32(&b[4..8])) << 32) | u64::from(be32(&b[8..12])),
                    rtp_timestamp: be32(&b[12..16]),
                    packet_count: be32(&b[16..20]),
                    octet_count: be32(&b[20..24]),
                },
                reports: Reports(reports),
            })
        }
        201 => {
            let b = body.get(..4).ok_or(DropReason::Truncated)?;
            let reports = body.get(4..4 + 24 * n).ok_or(DropReason::Truncated)?;
            Ok(RtcpPacket::ReceiverReport {
                ssrc: be32(b),
                reports: Reports(reports),
            })
        }
        202 => Ok(RtcpPacket::SourceDescription {
            count,
            chunks: body,
        }),
        203 => {
            let ssrcs = body.get(..4 * n).ok_or(DropReason::Truncated)?;
            let reason = match body.get(4 * n) {
                Some(&len) => {
                    let start = 4 * n + 1;
                    Some(
                        body.get(start..start + usize::from(len))
                            .ok_or(DropReason::Truncated)?,
                    )
                }
                None => None,
            };
            Ok(RtcpPacket::Goodbye { ssrcs, reason })
        }
        _ => {
            let b = body.get(..8).ok_or(DropReason::Truncated)?;
            Ok(RtcpPacket::App {
                subtype: count,
                ssrc: be32(&b[0..4]),
                name: [b[4], b[5], b[6], b[7]],
                data: &body[8..],
            })
        }
    }
}

/// The CNAME (item type 1) of the first SDES chunk, if present and well formed.
pub fn sdes_cname(chunks: &[u8]) -> Option<&[u8]> {
    let mut items = chunks.get(4..)?;
    loop {
        let (&kind, rest) = items.split_first()?;
        if kind == 0 {
            return None;
        }
        let (&len, rest) = rest.split_first()?;
        let value = rest.get(..usize::from(len))?;
        if kind == 1 {
            return Some(value);
        }
        items = &rest[usize::from(len)..];
    }
}

/// Writes a sender report with no report blocks followed by an SDES CNAME into `out`; returns
/// the datagram length, or `None` if `out` is too small or the CNAME longer than 255 bytes.
pub fn build_sender_report(
    ssrc: u32,
    info: &SenderInfo,
    cname: &[u8],
    out: &mut [u8],
) -> Option<usize> {
    let sdes_len = (4 + 2 + cname.len() + 1).div_ceil(4) * 4;
    let total = 28 + 4 + sdes_len;
    if cname.len() > 255 || out.len() < total {
        return None;
    }
    let out = &mut out[..total];
    out.fill(0);
    out[0] = 0x80;
    out[1] = 200;
    out[2..4].copy_from_slice(&6u16.to_be_bytes());
    out[4..8].copy_from_slice(&ssrc.to_be_bytes());
    out[8..16].copy_from_slice(&info.ntp_timestamp.to_be_bytes());
    out[16..20].copy_from_slice(&info.rtp_timestamp.to_be_bytes());
    out[20..24].copy_from_slice(&info.packet_count.to_be_bytes());
    out[24..28].copy_from_slice(&info.octet_count.to_be_bytes());
    let s = &mut out[28..];
    s[0] = 0x81;
    s[1] = 202;
    s[2..4].copy_from_slice(&((sdes_len / 4) as u16).to_be_bytes());
    s[4..8].copy_from_slice(&ssrc.to_be_bytes());
    s[8] = 1;
    s[9] = cname.len() as u8;
    s[10..10 + cname.len()].copy_from_slice(cname);
    Some(total)
}

/// Converts a duration since the Unix epoch into a 64-bit NTP timestamp.
pub fn ntp_timestamp(since_unix: std::time::Duration) -> u64 {
    const UNIX_TO_NTP: u64 = 2_208_988_800;
    let secs = since_unix.as_secs() + UNIX_TO_NTP;
    let frac = (u64::from(since_unix.subsec_nanos()) << 32) / 1_000_000_000;
    (secs << 32) | frac
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn sender_report_round_trips_with_cname() {
        let info = SenderInfo {
            ntp_timestamp: ntp_timestamp(std::time::Duration::from_millis(1_700_000_000_500)),
            rtp_timestamp: 123_456,
            packet_count: 10,
            octet_count: 11_520,
        };
        let mut buf = [0u8; 128];
        let n = build_sender_report(0xabcd, &info, b"tributary@host", &mut buf).unwrap();
        assert_eq!(n % 4, 0);
        let packets: Vec<_> = parse(&buf[..n]).collect();
        assert_eq!(packets.len(), 2);
        match packets[0] {
            Ok(RtcpPacket::SenderReport {
                ssrc,
                info: i,
                reports,
            }) => {
                assert_eq!(ssrc, 0xabcd);
                assert_eq!(i, info);
                assert!(reports.is_empty());
            }
            ref other => panic!("{other:?}"),
        }
        match packets[1] {
            Ok(RtcpPacket::SourceDescription { count: 1, chunks }) => {
                assert_eq!(sdes_cname(chunks), Some(&b"tributary@host"[..]));
            }
            ref other => panic!("{other:?}"),
        }
        assert_eq!(info.ntp_timestamp >> 32, 1_700_000_000 + 2_208_988_800);
    }

    #[test]
    fn reads_rr_report_blocks_bye_and_app() {
        let mut rr = vec![0x81, 201, 0, 7, 0, 0, 0, 1];
        rr.extend_from_slice(&[0, 0, 0, 9, 64, 0xff, 0xff, 0xfe, 0, 1, 0, 5]);
        rr.extend_from_slice(&[0, 0, 0, 3, 0, 0, 0, 4, 0, 0, 0, 5]);
        let mut bye = vec![0x81, 203, 0, 2, 0, 0, 0, 9, 2, b'o', b'k', 0];
        let app = [
            0x83, 204, 0, 3, 0, 0, 0, 9, b'T', b'R', b'B', b'T', 1, 2, 3, 4,
        ];
        rr.append(&mut bye);
        rr.extend_from_slice(&app);
        let packets: Vec<_> = parse(&rr).map(Result::unwrap).collect();
        let RtcpPacket::ReceiverReport { ssrc: 1, reports } = packets[0] else {
            panic!()
        };
        let block = reports.iter().next().unwrap();
        assert_eq!(
            (block.ssrc, block.fraction_lost, block.cumulative_lost),
            (9, 64, -2)
        );
        assert_eq!((block.highest_sequence, block.jitter), (0x10005, 3));
        assert_eq!(
            packets[1],
            RtcpPacket::Goodbye {
                ssrcs: &[0, 0, 0, 9],
                reason: Some(&b"ok"[..])
            }
        );
        assert_eq!(
            packets[2],
            RtcpPacket::App {
                subtype: 3,
                ssrc: 9,
                name: *b"TRBT",
                data: &[1, 2, 3, 4]
            }
        );
    }

    #[test]
    fn malformed_compounds_end_with_an_error() {
        assert_eq!(
            parse(&[0x80, 200]).collect::<Vec<_>>(),
            [Err(DropReason::Truncated)]
        );
        assert_eq!(
            parse(&[0x40, 200, 0, 0]).collect::<Vec<_>>(),
            [Err(DropReason::Malformed)]
        );
        assert_eq!(
            parse(&[0x80, 200, 0, 6, 0, 0]).collect::<Vec<_>>(),
            [Err(DropReason::Truncated)]
        );
        assert_eq!(
            parse(&[0x80, 200, 0, 0]).collect::<Vec<_>>(),
            [Err(DropReason::Truncated)]
        );
        // Unknown packet types are skipped.
        assert_eq!(parse(&[0x80, 210, 0, 0]).count(), 0);
    }

    proptest! {
        #[test]
        fn no_input_panics(bytes in proptest::collection::vec(any::<u8>(), 0..600)) {
            for p in parse(&bytes).take(200) {
                if let Ok(RtcpPacket::SourceDescription { chunks, .. }) = p {
                    let _ = sdes_cname(chunks);
                }
                if let Ok(RtcpPacket::SenderReport { reports, .. }) = p {
                    prop_assert!(reports.iter().count() <= 31);
                }
            }
        }
    }
}
