//! What the engine is told: start options, and the desired state `apply` receives (the
//! control plane's solver output: per real sink, the real sources that reach it with their
//! effective volume, equalizer and delay).

use crate::jitter::JitterConfig;
use crate::rtp::RtpFormat;
use std::net::{IpAddr, Ipv4Addr};
use tributary_dsp::layout::ChannelLayout;
use tributary_dsp::sample_format::SampleFormat;

/// Longest delay a path can have: the timeshift buffer's length (`TIMESHIFT_DURATION`).
pub const TIMESHIFT_DURATION_S: f64 = 300.0;
/// Bands of the equalizer.
pub const EQ_BANDS: usize = 18;

/// Receivers and defaults, fixed for the engine's life.
#[derive(Clone, Debug, PartialEq)]
pub struct EngineOptions {
    /// Address the receivers bind (all interfaces by default).
    pub bind: IpAddr,
    /// Plain Scream ports (4010 and 16401 by default).
    pub scream_ports: Vec<u16>,
    /// Per-application (tagged) Scream port (16402 by default); `None` disables it.
    pub tagged_port: Option<u16>,
    /// RTP ports always listened on (40000 by default; RTCP on each port + 1). Ports that RTP
    /// sources name are opened on `apply` as well.
    pub rtp_ports: Vec<u16>,
    /// Multicast groups joined on every receiver socket.
    pub multicast_groups: Vec<Ipv4Addr>,
    /// Jitter buffer sizing for every source.
    pub jitter: JitterConfig,
    /// Format assumed for RTP packets no source or SDP describes.
    pub default_rtp_format: RtpFormat,
    /// TTL of multicast packets sent (64).
    pub multicast_ttl: u32,
}

impl Default for EngineOptions {
    fn default() -> Self {
        Self {
            bind: IpAddr::V4(Ipv4Addr::UNSPECIFIED),
            scream_ports: vec![4010, 16401],
            tagged_port: Some(16402),
            rtp_ports: vec![40000],
            multicast_groups: Vec::new(),
            jitter: JitterConfig::default(),
            default_rtp_format: RtpFormat::DEFAULT,
            multicast_ttl: 64,
        }
    }
}

/// How a sink receives audio.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum SinkProtocol {
    /// Scream over UDP: 5-byte header + 1152-byte payloads.
    Scream,
    /// RTP L16/L24 over UDP, RTCP sender reports on port + 1.
    Rtp,
    /// Raw PCM over a TCP connection the engine opens to the sink.
    Tcp,
}

/// How an RTP source arrives.
#[derive(Clone, Debug, PartialEq)]
pub struct RtpSourceSpec {
    /// Local or multicast address to listen on; `None` for all.
    pub listen_ip: Option<IpAddr>,
    pub port: u16,
    pub format: RtpFormat,
    /// Payload type to accept; `None` accepts any.
    pub payload_type: Option<u8>,
}

/// One real source reaching a sink, with effective levels.
#[derive(Clone, Debug, PartialEq)]
pub struct PathSpec {
    /// Stable identity of the source (its config id).
    pub source_id: String,
    /// Display name.
    pub source_name: String,
    /// Sender address streams are matched by.
    pub ip: Option<IpAddr>,
    /// Stream tag (per-application Scream `ip/program`).
    pub tag: Option<String>,
    /// RTP reception settings; `None` for Scream sources.
    pub rtp: Option<RtpSourceSpec>,
    /// 0.0-1.0.
    pub volume: f32,
    /// Linear band gains 0.0-2.0 (1.0 flat).
    pub eq: [f32; EQ_BANDS],
    /// 0-300 000 ms.
    pub delay_ms: f64,
}

/// One real sink.
#[derive(Clone, Debug, PartialEq)]
pub struct SinkSpec {
    /// Stable identity (config id).
    pub id: String,
    pub name: String,
    /// Destination; `None` renders nothing and sends nothing.
    pub ip: Option<IpAddr>,
    pub port: u16,
    pub protocol: SinkProtocol,
    pub sample_rate: u32,
    pub bit_depth: u8,
    pub channels: u8,
    pub layout: ChannelLayout,
    pub normalize: bool,
    pub paths: Vec<PathSpec>,
}

/// Everything the engine should play.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct DesiredState {
    pub sinks: Vec<SinkSpec>,
}

/// A desired state that cannot be played, naming the field.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ConfigError(pub String);

impl std::fmt::Display for ConfigError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for ConfigError {}

impl SinkSpec {
    /// The wire encoding: Scream and TCP are little-endian, RTP big-endian (L16/L24).
    pub fn sample_format(&self) -> Result<SampleFormat, ConfigError> {
        let err = || {
            ConfigError(format!(
                "sinks[{}].bit_depth: {} is not playable over {:?} (16, 24, or 32 for Scream/TCP)",
                self.name, self.bit_depth, self.protocol
            ))
        };
        match (self.protocol, self.bit_depth) {
            (SinkProtocol::Rtp, 16) => Ok(SampleFormat::S16Be),
            (SinkProtocol::Rtp, 24) => Ok(SampleFormat::S24Be),
            (SinkProtocol::Rtp, _) => Err(err()),
            (_, 16) => Ok(SampleFormat::S16Le),
            (_, 24) => Ok(SampleFormat::S24Le),
            (_, 32) => Ok(SampleFormat::S32Le),
            _ => Err(err()),
        }
    }
}

impl DesiredState {
    /// Checks every value against the engine's bounds; the error names the first bad field.
    pub fn validate(&self) -> Result<(), ConfigError> {
        let mut ids = std::collections::HashSet::new();
        for (i, s) in self.sinks.iter().enumerate() {
            let at = |field: &str| format!("sinks[{i}].{field}");
            if !ids.insert(&s.id) {
                return Err(ConfigError(format!(
                    "{}: duplicate sink id '{}'",
                    at("id"),
                    s.id
                )));
            }
            if !(8_000..=384_000).contains(&s.sample_rate) {
                return Err(ConfigError(format!(
                    "{}: {} Hz is outside 8000-384000",
                    at("sample_rate"),
                    s.sample_rate
                )));
            }
            if !(1..=8).contains(&s.channels) || usize::from(s.channels) != s.layout.channels() {
                return Err(ConfigError(format!(
                    "{}: {} channels do not match layout {} ({} channels)",
                    at("channels"),
                    s.channels,
                    s.layout,
                    s.layout.channels()
                )));
            }
            s.sample_format()?;
            let mut sources = std::collections::HashSet::new();
            for (j, p) in s.paths.iter().enumerate() {
                let at = |field: &str| format!("sinks[{i}].paths[{j}].{field}");
                if !sources.insert(&p.source_id) {
                    return Err(ConfigError(format!(
                        "{}: source '{}' appears twice",
                        at("source_id"),
                        p.source_id
                    )));
                }
                if !(0.0..=1.0).contains(&p.volume) {
                    return Err(ConfigError(format!(
                        "{}: {} is outside 0.0-1.0",
                        at("volume"),
                        p.volume
                    )));
                }
                if let Some(b) = p.eq.iter().position(|g| !(0.0..=2.0).contains(g)) {
                    return Err(ConfigError(format!(
                        "{}: band {} gain {} is outside 0.0-2.0",
                        at("eq"),
                        b + 1,
                        p.eq[b]
                    )));
                }
                if !(0.0..=TIMESHIFT_DURATION_S * 1000.0).contains(&p.delay_ms) {
                    return Err(ConfigError(format!(
                        "{}: {} ms is outside 0-300000",
                        at("delay_ms"),
                        p.delay_ms
                    )));
                }
                if p.ip.is_none() && p.tag.is_none() && p.rtp.is_none() {
                    // Nothing can match it; it stays silent (not an error: the dashboard may
                    // fill the address in later).
                }
            }
        }
        Ok(())
    }
}
