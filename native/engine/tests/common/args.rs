//! The benches' command line, one parser for all of them: `--seconds N`, `--json` (one JSON line
//! per result), `--only TEXT` (the runs whose label holds it), `--report-only` (a target missed
//! does not make the exit status 1), and the topology of the graph and loopback benches
//! (`--sources 32 --sinks 16 --per-sink 4 --eq distinct|same|flat`, with `--latency-seconds N`,
//! `--idle N`, `--gst-reference N`; see `topology.rs`). A flag it does not know is skipped with its
//! value; what `cargo bench` adds (`--bench`) is skipped. Included by `#[path]`.
#![allow(dead_code)]

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

pub struct BenchArgs {
    pub json: bool,
    pub seconds: f64,
    /// Empty: every run.
    pub only: String,
    /// Exit 0 even when a target the bench states is missed.
    pub report_only: bool,
    pub sources: usize,
    pub sinks: usize,
    /// Sources each sink mixes (`sources` of them: every source on every sink).
    pub per_sink: usize,
    pub eq: Eq,
    /// Length of the loopback bench's latency phase (`None`: half the load phase, 4-30 s).
    pub latency_seconds: Option<f64>,
    /// Sources that stop sending after 2 s (graph bench).
    pub idle: usize,
    /// Loopback bench: only measure the GStreamer reference sender for this many seconds.
    pub gst_reference: f64,
}

/// Reads the command line; `default_seconds` when `--seconds` is absent or not a number.
pub fn parse(default_seconds: f64) -> BenchArgs {
    parse_from(std::env::args().skip(1), default_seconds)
}

/// [`parse`] of the arguments `argv` (without the program's name).
pub fn parse_from(argv: impl IntoIterator<Item = String>, default_seconds: f64) -> BenchArgs {
    let mut a = BenchArgs {
        json: false,
        seconds: default_seconds,
        only: String::new(),
        report_only: false,
        sources: 32,
        sinks: 16,
        per_sink: 4,
        eq: Eq::Distinct,
        latency_seconds: None,
        idle: 0,
        gst_reference: 0.0,
    };
    let mut it = argv.into_iter();
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
            "--bench" => continue,
            _ => {}
        }
        let Some(value) = it.next() else { break };
        let number = value.parse::<f64>().ok();
        match flag.as_str() {
            "--seconds" => a.seconds = number.unwrap_or(default_seconds),
            "--only" => a.only = value,
            "--sources" => a.sources = number.unwrap_or(0.0) as usize,
            "--sinks" => a.sinks = number.unwrap_or(0.0) as usize,
            "--per-sink" => a.per_sink = number.unwrap_or(0.0) as usize,
            "--latency-seconds" => a.latency_seconds = number,
            "--idle" => a.idle = number.unwrap_or(0.0) as usize,
            "--gst-reference" => a.gst_reference = number.unwrap_or(0.0),
            "--eq" => {
                a.eq = match value.as_str() {
                    "same" => Eq::Same,
                    "flat" => Eq::Flat,
                    _ => Eq::Distinct,
                }
            }
            _ => {}
        }
    }
    a.sources = a.sources.clamp(1, 200);
    a.sinks = a.sinks.clamp(1, 64);
    a.per_sink = a.per_sink.clamp(1, a.sources);
    a.idle = a.idle.min(a.sources);
    a
}
