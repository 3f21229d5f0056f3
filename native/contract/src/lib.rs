//! The engine's seam, generated from its report declarations ([`tributary_engine::report`]):
//! the napi mirror of every report and enum with its conversion from the engine's type
//! ([`napi_mirror`]) and the TypeBox fields the daemon validates `/api/stats` with and documents
//! it from ([`typebox_fields`]; the OpenAPI document and the docs' statistics tables follow from
//! them). `cargo run -p tributary-contract` (`npm run contract`) writes the files;
//! `tests/fresh.rs` fails while one differs from what it would write.

mod napi;
mod typebox;

use std::path::PathBuf;
use tributary_engine::report::{EnumInfo, Report, ReportInfo, Value};
use tributary_engine::{EngineStats, LogLine, PathStats, SinkStats, SourceStats, UnknownSender};

pub use napi::napi_mirror;
pub use typebox::typebox_fields;

/// Every report that crosses into JavaScript.
pub const REPORTS: &[ReportInfo] = &[
    SourceStats::INFO,
    SinkStats::INFO,
    PathStats::INFO,
    EngineStats::INFO,
    UnknownSender::INFO,
    LogLine::INFO,
];

/// A generated file: its path from the repository's root and its text.
pub struct Generated {
    pub path: &'static str,
    pub text: String,
}

/// Every generated file.
pub fn files() -> Vec<Generated> {
    vec![
        Generated {
            path: "native/napi/src/engine_reports.rs",
            text: napi_mirror(REPORTS),
        },
        Generated {
            path: "daemon/src/schema/generated/engine-reports.ts",
            text: typebox_fields(REPORTS),
        },
    ]
}

/// The repository's root.
pub fn repo_root() -> PathBuf {
    PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/../.."))
}

/// The enums `reports` carry, each once, in the order they first appear.
pub fn enums(reports: &[ReportInfo]) -> Vec<&'static EnumInfo> {
    let mut out: Vec<&'static EnumInfo> = Vec::new();
    for f in reports.iter().flat_map(|r| r.fields) {
        if let Value::Enum(e) = f.value {
            if !out.iter().any(|o| o.rust == e.rust) {
                out.push(e);
            }
        }
    }
    out
}

/// The report named `rust` (a list field's element).
pub fn report<'a>(reports: &'a [ReportInfo], rust: &str) -> &'a ReportInfo {
    reports
        .iter()
        .find(|r| r.rust == rust)
        .unwrap_or_else(|| panic!("{rust} is carried in a list but not in REPORTS"))
}

/// Doc comment lines as written (one leading space each, as `///` leaves it).
pub(crate) fn doc_lines(doc: &str) -> impl Iterator<Item = &str> {
    doc.lines()
}
