//! Per-application Scream: one stream per program on a sending machine, each its own source.
//!
//! Wire format (version 1), all multi-byte fields in network order:
//!
//! | offset | size | field |
//! |---|---|---|
//! | 0 | 4 | magic `TRBT` |
//! | 4 | 1 | version, 1 |
//! | 5 | 1 | address family of the sender: 4 or 6 |
//! | 6 | 4 or 16 | sender IP address (the machine the program runs on) |
//! | then | 1 | program name length N, 1-64 |
//! | then | N | program name, UTF-8, no control characters (e.g. `firefox.exe`) |
//! | then | 5 | Scream header (see [`crate::scream`]) |
//! | then | 1-1152 | PCM payload, as in plain Scream |
//!
//! The source tag is `"{ip}/{program}"` (for example `192.168.1.20/firefox.exe` or
//! `fd00::7/spotify`); a source whose `tag` equals it receives that stream. The IP comes from
//! the packet, not the UDP source address, so a relay can forward streams for other machines.

use crate::wire::packet::DropReason;
use crate::wire::scream::{self, ScreamPacket};
use std::fmt::Write as _;
use std::net::{IpAddr, Ipv4Addr, Ipv6Addr};

/// The four bytes every tagged packet starts with.
pub const MAGIC: [u8; 4] = *b"TRBT";
/// The only version defined.
pub const VERSION: u8 = 1;
/// Longest program name.
pub const MAX_PROGRAM_LEN: usize = 64;

/// A tagged packet: the stream's identity and the Scream packet it carries.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TaggedPacket<'a> {
    pub sender: IpAddr,
    pub program: &'a str,
    pub scream: ScreamPacket<'a>,
}

impl TaggedPacket<'_> {
    /// Writes the tag (`ip/program`) into a reusable string (cleared first).
    pub fn write_tag(&self, out: &mut String) {
        out.clear();
        let _ = write!(out, "{}/{}", self.sender, self.program);
    }
}

/// Parses a tagged datagram.
pub fn parse(packet: &[u8]) -> Result<TaggedPacket<'_>, DropReason> {
    let head = packet.get(..6).ok_or(DropReason::Truncated)?;
    if head[..4] != MAGIC || head[4] != VERSION {
        return Err(DropReason::Malformed);
    }
    let (sender, rest) = match head[5] {
        4 => {
            let b: [u8; 4] = packet
                .get(6..10)
                .and_then(|b| b.try_into().ok())
                .ok_or(DropReason::Truncated)?;
            (IpAddr::V4(Ipv4Addr::from(b)), &packet[10..])
        }
        6 => {
            let b: [u8; 16] = packet
                .get(6..22)
                .and_then(|b| b.try_into().ok())
                .ok_or(DropReason::Truncated)?;
            (IpAddr::V6(Ipv6Addr::from(b)), &packet[22..])
        }
        _ => return Err(DropReason::Malformed),
    };
    let (&name_len, rest) = rest.split_first().ok_or(DropReason::Truncated)?;
    let name_len = usize::from(name_len);
    if name_len == 0 || name_len > MAX_PROGRAM_LEN {
        return Err(DropReason::Malformed);
    }
    let name = rest.get(..name_len).ok_or(DropReason::Truncated)?;
    let program = std::str::from_utf8(name).map_err(|_| DropReason::Malformed)?;
    if program.chars().any(char::is_control) {
        return Err(DropReason::Malformed);
    }
    let scream = scream::parse(&rest[name_len..])?;
    Ok(TaggedPacket {
        sender,
        program,
        scream,
    })
}

/// Writes a tagged datagram into `out`; returns its length, or `None` if the name is invalid,
/// the format has no Scream header, or `out` is too small.
pub fn build(
    sender: IpAddr,
    program: &str,
    format: &scream::ScreamFormat,
    payload: &[u8],
    out: &mut [u8],
) -> Option<usize> {
    if program.is_empty()
        || program.len() > MAX_PROGRAM_LEN
        || program.chars().any(char::is_control)
    {
        return None;
    }
    let mut n = 0;
    let mut put = |bytes: &[u8]| -> Option<()> {
        out.get_mut(n..n + bytes.len())?.copy_from_slice(bytes);
        n += bytes.len();
        Some(())
    };
    put(&MAGIC)?;
    match sender {
        IpAddr::V4(a) => {
            put(&[VERSION, 4])?;
            put(&a.octets())?;
        }
        IpAddr::V6(a) => {
            put(&[VERSION, 6])?;
            put(&a.octets())?;
        }
    }
    put(&[program.len() as u8])?;
    put(program.as_bytes())?;
    put(&format.header()?)?;
    put(payload)?;
    Some(n)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::wire::scream::ScreamFormat;
    use proptest::prelude::*;

    const F: ScreamFormat = ScreamFormat {
        sample_rate: 48_000,
        bit_depth: 16,
        channels: 2,
        channel_mask: 3,
    };

    #[test]
    fn round_trips_v4_and_v6_and_forms_the_tag() {
        let mut buf = [0u8; 1400];
        let payload = [7u8; 1152];
        let mut tag = String::new();
        for (ip, expect) in [
            ("192.168.1.20".parse().unwrap(), "192.168.1.20/firefox.exe"),
            ("fd00::7".parse().unwrap(), "fd00::7/firefox.exe"),
        ] {
            let n = build(ip, "firefox.exe", &F, &payload, &mut buf).unwrap();
            let p = parse(&buf[..n]).unwrap();
            assert_eq!(p.sender, ip);
            assert_eq!(p.program, "firefox.exe");
            assert_eq!(p.scream.format, F);
            assert_eq!(p.scream.payload.len(), 1152);
            p.write_tag(&mut tag);
            assert_eq!(tag, expect);
        }
    }

    #[test]
    fn rejects_bad_magic_family_names_and_truncation() {
        let mut buf = [0u8; 1400];
        let n = build("10.0.0.1".parse().unwrap(), "a", &F, &[0; 8], &mut buf).unwrap();
        let good = buf[..n].to_vec();
        let mut bad = good.clone();
        bad[0] = b'X';
        assert_eq!(parse(&bad), Err(DropReason::Malformed));
        let mut bad = good.clone();
        bad[5] = 5;
        assert_eq!(parse(&bad), Err(DropReason::Malformed));
        let mut bad = good.clone();
        bad[10] = 0;
        assert_eq!(parse(&bad), Err(DropReason::Malformed));
        let mut bad = good.clone();
        bad[11] = 0x07;
        assert_eq!(parse(&bad), Err(DropReason::Malformed));
        for cut in 0..=good.len() - 8 {
            assert!(parse(&good[..cut]).is_err(), "cut at {cut}");
        }
        assert_eq!(
            build("10.0.0.1".parse().unwrap(), "", &F, &[0; 8], &mut buf),
            None
        );
        assert_eq!(
            build("10.0.0.1".parse().unwrap(), "a\n", &F, &[0; 8], &mut buf),
            None
        );
        assert_eq!(
            build("10.0.0.1".parse().unwrap(), "a", &F, &[0; 8], &mut buf[..9]),
            None
        );
    }

    proptest! {
        #[test]
        fn no_input_panics(bytes in proptest::collection::vec(any::<u8>(), 0..1400)) {
            let _ = parse(&bytes);
        }

        #[test]
        fn prefixed_garbage_never_panics(
            name in "[a-z.]{1,64}",
            tail in proptest::collection::vec(any::<u8>(), 0..1300),
        ) {
            let mut p = b"TRBT\x01\x04\x7f\x00\x00\x01".to_vec();
            p.push(name.len() as u8);
            p.extend_from_slice(name.as_bytes());
            p.extend_from_slice(&tail);
            if let Ok(t) = parse(&p) {
                prop_assert_eq!(t.program, name.as_str());
            }
        }
    }
}
