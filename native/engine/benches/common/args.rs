//! The command line of the benches that measure one thing at a time (`fidelity`, `whep`):
//! `--seconds N`, `--json` (one JSON line per result), `--only TEXT` (runs whose label holds
//! it), `--report-only` (a target missed does not make the exit status 1). Shared by `#[path]`;
//! the graph and loopback benches have theirs in `mod.rs`.
#![allow(dead_code)]

pub struct BenchArgs {
    pub json: bool,
    pub seconds: f64,
    /// Empty: every run.
    pub only: String,
    /// Exit 0 even when a target the bench states is missed.
    pub report_only: bool,
}

/// Reads the command line; `default_seconds` when `--seconds` is absent or not a number.
pub fn parse(default_seconds: f64) -> BenchArgs {
    let args: Vec<String> = std::env::args().collect();
    let value = |flag: &str| {
        args.iter()
            .position(|a| a == flag)
            .and_then(|i| args.get(i + 1))
    };
    BenchArgs {
        json: args.iter().any(|a| a == "--json"),
        seconds: value("--seconds")
            .and_then(|s| s.parse().ok())
            .unwrap_or(default_seconds),
        only: value("--only").cloned().unwrap_or_default(),
        report_only: args.iter().any(|a| a == "--report-only"),
    }
}
