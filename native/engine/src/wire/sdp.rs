//! SDP (RFC 8866) reading for audio streams: what SAP announcements and `ffmpeg -f rtp` print.
//! Only what the engine needs: session name, origin and connection addresses, and per audio
//! media section its port and the PCM payload types with their format.

use crate::wire::rtp::RtpFormat;
use std::fmt;
use std::net::IpAddr;
use tributary_dsp::sample_format::SampleFormat;

/// A parsed session description.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SessionDescription {
    pub name: String,
    /// Unicast address of the originator (`o=` line).
    pub origin: Option<IpAddr>,
    pub media: Vec<MediaDescription>,
}

/// One `m=audio` section.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MediaDescription {
    pub port: u16,
    /// Destination (`c=`), from the media section or the session level; may be multicast.
    pub connection: Option<IpAddr>,
    /// Payload types with a PCM format Tributary plays, in the order listed on the `m=` line.
    pub formats: Vec<(u8, RtpFormat)>,
}

/// Why an SDP document could not be used.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SdpError {
    pub line: usize,
    pub message: String,
}

impl fmt::Display for SdpError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "SDP line {}: {}", self.line, self.message)
    }
}

impl std::error::Error for SdpError {}

/// Largest SDP document accepted (SAP packets are far smaller).
pub const MAX_LEN: usize = 64 * 1024;

/// Parses an SDP document. Unknown lines are ignored; audio sections whose payloads are not
/// PCM are kept with an empty `formats` list so callers can say why nothing plays.
pub fn parse(text: &str) -> Result<SessionDescription, SdpError> {
    let err = |line: usize, message: &str| SdpError {
        line,
        message: message.to_owned(),
    };
    if text.len() > MAX_LEN {
        return Err(err(0, "document larger than 64 KiB"));
    }
    let mut session = SessionDescription::default();
    let mut session_connection = None;
    let mut sections: Vec<Section> = Vec::new();
    let mut in_audio = false;
    let mut seen_version = false;
    for (i, raw) in text.lines().enumerate() {
        let n = i + 1;
        let line = raw.trim_end_matches('\r');
        if line.is_empty() {
            continue;
        }
        let Some((kind, value)) = line.split_once('=') else {
            return Err(err(n, "expected <type>=<value>"));
        };
        match kind {
            "v" => {
                if value != "0" {
                    return Err(err(n, "only SDP version 0 is supported"));
                }
                seen_version = true;
            }
            "s" => session.name = value.to_owned(),
            "o" => session.origin = value.split(' ').nth(5).and_then(parse_address),
            "c" => {
                let addr = value.split(' ').nth(2).and_then(parse_address);
                if addr.is_none() {
                    return Err(err(n, "connection line needs 'IN IP4|IP6 <address>'"));
                }
                match sections.last_mut() {
                    Some(section) if in_audio => section.1 = addr,
                    Some(_) => {}
                    None => session_connection = addr,
                }
            }
            "m" => {
                let mut parts = value.split(' ');
                in_audio = parts.next() == Some("audio");
                if !in_audio {
                    continue;
                }
                let port = parts
                    .next()
                    .and_then(|p| p.split('/').next())
                    .and_then(|p| p.parse::<u16>().ok())
                    .ok_or_else(|| err(n, "media line needs a port number"))?;
                let _proto = parts.next();
                let pts = parts
                    .filter_map(|p| p.parse::<u8>().ok())
                    .filter(|p| *p < 128)
                    .collect();
                sections.push((port, None, pts, Vec::new()));
            }
            "a" if in_audio => {
                if let Some(map) = value.strip_prefix("rtpmap:") {
                    if let (Some(entry), Some(section)) = (parse_rtpmap(map), sections.last_mut()) {
                        section.3.push(entry);
                    }
                }
            }
            _ => {}
        }
    }
    if !seen_version {
        return Err(err(1, "missing v=0 line"));
    }
    session.media = sections
        .into_iter()
        .map(|(port, connection, pts, maps)| MediaDescription {
            port,
            connection: connection.or(session_connection),
            formats: pts
                .into_iter()
                .filter_map(|pt| {
                    maps.iter()
                        .find(|(p, _)| *p == pt)
                        .map(|(_, f)| (pt, *f))
                        .or_else(|| RtpFormat::from_static_payload_type(pt).map(|f| (pt, f)))
                })
                .collect(),
        })
        .collect();
    Ok(session)
}

/// An audio section while reading: port, connection, payload types, rtpmap entries.
type Section = (u16, Option<IpAddr>, Vec<u8>, Vec<(u8, RtpFormat)>);

fn parse_address(s: &str) -> Option<IpAddr> {
    // Multicast connection addresses carry /ttl[/count].
    s.split('/').next()?.parse().ok()
}

/// `96 L16/48000/2` -> (96, L16 48 kHz stereo). Channels default to 1 (RFC 4566).
fn parse_rtpmap(map: &str) -> Option<(u8, RtpFormat)> {
    let (pt, rest) = map.split_once(' ')?;
    let pt: u8 = pt.trim().parse().ok()?;
    let mut fields = rest.trim().split('/');
    let encoding = match fields.next()?.to_ascii_uppercase().as_str() {
        "L16" | "S16BE" => SampleFormat::S16Be,
        "S16LE" => SampleFormat::S16Le,
        "L24" | "S24BE" => SampleFormat::S24Be,
        _ => return None,
    };
    let rate: u32 = fields.next()?.parse().ok()?;
    let channels: u8 = match fields.next() {
        Some(c) => c.parse().ok()?,
        None => 1,
    };
    Some((pt, RtpFormat::new(encoding, rate, channels)?))
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn reads_what_ffmpeg_prints() {
        let sdp = "v=0\r\no=- 0 0 IN IP4 127.0.0.1\r\ns=No Name\r\nc=IN IP4 127.0.0.1\r\n\
                   t=0 0\r\na=tool:libavformat 60.16.100\r\nm=audio 40000 RTP/AVP 96\r\n\
                   b=AS:1536\r\na=rtpmap:96 L16/48000/2\r\n";
        let s = parse(sdp).unwrap();
        assert_eq!(s.name, "No Name");
        assert_eq!(s.origin, Some("127.0.0.1".parse().unwrap()));
        assert_eq!(s.media.len(), 1);
        let m = &s.media[0];
        assert_eq!(m.port, 40000);
        assert_eq!(m.connection, Some("127.0.0.1".parse().unwrap()));
        assert_eq!(m.formats, vec![(96, RtpFormat::DEFAULT)]);
    }

    #[test]
    fn reads_multicast_l24_static_types_and_skips_video() {
        let sdp = "v=0\no=u 1 1 IN IP4 10.0.0.5\ns=Studio\nm=video 5000 RTP/AVP 97\n\
                   c=IN IP4 239.1.1.1/32\na=rtpmap:97 H264/90000\n\
                   m=audio 5004 RTP/AVP 98 10 0\nc=IN IP4 239.1.1.2/32\n\
                   a=rtpmap:98 L24/96000/6\n";
        let s = parse(sdp).unwrap();
        assert_eq!(s.media.len(), 1);
        let m = &s.media[0];
        assert_eq!(m.connection, Some("239.1.1.2".parse().unwrap()));
        assert_eq!(m.formats.len(), 2, "PCMU (0) is not PCM we play");
        assert_eq!(m.formats[0].1.encoding, SampleFormat::S24Be);
        assert_eq!(
            (m.formats[0].1.sample_rate, m.formats[0].1.channels),
            (96_000, 6)
        );
        assert_eq!(
            m.formats[1],
            (10, RtpFormat::from_static_payload_type(10).unwrap())
        );
    }

    #[test]
    fn errors_name_the_line() {
        assert_eq!(parse("v=1\n").unwrap_err().line, 1);
        let e = parse("v=0\nm=audio x RTP/AVP 96\n").unwrap_err();
        assert_eq!(e.line, 2);
        assert!(e.to_string().contains("port"));
        assert!(parse("s=x\n").is_err());
        assert!(parse("v=0\ngarbage\n").is_err());
    }

    proptest! {
        #[test]
        fn no_input_panics(text in "(v=0\n)?([a-z]=[ -~]{0,40}\n){0,12}") {
            let _ = parse(&text);
        }

        #[test]
        fn rtpmap_lines_never_panic(map in "[0-9]{1,4} [A-Za-z0-9]{1,6}(/[0-9]{0,7}){0,3}") {
            let doc = format!("v=0\nm=audio 1 RTP/AVP 96\na=rtpmap:{map}\n");
            let _ = parse(&doc);
        }
    }
}
