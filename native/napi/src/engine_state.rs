//! The desired state from JavaScript: the control plane's solver output *is* this type
//! (`engine.apply(solve(config))`), so its objects use the API's snake_case names and every
//! enumerated field is a union of string literals in `index.d.ts` (the string enums below).
//! Converted here into the engine's `DesiredState`, with an error naming the field for anything
//! the types let through at run time; fields only the control plane uses (`route`, `via`) are
//! ignored.

use std::net::IpAddr;

use napi::bindgen_prelude::{Either, Null};
use napi_derive::napi;
use tributary_dsp::{ChannelLayout, SampleFormat};
use tributary_engine::limits::{DEFAULT_SINK_PORT, EQ_BANDS, MAX_DELAY_MS, PAYLOAD_TYPE_MAX};
use tributary_engine::wire::rtp::RtpFormat;
use tributary_engine::{DesiredState, PathSpec, RtpSourceSpec, SinkProtocol as Protocol, SinkSpec};

use crate::convert::invalid;

/// A field that may be null (the solver's output uses null for "none"); absent means the same.
pub(crate) fn value<T>(field: Option<Either<T, Null>>) -> Option<T> {
    match field {
        Some(Either::A(v)) => Some(v),
        _ => None,
    }
}

pub(crate) fn port(field: &str, p: u32) -> napi::Result<u16> {
    u16::try_from(p).map_err(|_| invalid(format!("{field}: {p} is not a port (0-65535)")))
}

pub(crate) fn ip(field: &str, text: &str) -> napi::Result<IpAddr> {
    text.parse()
        .map_err(|_| invalid(format!("{field}: '{text}' is not an IP address")))
}

/// How a sink receives audio.
#[napi(string_enum = "lowercase")]
#[derive(Clone, Copy)]
pub enum SinkProtocol {
    Scream,
    Rtp,
    Tcp,
}

impl SinkProtocol {
    pub const ALL: [SinkProtocol; 3] = [Self::Scream, Self::Rtp, Self::Tcp];
}

/// A named channel layout (the engine's speaker masks).
#[napi(string_enum)]
#[derive(Clone, Copy)]
pub enum ChannelLayoutName {
    #[napi(value = "mono")]
    Mono,
    #[napi(value = "stereo")]
    Stereo,
    #[napi(value = "quad")]
    Quad,
    #[napi(value = "surround")]
    Surround,
    #[napi(value = "3.1")]
    Layout3_1,
    #[napi(value = "4.0")]
    Layout4_0,
    #[napi(value = "5.1")]
    Layout5_1,
    #[napi(value = "5.1(side)")]
    Layout5_1Side,
    #[napi(value = "7.1")]
    Layout7_1,
}

impl ChannelLayoutName {
    pub const ALL: [ChannelLayoutName; 9] = [
        Self::Mono,
        Self::Stereo,
        Self::Quad,
        Self::Surround,
        Self::Layout3_1,
        Self::Layout4_0,
        Self::Layout5_1,
        Self::Layout5_1Side,
        Self::Layout7_1,
    ];
}

/// An RTP source's payload encoding: big-endian 16-bit (`S16BE`, or its RTP name `L16`),
/// little-endian 16-bit (`S16LE`), big-endian 24-bit (`S24BE`, or `L24`).
#[napi(string_enum = "UPPERCASE")]
#[derive(Clone, Copy)]
pub enum RtpEncoding {
    S16Be,
    L16,
    S16Le,
    L24,
    S24Be,
}

impl RtpEncoding {
    pub const ALL: [RtpEncoding; 5] = [Self::S16Be, Self::L16, Self::S16Le, Self::L24, Self::S24Be];
}

/// What kind of level a path passes through.
#[napi(string_enum)]
pub enum PathStepKind {
    #[napi(value = "source")]
    Source,
    #[napi(value = "source group")]
    SourceGroup,
    #[napi(value = "route")]
    Route,
    #[napi(value = "sink group")]
    SinkGroup,
    #[napi(value = "sink")]
    Sink,
}

/// One level a path passes through, from the real source to the real sink.
#[napi(object)]
pub struct EnginePathStep {
    #[napi(ts_type = "PathStepKind")]
    pub kind: String,
    pub name: String,
    #[napi(js_name = "config_id")]
    pub config_id: String,
}

/// RTP reception settings of a source (the config's `rtp` object).
#[napi(object)]
pub struct EngineRtpSource {
    /// Local or multicast address to listen on; null listens on all.
    #[napi(js_name = "listen_ip")]
    pub listen_ip: Option<Either<String, Null>>,
    /// UDP port of the stream (RTCP on port + 1).
    pub port: u32,
    #[napi(ts_type = "RtpEncoding")]
    pub format: String,
    #[napi(js_name = "sample_rate")]
    pub sample_rate: u32,
    pub channels: u32,
    /// Payload type to accept; null accepts any.
    #[napi(js_name = "payload_type")]
    pub payload_type: Option<Either<u32, Null>>,
}

/// One real source reaching one real sink, with the effective settings of every level on the
/// way (source -> source groups -> route -> sink groups -> sink) already combined: volumes and
/// equalizer gains multiplied, delays added, each level applied once.
#[napi(object)]
pub struct EnginePath {
    /// The real (non-group) source's name (for stats).
    pub source: String,
    /// Stable source identity.
    #[napi(js_name = "source_config_id")]
    pub source_config_id: String,
    /// Sender address incoming streams are matched by (with `tag`); null when unknown.
    pub ip: Option<Either<String, Null>>,
    /// Stream tag incoming streams are matched by (per-application Scream: `ip/program`).
    pub tag: Option<Either<String, Null>>,
    /// RTP reception settings; null for Scream sources.
    pub rtp: Option<Either<EngineRtpSource, Null>>,
    /// The route this path was chosen through (the engine does not use it).
    pub route: Option<String>,
    #[napi(js_name = "route_config_id")]
    pub route_config_id: Option<String>,
    /// Every level of the path in processing order (the engine does not use it).
    pub via: Option<Vec<EnginePathStep>>,
    /// Effective linear gain, 0.0 to 1.0.
    pub volume: f64,
    /// Effective linear gain of bands b1..b18 (index 0 = b1), each 0.0 to 2.0 (1.0 flat).
    pub eq: Vec<f64>,
    /// Effective delay in milliseconds (the engine plays up to 300000, its timeshift).
    #[napi(js_name = "delay_ms")]
    pub delay_ms: f64,
}

/// One real, enabled sink and everything that plays on it.
#[napi(object)]
pub struct EngineSink {
    pub name: String,
    /// Stable sink identity.
    #[napi(js_name = "config_id")]
    pub config_id: String,
    /// Destination address; null when the sink has none yet (nothing is sent).
    pub ip: Option<Either<String, Null>>,
    /// Destination port (default 4010).
    pub port: Option<Either<u32, Null>>,
    #[napi(ts_type = "SinkProtocol")]
    pub protocol: String,
    #[napi(js_name = "sample_rate")]
    pub sample_rate: u32,
    /// 16, 24 or 32 (RTP: 16 or 24).
    #[napi(js_name = "bit_depth")]
    pub bit_depth: u32,
    pub channels: u32,
    #[napi(js_name = "channel_layout", ts_type = "ChannelLayoutName")]
    pub channel_layout: String,
    #[napi(js_name = "volume_normalization")]
    pub volume_normalization: bool,
    /// RTP payload type sent (0-127); absent or null: 10/11 for L16 44.1 kHz stereo/mono, else
    /// 127 for L16 (what PulseAudio plays) and 97 for L24.
    #[napi(js_name = "payload_type")]
    pub payload_type: Option<Either<u32, Null>>,
    /// At most one path per real source.
    pub paths: Vec<EnginePath>,
}

/// Everything the engine should play: every real, enabled sink, including sinks nothing plays
/// on (silence).
#[napi(object)]
pub struct EngineState {
    pub sinks: Vec<EngineSink>,
}

/// The engine's desired state from the binding's; an error names the field.
pub(crate) fn desired_state(state: EngineState) -> napi::Result<DesiredState> {
    let sinks = state
        .sinks
        .into_iter()
        .enumerate()
        .map(|(i, s)| sink_spec(i, s))
        .collect::<napi::Result<_>>()?;
    Ok(DesiredState { sinks })
}

fn sink_spec(i: usize, s: EngineSink) -> napi::Result<SinkSpec> {
    let at = |field: &str| format!("sinks[{i}].{field}");
    let protocol = match s.protocol.as_str() {
        "scream" => Protocol::Scream,
        "rtp" => Protocol::Rtp,
        "tcp" => Protocol::Tcp,
        other => {
            return Err(invalid(format!(
                "{}: '{other}' is not scream, rtp or tcp",
                at("protocol")
            )))
        }
    };
    let layout: ChannelLayout = s
        .channel_layout
        .parse()
        .map_err(|e| invalid(format!("{}: {e}", at("channel_layout"))))?;
    let bit_depth = u8::try_from(s.bit_depth)
        .map_err(|_| invalid(format!("{}: {}", at("bit_depth"), s.bit_depth)))?;
    let channels = u8::try_from(s.channels)
        .map_err(|_| invalid(format!("{}: {}", at("channels"), s.channels)))?;
    let paths = s
        .paths
        .into_iter()
        .enumerate()
        .map(|(j, p)| path_spec(i, j, p))
        .collect::<napi::Result<_>>()?;
    Ok(SinkSpec {
        id: s.config_id,
        name: s.name,
        ip: value(s.ip)
            .as_deref()
            .map(|a| ip(&at("ip"), a))
            .transpose()?,
        port: port(
            &at("port"),
            value(s.port).unwrap_or(u32::from(DEFAULT_SINK_PORT)),
        )?,
        protocol,
        sample_rate: s.sample_rate,
        bit_depth,
        channels,
        layout,
        normalize: s.volume_normalization,
        payload_type: value(s.payload_type)
            .map(|pt| {
                u8::try_from(pt)
                    .ok()
                    .filter(|pt| *pt <= PAYLOAD_TYPE_MAX)
                    .ok_or_else(|| {
                        invalid(format!(
                            "{}: {pt} (0-{PAYLOAD_TYPE_MAX})",
                            at("payload_type")
                        ))
                    })
            })
            .transpose()?,
        paths,
    })
}

fn path_spec(i: usize, j: usize, p: EnginePath) -> napi::Result<PathSpec> {
    let at = |field: &str| format!("sinks[{i}].paths[{j}].{field}");
    if p.eq.len() != EQ_BANDS {
        return Err(invalid(format!(
            "{}: {EQ_BANDS} band gains expected, got {}",
            at("eq"),
            p.eq.len()
        )));
    }
    if !p.delay_ms.is_finite() || !(0.0..=MAX_DELAY_MS).contains(&p.delay_ms) {
        return Err(invalid(format!(
            "{}: {} is outside 0-{MAX_DELAY_MS} ms",
            at("delay_ms"),
            p.delay_ms
        )));
    }
    let rtp = value(p.rtp).map(|r| rtp_spec(&at, r)).transpose()?;
    Ok(PathSpec {
        source_id: p.source_config_id,
        source_name: p.source,
        ip: value(p.ip)
            .as_deref()
            .map(|a| ip(&at("ip"), a))
            .transpose()?,
        tag: value(p.tag),
        rtp,
        volume: p.volume as f32,
        eq: std::array::from_fn(|b| p.eq[b] as f32),
        delay_ms: p.delay_ms,
    })
}

fn rtp_spec(at: &dyn Fn(&str) -> String, r: EngineRtpSource) -> napi::Result<RtpSourceSpec> {
    let encoding: SampleFormat = r
        .format
        .parse()
        .map_err(|e| invalid(format!("{}: {e}", at("rtp.format"))))?;
    let channels = u8::try_from(r.channels).unwrap_or(0);
    let format = RtpFormat::new(encoding, r.sample_rate, channels).ok_or_else(|| {
        invalid(format!(
            "{}: {} {} Hz {} ch is not playable RTP (L16/S16LE/L24, 8-384 kHz, 1-8 channels)",
            at("rtp"),
            r.format,
            r.sample_rate,
            r.channels
        ))
    })?;
    Ok(RtpSourceSpec {
        listen_ip: value(r.listen_ip)
            .as_deref()
            .map(|a| ip(&at("rtp.listen_ip"), a))
            .transpose()?,
        port: port(&at("rtp.port"), r.port)?,
        format,
        payload_type: match value(r.payload_type) {
            Some(pt) if pt > u32::from(PAYLOAD_TYPE_MAX) => {
                return Err(invalid(format!(
                    "{}: {pt} is outside 0-{PAYLOAD_TYPE_MAX}",
                    at("rtp.payload_type")
                )))
            }
            pt => pt.map(|x| x as u8),
        },
    })
}
