//! The fidelity bench's committed results (bench/results/fidelity.json, written by
//! `npm run bench -- fidelity --json`, rendered by content/docs/processor.mdx): the figures of
//! one row (a sender and a load, e.g. `ffmpeg_48k.idle`) that the tests hold a run to. Read at
//! test time from the repository, so a new committed run moves the tests' bounds with the docs'
//! table. A file that is missing, unreadable or lacks a figure fails the test, naming the file
//! and the key: there is no fallback figure.

use std::path::Path;

/// The committed results, from this crate's folder.
pub const RESULTS: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../../bench/results/fidelity.json"
);

/// What the committed run measured for one row, Tributary's side.
#[derive(Debug, Clone)]
pub struct Published {
    /// The row's key in the results, e.g. `ffmpeg_48k.idle`.
    pub row: String,
    /// The file the figures came from.
    pub file: String,
    /// How long the bench's run lasted, s (`ROW.seconds`).
    pub seconds: f64,
    /// Pitch error p50 and p99 over the run's windows after 5 s, ppm
    /// (`ROW.tributary.pitch_ppm_p50`, `..._p99`).
    pub p50: f64,
    pub p99: f64,
    /// Gaps heard after the first sound, and their ms in all (`ROW.tributary.gaps`, `gap_ms`).
    pub gaps: f64,
    pub gap_ms: f64,
}

impl Published {
    /// The row `row` of the committed results; panics naming the file and the key if it cannot.
    pub fn committed(row: &str) -> Self {
        Self::read(Path::new(RESULTS), row).unwrap_or_else(|e| panic!("{e}"))
    }

    /// The row `row` of the results in `file`, or what is wrong (naming the file and the key).
    pub fn read(file: &Path, row: &str) -> Result<Self, String> {
        let name = file.display().to_string();
        let text = std::fs::read_to_string(file).map_err(|e| {
            format!(
                "{name}: cannot read the fidelity bench's results ({e}); run `npm run bench -- \
                 fidelity --json` and commit bench/results/fidelity.json"
            )
        })?;
        Self::parse(&name, &text, row)
    }

    /// The row `row` of results text `text` (read from `file`).
    pub fn parse(file: &str, text: &str, row: &str) -> Result<Self, String> {
        let json: serde_json::Value =
            serde_json::from_str(text).map_err(|e| format!("{file}: not JSON ({e})"))?;
        let figure = |key: String| -> Result<f64, String> {
            let entry = json
                .get("figures")
                .and_then(|f| f.get(&key))
                .ok_or_else(|| format!("{file} has no figure {key} (figures.\"{key}\")"))?;
            entry
                .get("value")
                .and_then(serde_json::Value::as_f64)
                .ok_or_else(|| {
                    format!("{file}: figure {key} has no number as its value (not measured?)")
                })
        };
        let trib = |field: &str| figure(format!("{row}.tributary.{field}"));
        Ok(Self {
            row: row.to_string(),
            file: file.to_string(),
            seconds: figure(format!("{row}.seconds"))?,
            p50: trib("pitch_ppm_p50")?,
            p99: trib("pitch_ppm_p99")?,
            gaps: trib("gaps")?,
            gap_ms: trib("gap_ms")?,
        })
    }

    /// Where a figure of this row comes from, for messages: `FILE ROW.tributary.FIELD`.
    pub fn source(&self, field: &str) -> String {
        let file = self
            .file
            .rsplit_once("/bench/")
            .map_or(self.file.clone(), |(_, f)| format!("bench/{f}"));
        format!("{file} {}.tributary.{field}", self.row)
    }
}

/// Every row the tests use is in the committed file, with every figure they read.
#[test]
fn the_committed_results_hold_every_row_the_tests_read() {
    for row in [
        "ffmpeg_48k.idle",
        "ffmpeg_48k.stress",
        "ffmpeg_44k.idle",
        "jitter.idle",
        "jitter.stress",
    ] {
        let p = Published::committed(row);
        assert!(p.seconds >= 10.0 && p.p50 >= 0.0 && p.p99 >= p.p50, "{p:?}");
    }
}

/// A file that is missing, or lacks a figure, or holds `null` for one, is an error naming the
/// file and the key; nothing falls back.
#[test]
fn a_missing_file_or_figure_fails_naming_file_and_key() {
    let missing = Path::new("/nonexistent/bench/results/fidelity.json");
    let e = Published::read(missing, "jitter.idle").unwrap_err();
    assert!(
        e.contains("/nonexistent/bench/results/fidelity.json"),
        "{e}"
    );
    let text = r#"{"figures": {"jitter.idle.seconds": {"value": 60},
        "jitter.idle.tributary.pitch_ppm_p50": {"value": 0.2},
        "jitter.idle.tributary.pitch_ppm_p99": {"value": null}}}"#;
    let e = Published::parse("fixture.json", text, "jitter.idle").unwrap_err();
    assert!(
        e.contains("fixture.json") && e.contains("jitter.idle.tributary.pitch_ppm_p99"),
        "{e}"
    );
    let e = Published::parse("fixture.json", text, "pulse.idle").unwrap_err();
    assert!(
        e.contains("fixture.json") && e.contains("pulse.idle.seconds"),
        "{e}"
    );
    let e = Published::parse("fixture.json", "{", "jitter.idle").unwrap_err();
    assert!(e.contains("fixture.json: not JSON"), "{e}");
}
