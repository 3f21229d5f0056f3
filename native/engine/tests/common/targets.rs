//! A bench's targets: each a figure of its JSON line, a comparison and a limit. A run that misses
//! one prints it and exits 1, unless `--report-only` (`args.rs`); the JSON line lists the targets
//! beside the figures, and `scripts/bench/bench-*.mjs` judge by them. Included by `#[path]`.
#![allow(dead_code)]

/// (figure in the JSON line, comparison `<=`, `<` or `==`, limit).
pub type Target = (&'static str, &'static str, f64);

/// Whether `value` meets the target `(op, limit)`; a figure not measured (NaN) is not judged.
pub fn meets(value: f64, op: &str, limit: f64) -> bool {
    value.is_nan()
        || match op {
            "<=" => value <= limit,
            "<" => value < limit,
            _ => value == limit,
        }
}

/// The targets that `values` (one per target, in order) miss, as `figure value (target op limit)`.
pub fn missed(targets: &[Target], values: &[f64]) -> Vec<String> {
    targets
        .iter()
        .zip(values)
        .filter(|((_, op, limit), v)| !meets(**v, op, *limit))
        .map(|((name, op, limit), v)| format!("{name} {v} (target {op} {limit})"))
        .collect()
}

/// The targets as the elements of a JSON array: `{"figure":…,"op":…,"limit":…}`.
pub fn json(targets: &[Target]) -> String {
    targets
        .iter()
        .map(|(f, op, l)| format!("{{\"figure\":\"{f}\",\"op\":\"{op}\",\"limit\":{l}}}"))
        .collect::<Vec<_>>()
        .join(",")
}

/// Prints every target missed and exits 1 if there is one, unless `report_only`.
pub fn finish(missed: &[String], report_only: bool) {
    for m in missed {
        println!("  target missed: {m}");
    }
    if !missed.is_empty() && !report_only {
        std::process::exit(1);
    }
}
