//! `Engine`: the audio engine (`tributary-engine`) from JavaScript. Only converts types: the
//! engine runs on its own threads and JavaScript is never on the per-packet path.
//!
//! `apply` takes the control plane's solver output as it is (`engine.apply(solve(config))`),
//! so its objects use the API's snake_case names; fields the engine does not need (`route`,
//! `via`, ...) are ignored.

use std::net::{IpAddr, Ipv4Addr};

use napi::bindgen_prelude::{Either, Null};
use napi::{Error, Status};
use napi_derive::napi;
use tributary_dsp::{ChannelLayout, SampleFormat};
use tributary_engine::limits::{EQ_BANDS, TIMESHIFT_DURATION_S};
use tributary_engine::options::JitterConfig;
use tributary_engine::wire::rtp::RtpFormat;
use tributary_engine::{
    DesiredState, Engine as Core, EngineOptions as CoreOptions, PathSpec, RtpSourceSpec,
    SinkProtocol, SinkSpec,
};

/// A field that may be null (the solver's output uses null for "none"); absent means the same.
type Nullable<T> = Either<T, Null>;

fn value<T>(field: Option<Nullable<T>>) -> Option<T> {
    match field {
        Some(Either::A(v)) => Some(v),
        _ => None,
    }
}

fn invalid(msg: impl Into<String>) -> Error {
    Error::new(Status::InvalidArg, msg.into())
}

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

/// RTP reception settings of a source (the config's `rtp` object).
#[napi(object)]
pub struct EngineRtpSource {
    /// Local or multicast address to listen on; null listens on all.
    #[napi(js_name = "listen_ip")]
    pub listen_ip: Option<Either<String, Null>>,
    /// UDP port of the stream (RTCP on port + 1).
    pub port: u32,
    /// S16BE (= L16), S16LE, L24 (= S24BE).
    pub format: String,
    #[napi(js_name = "sample_rate")]
    pub sample_rate: u32,
    pub channels: u32,
    /// Payload type to accept; null accepts any.
    #[napi(js_name = "payload_type")]
    pub payload_type: Option<Either<u32, Null>>,
}

/// One real source playing on a sink, with effective levels (a solver path).
#[napi(object)]
pub struct EnginePath {
    /// Source name (for stats).
    pub source: String,
    /// Stable source identity.
    #[napi(js_name = "source_config_id")]
    pub source_config_id: String,
    /// Sender address streams are matched by; null when unknown.
    pub ip: Option<Either<String, Null>>,
    /// Stream tag (per-application Scream: `ip/program`); null when none.
    pub tag: Option<Either<String, Null>>,
    /// RTP reception settings; null for Scream sources.
    pub rtp: Option<Either<EngineRtpSource, Null>>,
    /// Effective volume 0.0-1.0.
    pub volume: f64,
    /// Effective band gains b1..b18, each 0.0-2.0 (1.0 flat).
    pub eq: Vec<f64>,
    /// Effective delay in ms, 0-300000 (timeshift buffer).
    #[napi(js_name = "delay_ms")]
    pub delay_ms: f64,
}

/// One real sink (a solver sink).
#[napi(object)]
pub struct EngineSink {
    pub name: String,
    /// Stable sink identity.
    #[napi(js_name = "config_id")]
    pub config_id: String,
    /// Destination; null sends nothing.
    pub ip: Option<Either<String, Null>>,
    /// Destination port (default 4010).
    pub port: Option<Either<u32, Null>>,
    /// scream, rtp or tcp.
    pub protocol: String,
    #[napi(js_name = "sample_rate")]
    pub sample_rate: u32,
    /// 16, 24 or 32 (RTP: 16 or 24).
    #[napi(js_name = "bit_depth")]
    pub bit_depth: u32,
    pub channels: u32,
    /// mono, stereo, quad, surround, 3.1, 4.0, 5.1, 5.1(side), 7.1.
    #[napi(js_name = "channel_layout")]
    pub channel_layout: String,
    #[napi(js_name = "volume_normalization")]
    pub volume_normalization: bool,
    /// RTP payload type sent (0-127); absent or null: 96 for L16, 97 for L24.
    #[napi(js_name = "payload_type")]
    pub payload_type: Option<Either<u32, Null>>,
    pub paths: Vec<EnginePath>,
}

/// The desired state: the solver output.
#[napi(object)]
pub struct EngineState {
    pub sinks: Vec<EngineSink>,
}

/// The ports the engine listens on.
#[napi(object)]
pub struct EnginePorts {
    pub scream: Vec<u32>,
    pub tagged: Option<u32>,
    pub rtp: Vec<u32>,
}

/// Per-source statistics.
#[napi(object)]
pub struct EngineSourceStats {
    #[napi(js_name = "config_id")]
    pub config_id: String,
    pub name: String,
    pub packets: f64,
    pub bytes: f64,
    /// Packets never received (RFC 3550: a late arrival counts as received).
    pub lost: f64,
    /// Packets that arrived after their audio had played.
    pub late: f64,
    pub reordered: f64,
    pub duplicates: f64,
    /// Malformed, truncated or oversized packets dropped.
    pub malformed: f64,
    #[napi(js_name = "rtcp_packets")]
    pub rtcp_packets: f64,
    /// Interarrival jitter (RFC 3550), ms.
    #[napi(js_name = "jitter_ms")]
    pub jitter_ms: f64,
    /// Audio queued ahead of playback, ms.
    #[napi(js_name = "buffer_ms")]
    pub buffer_ms: f64,
    /// Sender clock error against the router's clock, ppm (positive: fast).
    #[napi(js_name = "drift_ppm")]
    pub drift_ppm: f64,
    /// Rate adjustment its readers apply now (the drift and the buffer correction), ppm.
    #[napi(js_name = "correction_ppm")]
    pub correction_ppm: f64,
    /// Times a reader ran dry while the source was sending.
    pub underruns: f64,
    /// Silence played because of those, ms.
    #[napi(js_name = "silence_ms")]
    pub silence_ms: f64,
    /// Gaps concealed (lost or late packets) and their length, ms.
    pub concealed: f64,
    #[napi(js_name = "concealed_ms")]
    pub concealed_ms: f64,
    /// Skips ahead over audio (too much queued) and the audio skipped, ms.
    pub skips: f64,
    #[napi(js_name = "skipped_ms")]
    pub skipped_ms: f64,
    /// Steps back that played audio again (too little queued) and the audio repeated, ms.
    pub repeats: f64,
    #[napi(js_name = "repeated_ms")]
    pub repeated_ms: f64,
    /// What arrives disagrees with the source's settings (a static RTP payload type of
    /// another format); null when it agrees.
    #[napi(js_name = "format_problem")]
    pub format_problem: Option<String>,
    /// Detected stream format, e.g. `rtp L16 48000 Hz 2 ch`; null before the first packet.
    pub format: Option<String>,
}

/// Per-sink statistics.
#[napi(object)]
pub struct EngineSinkStats {
    #[napi(js_name = "config_id")]
    pub config_id: String,
    pub name: String,
    pub packets: f64,
    pub bytes: f64,
    /// Times a playing path ran out of buffered audio (concealed with a fade).
    pub underruns: f64,
    /// Silence its paths played because a source ran dry, ms.
    #[napi(js_name = "silence_ms")]
    pub silence_ms: f64,
    /// Gaps its paths concealed (lost or late packets) and their length, ms.
    pub concealed: f64,
    #[napi(js_name = "concealed_ms")]
    pub concealed_ms: f64,
    #[napi(js_name = "send_errors")]
    pub send_errors: f64,
    /// Bytes rendered but not yet sent.
    #[napi(js_name = "queue_bytes")]
    pub queue_bytes: f64,
    /// Largest lateness of a packet against its deadline since the previous stats call, ms.
    #[napi(js_name = "max_late_ms")]
    pub max_late_ms: f64,
}

/// A snapshot of the engine.
#[napi(object)]
pub struct EngineStats {
    #[napi(js_name = "uptime_s")]
    pub uptime_s: f64,
    /// CPU time used by the engine's threads since start, seconds.
    #[napi(js_name = "cpu_s")]
    pub cpu_s: f64,
    /// Datagrams dropped because the engine thread fell behind.
    #[napi(js_name = "queue_overflows")]
    pub queue_overflows: f64,
    /// Packets from senders no source matches.
    #[napi(js_name = "unknown_packets")]
    pub unknown_packets: f64,
    /// Malformed packets from unknown senders.
    #[napi(js_name = "malformed_unknown")]
    pub malformed_unknown: f64,
    pub sources: Vec<EngineSourceStats>,
    pub sinks: Vec<EngineSinkStats>,
}

/// A sender no source matches, for the dashboard to offer as a new source.
#[napi(object)]
pub struct EngineUnknownSender {
    /// scream, scream-tagged or rtp.
    pub kind: String,
    pub address: String,
    /// Local port it arrived on.
    pub port: u32,
    /// Per-application tag (`ip/program`), for tagged Scream.
    pub tag: Option<String>,
    pub packets: f64,
    pub format: Option<String>,
    #[napi(js_name = "last_seen_ms_ago")]
    pub last_seen_ms_ago: f64,
}

/// The audio engine: receivers, jitter buffers, per-sink mixers and senders on their own
/// threads. Create it, `apply()` the solver output on every change, `stop()` it on shutdown.
#[napi]
pub struct Engine {
    pub(crate) inner: Option<Core>,
}

#[napi]
impl Engine {
    /// Binds every receiver port and starts the engine's threads. Throws if a port cannot be
    /// bound (the message names it).
    #[napi(constructor, catch_unwind)]
    pub fn new(options: Option<EngineOptions>) -> napi::Result<Self> {
        let opts = core_options(options.unwrap_or_default())?;
        let core =
            Core::start(opts).map_err(|e| Error::new(Status::GenericFailure, e.to_string()))?;
        Ok(Self { inner: Some(core) })
    }

    /// Makes the running graph match the solver output. Unchanged paths play on without a gap;
    /// volume, EQ and delay changes ramp. Returns one message per sink the engine cannot play
    /// (e.g. `sinks[2].channels: 2 channels do not match channel_layout 5.1 (6 channels)`);
    /// those sinks are left out and everything else plays. Throws (InvalidArg) only when the
    /// state's shape is wrong (a bad address, protocol or layout name), changing nothing.
    #[napi(catch_unwind)]
    pub fn apply(&mut self, state: EngineState) -> napi::Result<Vec<String>> {
        let desired = desired_state(state)?;
        let problems = self
            .core()?
            .apply(desired)
            .map_err(|e| invalid(e.to_string()))?;
        Ok(problems.into_iter().map(|p| p.to_string()).collect())
    }

    /// Counters and estimates for every source and sink.
    #[napi(catch_unwind)]
    pub fn stats(&mut self) -> napi::Result<EngineStats> {
        let s = self.core()?.stats();
        Ok(EngineStats {
            uptime_s: s.uptime_s,
            cpu_s: s.cpu_s,
            queue_overflows: s.queue_overflows as f64,
            unknown_packets: s.unknown_packets as f64,
            malformed_unknown: s.malformed_unknown as f64,
            sources: s
                .sources
                .into_iter()
                .map(|x| EngineSourceStats {
                    config_id: x.id,
                    name: x.name,
                    packets: x.packets as f64,
                    bytes: x.bytes as f64,
                    lost: x.lost as f64,
                    late: x.late as f64,
                    reordered: x.reordered as f64,
                    duplicates: x.duplicates as f64,
                    malformed: x.malformed as f64,
                    rtcp_packets: x.rtcp_packets as f64,
                    jitter_ms: x.jitter_ms,
                    buffer_ms: x.buffer_ms,
                    drift_ppm: x.drift_ppm,
                    correction_ppm: x.correction_ppm,
                    format_problem: x.format_problem,
                    underruns: x.underruns as f64,
                    silence_ms: x.silence_ms,
                    concealed: x.concealed as f64,
                    concealed_ms: x.concealed_ms,
                    skips: x.skips as f64,
                    skipped_ms: x.skipped_ms,
                    repeats: x.repeats as f64,
                    repeated_ms: x.repeated_ms,
                    format: x.format,
                })
                .collect(),
            sinks: s
                .sinks
                .into_iter()
                .map(|x| EngineSinkStats {
                    config_id: x.id,
                    name: x.name,
                    packets: x.packets as f64,
                    bytes: x.bytes as f64,
                    underruns: x.underruns as f64,
                    silence_ms: x.silence_ms,
                    concealed: x.concealed as f64,
                    concealed_ms: x.concealed_ms,
                    send_errors: x.send_errors as f64,
                    queue_bytes: x.queue_bytes as f64,
                    max_late_ms: x.max_late_ms,
                })
                .collect(),
        })
    }

    /// Senders no source matches, most recently heard first.
    #[napi(catch_unwind)]
    pub fn unknown_senders(&mut self) -> napi::Result<Vec<EngineUnknownSender>> {
        Ok(self
            .core()?
            .unknown_senders()
            .into_iter()
            .map(|u| EngineUnknownSender {
                kind: u.kind.to_owned(),
                address: u.address,
                port: u32::from(u.port),
                tag: u.tag,
                packets: u.packets as f64,
                format: u.format,
                last_seen_ms_ago: u.last_seen_ms_ago,
            })
            .collect())
    }

    /// The ports actually bound (useful with port 0).
    #[napi(catch_unwind)]
    pub fn ports(&mut self) -> napi::Result<EnginePorts> {
        let p = self.core()?.ports();
        Ok(EnginePorts {
            scream: p.scream.iter().map(|&x| u32::from(x)).collect(),
            tagged: p.tagged.map(u32::from),
            rtp: p.rtp.iter().map(|&x| u32::from(x)).collect(),
        })
    }

    /// Whether the engine is running (false after `stop()`).
    #[napi(getter)]
    pub fn running(&self) -> bool {
        self.inner.is_some()
    }

    /// Stops every thread and closes every socket; the ports are free when it returns.
    /// Calling it again does nothing.
    #[napi(catch_unwind)]
    pub fn stop(&mut self) {
        if let Some(mut core) = self.inner.take() {
            core.stop();
        }
    }

    pub(crate) fn core(&mut self) -> napi::Result<&mut Core> {
        self.inner
            .as_mut()
            .ok_or_else(|| Error::new(Status::GenericFailure, "the engine is stopped"))
    }
}

fn port(field: &str, p: u32) -> napi::Result<u16> {
    u16::try_from(p).map_err(|_| invalid(format!("{field}: {p} is not a port (0-65535)")))
}

fn ip(field: &str, text: &str) -> napi::Result<IpAddr> {
    text.parse()
        .map_err(|_| invalid(format!("{field}: '{text}' is not an IP address")))
}

fn core_options(o: EngineOptions) -> napi::Result<CoreOptions> {
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
            if !(20.0..=200.0).contains(&v) {
                return Err(invalid(format!("{field}: {v} is outside 20-200 ms")));
            }
            *slot = v;
        }
    }
    if j.min_ms > j.max_ms {
        return Err(invalid("jitterMinMs must not exceed jitterMaxMs"));
    }
    c.jitter = j;
    if let Some(ttl) = o.multicast_ttl {
        if !(1..=255).contains(&ttl) {
            return Err(invalid(format!("multicastTtl: {ttl} is outside 1-255")));
        }
        c.multicast_ttl = ttl;
    }
    Ok(c)
}

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
        "scream" => SinkProtocol::Scream,
        "rtp" => SinkProtocol::Rtp,
        "tcp" => SinkProtocol::Tcp,
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
        port: port(&at("port"), value(s.port).unwrap_or(4010))?,
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
                    .filter(|pt| *pt < 128)
                    .ok_or_else(|| invalid(format!("{}: {pt} (0-127)", at("payload_type"))))
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
    if !p.delay_ms.is_finite() || !(0.0..=TIMESHIFT_DURATION_S * 1000.0).contains(&p.delay_ms) {
        return Err(invalid(format!(
            "{}: {} is outside 0-300000 ms",
            at("delay_ms"),
            p.delay_ms
        )));
    }
    let rtp = match value(p.rtp) {
        None => None,
        Some(r) => {
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
            Some(RtpSourceSpec {
                listen_ip: value(r.listen_ip)
                    .as_deref()
                    .map(|a| ip(&at("rtp.listen_ip"), a))
                    .transpose()?,
                port: port(&at("rtp.port"), r.port)?,
                format,
                payload_type: match value(r.payload_type) {
                    Some(pt) if pt > 127 => {
                        return Err(invalid(format!(
                            "{}: {pt} is outside 0-127",
                            at("rtp.payload_type")
                        )))
                    }
                    pt => pt.map(|x| x as u8),
                },
            })
        }
    };
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

/// One payload type of an SDP audio section that Tributary can play.
#[napi(object)]
pub struct SdpFormat {
    #[napi(js_name = "payload_type")]
    pub payload_type: u32,
    /// S16BE (L16), S16LE or S24BE (L24), as a source's `rtp.format` takes it.
    pub format: String,
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
                            SampleFormat::S16Le => "S16LE",
                            SampleFormat::S24Be => "S24BE",
                            _ => "S16BE",
                        }
                        .to_owned(),
                        sample_rate: f.sample_rate,
                        channels: u32::from(f.channels),
                    })
                    .collect(),
            })
            .collect(),
    })
}
