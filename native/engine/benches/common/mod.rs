//! What the engine benches share: the command line, the topology (which sources each sink
//! mixes) and the per-path equalizer curves.
#![allow(dead_code)]

pub mod arrival;

use std::net::IpAddr;
use tributary_dsp::ChannelLayout;
use tributary_engine::limits::EQ_BANDS;
use tributary_engine::{PathSpec, SinkProtocol, SinkSpec};

/// Which equalizer each path gets.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Eq {
    /// Every path its own non-flat curve (nothing can be shared).
    Distinct,
    /// One non-flat curve on every path.
    Same,
    /// No EQ.
    Flat,
}

impl Eq {
    pub fn name(self) -> &'static str {
        match self {
            Eq::Distinct => "distinct",
            Eq::Same => "same",
            Eq::Flat => "flat",
        }
    }
}

/// The command line: `--sources 32 --sinks 16 --per-sink 4 --seconds 20
/// --eq distinct|same|flat --latency-seconds N --idle N --gst-reference N --json --report-only`.
pub struct Args {
    pub sources: usize,
    pub sinks: usize,
    /// Sources each sink mixes (`sources` of them: every source on every sink).
    pub per_sink: usize,
    pub seconds: f64,
    pub eq: Eq,
    /// Length of the loopback bench's latency phase (`None`: half the load phase, 4-30 s).
    pub latency_seconds: Option<f64>,
    /// Sources that stop sending after 2 s (render bench).
    pub idle: usize,
    /// Loopback bench: only measure the GStreamer reference sender for this many seconds.
    pub gst_reference: f64,
    pub json: bool,
    /// Exit 0 even when a target the bench states is missed.
    pub report_only: bool,
}

pub fn args() -> Args {
    let mut a = Args {
        sources: 32,
        sinks: 16,
        per_sink: 4,
        seconds: 20.0,
        eq: Eq::Distinct,
        latency_seconds: None,
        idle: 0,
        gst_reference: 0.0,
        json: false,
        report_only: false,
    };
    let argv: Vec<String> = std::env::args().skip(1).collect();
    let mut it = argv.iter();
    while let Some(flag) = it.next() {
        match flag.as_str() {
            "--json" => {
                a.json = true;
                continue;
            }
            "--report-only" => {
                a.report_only = true;
                continue;
            }
            // What `cargo bench` adds.
            "--bench" => continue,
            _ => {}
        }
        let Some(value) = it.next() else { break };
        let number = value.parse::<f64>().unwrap_or(0.0);
        match flag.as_str() {
            "--sources" => a.sources = number as usize,
            "--sinks" => a.sinks = number as usize,
            "--per-sink" => a.per_sink = number as usize,
            "--seconds" => a.seconds = number,
            "--latency-seconds" => a.latency_seconds = Some(number),
            "--idle" => a.idle = number as usize,
            "--gst-reference" => a.gst_reference = number,
            "--eq" => {
                a.eq = match value.as_str() {
                    "same" => Eq::Same,
                    "flat" => Eq::Flat,
                    _ => Eq::Distinct,
                }
            }
            // Anything unknown is skipped with its value.
            _ => {}
        }
    }
    a.sources = a.sources.clamp(1, 200);
    a.sinks = a.sinks.clamp(1, 64);
    a.per_sink = a.per_sink.clamp(1, a.sources);
    a.idle = a.idle.min(a.sources);
    a
}

impl Args {
    /// The sources sink `j` mixes: `per_sink` consecutive ones from `j * per_sink` (mod N).
    pub fn sources_of(&self, j: usize) -> impl Iterator<Item = usize> + '_ {
        (0..self.per_sink).map(move |k| (j * self.per_sink + k) % self.sources)
    }

    pub fn paths(&self) -> usize {
        self.sinks * self.per_sink
    }

    /// The curve of source `i` on sink `j`.
    pub fn eq_for(&self, i: usize, j: usize) -> [f32; EQ_BANDS] {
        match self.eq {
            Eq::Flat => [1.0; EQ_BANDS],
            Eq::Same => curve(0),
            Eq::Distinct => curve(j * self.sources + i),
        }
    }
}

/// A non-flat 18-band curve (two bands in three moved, up to +-3.5 dB); `variant` shifts which
/// bands and by how much.
pub fn curve(variant: usize) -> [f32; EQ_BANDS] {
    std::array::from_fn(|b| match (b + variant) % 3 {
        0 => 1.4 + (variant % 7) as f32 * 0.02,
        1 => 0.7 - (variant % 5) as f32 * 0.02,
        _ => 1.0,
    })
}

/// Source `i`'s path: matched by `ip`, volume 0.8.
pub fn path(i: usize, ip: Option<IpAddr>, eq: [f32; EQ_BANDS]) -> PathSpec {
    PathSpec {
        ip,
        volume: 0.8,
        eq,
        ..PathSpec::new(&format!("src{i}"))
    }
}

/// Sink `j`: Scream, 48 kHz stereo 16-bit, to `ip:port` (`None`: renders, sends nothing).
pub fn sink(j: usize, ip: Option<IpAddr>, port: u16, paths: Vec<PathSpec>) -> SinkSpec {
    SinkSpec {
        ip,
        port,
        paths,
        ..SinkSpec::new(
            &format!("sink{j}"),
            SinkProtocol::Scream,
            48_000,
            16,
            ChannelLayout::STEREO,
        )
    }
}
