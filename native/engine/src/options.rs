//! How the engine starts: its receivers and the defaults it applies to every source, fixed
//! for the engine's life.

use crate::limits::{
    DEFAULT_JITTER_CEILING_MS, DEFAULT_JITTER_FLOOR_MS, DEFAULT_MULTICAST_TTL, DEFAULT_RTP_PORTS,
    DEFAULT_SCREAM_PORTS, DEFAULT_TAGGED_PORT, JITTER_MAX_MS, JITTER_MIN_MS,
};
use crate::wire::rtp::RtpFormat;
use std::net::{IpAddr, Ipv4Addr};

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
            scream_ports: DEFAULT_SCREAM_PORTS.to_vec(),
            tagged_port: Some(DEFAULT_TAGGED_PORT),
            rtp_ports: DEFAULT_RTP_PORTS.to_vec(),
            multicast_groups: Vec::new(),
            jitter: JitterConfig::default(),
            default_rtp_format: RtpFormat::DEFAULT,
            multicast_ttl: DEFAULT_MULTICAST_TTL,
        }
    }
}

/// How the jitter buffer sizes itself.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct JitterConfig {
    /// Track measured jitter (true) or hold `min_ms` (false).
    pub adaptive: bool,
    /// The fixed target, or the adaptive floor (20-200 ms).
    pub min_ms: f64,
    /// The adaptive ceiling (20-200 ms).
    pub max_ms: f64,
}

impl Default for JitterConfig {
    /// Low latency: adaptive from 20 ms up to 200 ms.
    fn default() -> Self {
        Self {
            adaptive: true,
            min_ms: DEFAULT_JITTER_FLOOR_MS,
            max_ms: DEFAULT_JITTER_CEILING_MS,
        }
    }
}

impl JitterConfig {
    /// Clamps both bounds to 20-200 ms with `min <= max`.
    pub fn clamped(self) -> Self {
        let min_ms = self.min_ms.clamp(JITTER_MIN_MS, JITTER_MAX_MS);
        Self {
            adaptive: self.adaptive,
            min_ms,
            max_ms: self.max_ms.clamp(min_ms, JITTER_MAX_MS),
        }
    }
}
