//! `parseSdp(text)`: session descriptions (SAP announcements, `ffmpeg -f rtp`) for JavaScript.

use napi_derive::napi;
use tributary_dsp::SampleFormat;

use crate::convert::invalid;
use crate::engine_state::RtpEncoding;

/// One payload type of an SDP audio section that Tributary can play.
#[napi(object)]
pub struct SdpFormat {
    #[napi(js_name = "payload_type")]
    pub payload_type: u32,
    /// As a source's `rtp.format` takes it.
    pub format: RtpEncoding,
    #[napi(js_name = "sample_rate")]
    pub sample_rate: u32,
    pub channels: u32,
}

/// One `m=audio` section.
#[napi(object)]
pub struct SdpMedia {
    pub port: u32,
    /// Destination address (`c=`), possibly multicast; absent when the document has none.
    pub connection: Option<String>,
    /// Playable payload types in the order listed; empty when none is PCM Tributary plays.
    pub formats: Vec<SdpFormat>,
}

/// A session description as SAP announces it or `ffmpeg -f rtp` prints it.
#[napi(object)]
pub struct SdpSession {
    pub name: String,
    /// Originator address (`o=`); absent when unreadable.
    pub origin: Option<String>,
    pub media: Vec<SdpMedia>,
}

/// Parses an SDP document (for SAP discovery and RTP source setup). Throws with the line
/// number of the first line it cannot read.
#[napi]
pub fn parse_sdp(text: String) -> napi::Result<SdpSession> {
    let s = tributary_engine::wire::sdp::parse(&text).map_err(|e| invalid(e.to_string()))?;
    Ok(SdpSession {
        name: s.name,
        origin: s.origin.map(|a| a.to_string()),
        media: s
            .media
            .into_iter()
            .map(|m| SdpMedia {
                port: u32::from(m.port),
                connection: m.connection.map(|a| a.to_string()),
                formats: m
                    .formats
                    .into_iter()
                    .map(|(pt, f)| SdpFormat {
                        payload_type: u32::from(pt),
                        format: match f.encoding {
                            SampleFormat::S16Le => RtpEncoding::S16Le,
                            SampleFormat::S24Be => RtpEncoding::S24Be,
                            _ => RtpEncoding::S16Be,
                        },
                        sample_rate: f.sample_rate,
                        channels: u32::from(f.channels),
                    })
                    .collect(),
            })
            .collect(),
    })
}
