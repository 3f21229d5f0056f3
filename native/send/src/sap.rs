//! SAP (RFC 2974) announcements of the RTP stream, with its SDP (RFC 4566) session description,
//! as ffmpeg's `sap` muxer and PulseAudio's module-rtp-send write them: pure functions from the
//! stream's facts to the bytes of an announcement or a deletion.
//!
//! ```text
//!  | V=1 |A=0|R|T|E=0|C=0| auth len 0 | msg id hash (16 bits) |
//!  | originating source (IPv4)                                 |
//!  | "application/sdp" NUL | SDP text                          |
//! ```

use std::net::Ipv4Addr;

/// The SAP port (RFC 2974 section 3).
pub const SAP_PORT: u16 = 9875;
/// Where announcements of a global-scope session go (RFC 2974 section 3: 224.2.127.254), as
/// ffmpeg sends them; Tributary's listener joins it by default.
pub const SAP_GROUP: Ipv4Addr = Ipv4Addr::new(224, 2, 127, 254);
/// The interval between announcements. RFC 2974 (section 3.1) sets one from the bandwidth
/// announcements may use, 300 s at least; ffmpeg and PulseAudio announce every 5 s, and
/// receivers time a session out after tens of seconds (Tributary: 30 s), so 5 s it is.
pub const INTERVAL_S: u64 = 5;

/// What the announcement says about the stream.
#[derive(Clone, Debug, PartialEq)]
pub struct Session {
    /// The sender's address (the `o=` line and the SAP header's source).
    pub origin: Ipv4Addr,
    /// `o=` session id: fixed for the session; `version` changes when the description does.
    pub id: u64,
    pub version: u64,
    /// `s=`: the name receivers show.
    pub name: String,
    /// Where the RTP goes (`c=`) and its port (`m=`).
    pub destination: Ipv4Addr,
    pub port: u16,
    pub payload_type: u8,
    /// `L16` or `L24`.
    pub encoding: &'static str,
    pub rate: u32,
    pub channels: u8,
    /// `a=ptime`, ms (fractional for 6 ms packets at 44.1 kHz).
    pub ptime_ms: f64,
}

/// The session description, lines ended with CRLF as RFC 4566 asks.
pub fn sdp(s: &Session) -> String {
    // Multicast destinations carry a TTL in c= (RFC 4566 5.7); unicast ones do not.
    let ttl = if s.destination.is_multicast() {
        "/32"
    } else {
        ""
    };
    let name: String = s
        .name
        .chars()
        .map(|c| if c.is_control() { ' ' } else { c })
        .collect();
    let ptime = format!("{:.2}", s.ptime_ms);
    let ptime = ptime.trim_end_matches('0').trim_end_matches('.');
    [
        "v=0".to_owned(),
        format!("o=- {} {} IN IP4 {}", s.id, s.version, s.origin),
        format!("s={name}"),
        format!("c=IN IP4 {}{ttl}", s.destination),
        "t=0 0".to_owned(),
        "a=tool:tributary-send".to_owned(),
        "a=recvonly".to_owned(),
        format!("m=audio {} RTP/AVP {}", s.port, s.payload_type),
        format!(
            "a=rtpmap:{} {}/{}/{}",
            s.payload_type, s.encoding, s.rate, s.channels
        ),
        format!("a=ptime:{ptime}"),
    ]
    .iter()
    .map(|l| format!("{l}\r\n"))
    .collect()
}

/// A 16-bit message id hash of the description (never 0: some receivers read 0 as none).
pub fn hash(sdp: &str) -> u16 {
    let mut h: u32 = 0x811c_9dc5;
    for b in sdp.bytes() {
        h ^= u32::from(b);
        h = h.wrapping_mul(0x0100_0193);
    }
    match ((h >> 16) ^ (h & 0xffff)) as u16 {
        0 => 1,
        x => x,
    }
}

/// An announcement (`delete` false) or a deletion of `sdp` from `origin`.
pub fn packet(origin: Ipv4Addr, sdp: &str, delete: bool) -> Vec<u8> {
    let mut p = Vec::with_capacity(8 + 16 + sdp.len());
    p.push(0x20 | if delete { 0x04 } else { 0 });
    p.push(0);
    p.extend_from_slice(&hash(sdp).to_be_bytes());
    p.extend_from_slice(&origin.octets());
    p.extend_from_slice(b"application/sdp\0");
    p.extend_from_slice(sdp.as_bytes());
    p
}

#[cfg(test)]
mod tests {
    use super::*;

    fn session() -> Session {
        Session {
            origin: Ipv4Addr::new(192, 168, 1, 44),
            id: 3_912_345_678,
            version: 1,
            name: "Living room\nPi".into(),
            destination: Ipv4Addr::new(192, 168, 1, 10),
            port: 40000,
            payload_type: 127,
            encoding: "L16",
            rate: 48_000,
            channels: 2,
            ptime_ms: 6.0,
        }
    }

    #[test]
    fn the_description_names_the_stream_as_receivers_read_it() {
        let text = sdp(&session());
        assert_eq!(
            text,
            "v=0\r\no=- 3912345678 1 IN IP4 192.168.1.44\r\ns=Living room Pi\r\n\
             c=IN IP4 192.168.1.10\r\nt=0 0\r\na=tool:tributary-send\r\na=recvonly\r\n\
             m=audio 40000 RTP/AVP 127\r\na=rtpmap:127 L16/48000/2\r\na=ptime:6\r\n"
        );
        let multicast = Session {
            destination: Ipv4Addr::new(239, 255, 77, 1),
            ptime_ms: 288.0 / 44.1,
            ..session()
        };
        let text = sdp(&multicast);
        assert!(text.contains("c=IN IP4 239.255.77.1/32\r\n"), "{text}");
        assert!(text.contains("a=ptime:6.53\r\n"), "{text}");
    }

    #[test]
    fn announcement_and_deletion_packets_carry_the_header_the_source_and_the_description() {
        let text = sdp(&session());
        let a = packet(session().origin, &text, false);
        assert_eq!(
            a[0], 0x20,
            "version 1, IPv4, announcement, not encrypted or compressed"
        );
        assert_eq!(a[1], 0, "no authentication data");
        assert_eq!(u16::from_be_bytes([a[2], a[3]]), hash(&text));
        assert_eq!(&a[4..8], &[192, 168, 1, 44]);
        assert_eq!(&a[8..24], b"application/sdp\0");
        assert_eq!(&a[24..], text.as_bytes());
        let d = packet(session().origin, &text, true);
        assert_eq!(d[0], 0x24, "the deletion flag (T)");
        assert_eq!(
            &d[1..],
            &a[1..],
            "the same hash and description as the announcement"
        );
        // A changed description is a new message: another hash (here, and almost always).
        let other = sdp(&Session {
            version: 2,
            ..session()
        });
        assert_ne!(hash(&other), hash(&text));
        assert_ne!(hash(""), 0);
    }
}
