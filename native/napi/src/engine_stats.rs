//! What the engine reports, as JavaScript sees it: statistics (`engine.stats()`), senders no
//! source matches, and the ports it listens on. The daemon's `/api/stats` schema is checked
//! against these types (`daemon/test/services/engine/stats-contract.test.ts`).

use napi::bindgen_prelude::{Either, Null};
use napi_derive::napi;
use tributary_engine::{BoundPorts, EngineStats as CoreStats, UnknownSender};

/// A value or null (never absent): what the stats schema says.
fn nullable<T>(v: Option<T>) -> Either<T, Null> {
    v.map_or(Either::B(Null), Either::A)
}

/// The ports the engine listens on.
#[napi(object)]
pub struct EnginePorts {
    pub scream: Vec<u32>,
    /// The tagged Scream port; null when it is off.
    pub tagged: Either<u32, Null>,
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
    pub format_problem: Either<String, Null>,
    /// Detected stream format, e.g. `rtp L16 48000 Hz 2 ch`; null before the first packet.
    pub format: Either<String, Null>,
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

/// Per path (a source playing on a sink): what it played because its source was late. A
/// sink's underruns, silence and concealment are the sums over its paths.
#[napi(object)]
pub struct EnginePathStats {
    #[napi(js_name = "source_config_id")]
    pub source_config_id: String,
    #[napi(js_name = "sink_config_id")]
    pub sink_config_id: String,
    /// Times the path ran out of buffered audio while its source was sending.
    pub underruns: f64,
    /// Silence it played because of those, ms.
    #[napi(js_name = "silence_ms")]
    pub silence_ms: f64,
    /// Gaps it concealed (lost or late packets) and their length, ms.
    pub concealed: f64,
    #[napi(js_name = "concealed_ms")]
    pub concealed_ms: f64,
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
    /// Every path, in the order of the sinks and their paths.
    pub paths: Vec<EnginePathStats>,
}

/// What an unknown sender sends.
#[napi(string_enum = "kebab-case")]
pub enum UnknownSenderKind {
    Scream,
    ScreamTagged,
    Rtp,
}

/// A sender no source matches, for the dashboard to offer as a new source.
#[napi(object)]
pub struct EngineUnknownSender {
    pub kind: UnknownSenderKind,
    pub address: String,
    /// Local port it arrived on.
    pub port: u32,
    /// Per-application tag (`ip/program`), for tagged Scream; null otherwise.
    pub tag: Either<String, Null>,
    pub packets: f64,
    pub format: Either<String, Null>,
    #[napi(js_name = "last_seen_ms_ago")]
    pub last_seen_ms_ago: f64,
}

pub(crate) fn stats(s: CoreStats) -> EngineStats {
    EngineStats {
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
                underruns: x.underruns as f64,
                silence_ms: x.silence_ms,
                concealed: x.concealed as f64,
                concealed_ms: x.concealed_ms,
                skips: x.skips as f64,
                skipped_ms: x.skipped_ms,
                repeats: x.repeats as f64,
                repeated_ms: x.repeated_ms,
                format_problem: nullable(x.format_problem),
                format: nullable(x.format),
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
        paths: s
            .paths
            .into_iter()
            .map(|x| EnginePathStats {
                source_config_id: x.source_id,
                sink_config_id: x.sink_id,
                underruns: x.underruns as f64,
                silence_ms: x.silence_ms,
                concealed: x.concealed as f64,
                concealed_ms: x.concealed_ms,
            })
            .collect(),
    }
}

pub(crate) fn unknown_sender(u: UnknownSender) -> EngineUnknownSender {
    EngineUnknownSender {
        kind: match u.kind {
            "scream-tagged" => UnknownSenderKind::ScreamTagged,
            "rtp" => UnknownSenderKind::Rtp,
            _ => UnknownSenderKind::Scream,
        },
        address: u.address,
        port: u32::from(u.port),
        tag: nullable(u.tag),
        packets: u.packets as f64,
        format: nullable(u.format),
        last_seen_ms_ago: u.last_seen_ms_ago,
    }
}

pub(crate) fn ports(p: &BoundPorts) -> EnginePorts {
    EnginePorts {
        scream: p.scream.iter().map(|&x| u32::from(x)).collect(),
        tagged: nullable(p.tagged.map(u32::from)),
        rtp: p.rtp.iter().map(|&x| u32::from(x)).collect(),
    }
}
