//! `new Engine(options)`: the engine's start options from JavaScript, and `engineLimits()`:
//! every range and default the engine enforces, for the daemon to check and document its
//! settings with (instead of copies of them).

use std::net::{IpAddr, Ipv4Addr};

use napi_derive::napi;
use tributary_dsp::resampler::SUPPORTED_RATES;
use tributary_engine::limits;
use tributary_engine::{EngineOptions as CoreOptions, JitterConfig};

use crate::convert::invalid;
use crate::engine_state::{ip, port, ChannelLayoutName, RtpEncoding, SinkProtocol};

/// Options for `new Engine()`. Every field is optional.
#[napi(object)]
#[derive(Default)]
pub struct EngineOptions {
    /// Address the receivers bind: `0.0.0.0` (default) or one local address.
    pub bind: Option<String>,
    /// Plain Scream UDP ports (default `[4010, 16401]`); 0 picks a free port.
    pub scream_ports: Option<Vec<u32>>,
    /// Per-application (tagged) Scream port (default 16402).
    pub tagged_port: Option<u32>,
    /// Listen for per-application (tagged) Scream at all (default true).
    pub tagged: Option<bool>,
    /// RTP ports always listened on (default `[40000]`; RTCP on port + 1). Ports RTP sources
    /// name are opened by `apply` too.
    pub rtp_ports: Option<Vec<u32>>,
    /// IPv4 multicast groups every receiver joins.
    pub multicast_groups: Option<Vec<String>>,
    /// Jitter buffer: adaptive (default: tracks measured jitter between `jitterMinMs` and
    /// `jitterMaxMs`) or fixed at `jitterMinMs`.
    pub jitter_adaptive: Option<bool>,
    /// The fixed size, or the adaptive floor: 20-200 ms (default 20, low latency).
    pub jitter_min_ms: Option<f64>,
    /// The adaptive ceiling: 20-200 ms (default 200).
    pub jitter_max_ms: Option<f64>,
    /// TTL of multicast packets sent (default 64).
    pub multicast_ttl: Option<u32>,
}

/// The engine's bounds and defaults.
#[napi(object)]
pub struct EngineLimits {
    /// The jitter buffer's fixed size, floor and ceiling are within these (ms).
    pub jitter_min_ms: f64,
    pub jitter_max_ms: f64,
    /// The default adaptive floor and ceiling (ms).
    pub default_jitter_min_ms: f64,
    pub default_jitter_max_ms: f64,
    /// Ports the receivers listen on by default.
    pub default_scream_ports: Vec<u32>,
    pub default_tagged_port: u32,
    pub default_rtp_ports: Vec<u32>,
    /// Port a sink is sent to when it names none.
    pub default_sink_port: u32,
    /// Longest path delay the engine plays (its timeshift buffer), ms.
    pub max_delay_ms: f64,
    /// Volume 0 to this; equalizer band gains 0 to this (1.0 flat).
    pub volume_max: f64,
    pub eq_gain_max: f64,
    pub eq_bands: u32,
    /// Sample rates the engine plays, and those its sinks and sources usually use.
    pub sample_rate_min: u32,
    pub sample_rate_max: u32,
    pub common_sample_rates: Vec<u32>,
    /// Bit depths a sink can be sent (RTP: 16 and 24 only).
    pub bit_depths: Vec<u32>,
    pub channels_max: u32,
    pub default_multicast_ttl: u32,
    pub multicast_ttl_max: u32,
    pub payload_type_max: u32,
    /// The values of the desired state's string enums.
    pub sink_protocols: Vec<SinkProtocol>,
    pub channel_layouts: Vec<ChannelLayoutName>,
    pub rtp_encodings: Vec<RtpEncoding>,
}

/// The engine's bounds and defaults (see `EngineLimits`).
#[napi]
pub fn engine_limits() -> EngineLimits {
    let ports = |p: &[u16]| p.iter().map(|&x| u32::from(x)).collect();
    EngineLimits {
        jitter_min_ms: limits::JITTER_MIN_MS,
        jitter_max_ms: limits::JITTER_MAX_MS,
        default_jitter_min_ms: limits::DEFAULT_JITTER_FLOOR_MS,
        default_jitter_max_ms: limits::DEFAULT_JITTER_CEILING_MS,
        default_scream_ports: ports(&limits::DEFAULT_SCREAM_PORTS),
        default_tagged_port: u32::from(limits::DEFAULT_TAGGED_PORT),
        default_rtp_ports: ports(&limits::DEFAULT_RTP_PORTS),
        default_sink_port: u32::from(limits::DEFAULT_SINK_PORT),
        max_delay_ms: limits::MAX_DELAY_MS,
        volume_max: f64::from(limits::VOLUME_MAX),
        eq_gain_max: f64::from(limits::EQ_GAIN_MAX),
        eq_bands: limits::EQ_BANDS as u32,
        sample_rate_min: limits::SAMPLE_RATE_MIN,
        sample_rate_max: limits::SAMPLE_RATE_MAX,
        common_sample_rates: SUPPORTED_RATES.to_vec(),
        bit_depths: limits::SINK_BIT_DEPTHS
            .iter()
            .map(|&b| u32::from(b))
            .collect(),
        channels_max: u32::from(limits::CHANNELS_MAX),
        default_multicast_ttl: limits::DEFAULT_MULTICAST_TTL,
        multicast_ttl_max: limits::MULTICAST_TTL_MAX,
        payload_type_max: u32::from(limits::PAYLOAD_TYPE_MAX),
        sink_protocols: SinkProtocol::ALL.to_vec(),
        channel_layouts: ChannelLayoutName::ALL.to_vec(),
        rtp_encodings: RtpEncoding::ALL.to_vec(),
    }
}

pub(crate) fn core_options(o: EngineOptions) -> napi::Result<CoreOptions> {
    let mut c = CoreOptions::default();
    if let Some(b) = o.bind {
        c.bind = ip("bind", &b)?;
    }
    if let Some(ports) = o.scream_ports {
        c.scream_ports = ports
            .into_iter()
            .map(|p| port("screamPorts", p))
            .collect::<napi::Result<_>>()?;
    }
    if let Some(p) = o.tagged_port {
        c.tagged_port = Some(port("taggedPort", p)?);
    }
    if o.tagged == Some(false) {
        c.tagged_port = None;
    }
    if let Some(ports) = o.rtp_ports {
        c.rtp_ports = ports
            .into_iter()
            .map(|p| port("rtpPorts", p))
            .collect::<napi::Result<_>>()?;
    }
    if let Some(groups) = o.multicast_groups {
        c.multicast_groups = groups
            .iter()
            .map(|g| match ip("multicastGroups", g)? {
                IpAddr::V4(a) if a.is_multicast() => Ok(a),
                _ => Err(invalid(format!(
                    "multicastGroups: '{g}' is not an IPv4 multicast address"
                ))),
            })
            .collect::<napi::Result<Vec<Ipv4Addr>>>()?;
    }
    let mut j = JitterConfig::default();
    if let Some(a) = o.jitter_adaptive {
        j.adaptive = a;
    }
    for (field, value, slot) in [
        ("jitterMinMs", o.jitter_min_ms, &mut j.min_ms),
        ("jitterMaxMs", o.jitter_max_ms, &mut j.max_ms),
    ] {
        if let Some(v) = value {
            if !(limits::JITTER_MIN_MS..=limits::JITTER_MAX_MS).contains(&v) {
                return Err(invalid(format!(
                    "{field}: {v} is outside {}-{} ms",
                    limits::JITTER_MIN_MS,
                    limits::JITTER_MAX_MS
                )));
            }
            *slot = v;
        }
    }
    if j.min_ms > j.max_ms {
        return Err(invalid("jitterMinMs must not exceed jitterMaxMs"));
    }
    c.jitter = j;
    if let Some(ttl) = o.multicast_ttl {
        if !(1..=limits::MULTICAST_TTL_MAX).contains(&ttl) {
            return Err(invalid(format!(
                "multicastTtl: {ttl} is outside 1-{}",
                limits::MULTICAST_TTL_MAX
            )));
        }
        c.multicast_ttl = ttl;
    }
    Ok(c)
}
