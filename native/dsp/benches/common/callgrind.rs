//! The harness of the `instructions` benches (this crate's and the engine's, which includes this
//! file by `#[path]`), for `valgrind --tool=callgrind` (run by
//! `scripts/bench/bench-native-callgrind.mjs`). Wall-clock benchmarks on a shared machine are
//! noisy; instruction counts repeat exactly, so they are the fair way to compare one change with
//! the next. Each case runs one second of audio through a kernel inside `measured`, the only
//! function callgrind collects (`--toggle-collect=*measured*`); the script divides by the frames.
//!
//! `cargo bench -p CRATE --bench instructions -- CASE` runs one case (`list` names them).

/// Frames per call.
pub const BLOCK: usize = 1024;
/// Frames per case: one second at 48 kHz, in whole blocks.
pub const SECOND: usize = 48_000;

/// The only function callgrind counts: `blocks` calls of `f`.
#[inline(never)]
fn measured(blocks: usize, f: &mut dyn FnMut()) {
    for _ in 0..blocks {
        f();
    }
}

/// Runs `f` once unmeasured (first-call work), then one second's worth of blocks measured;
/// `INSTRUCTIONS_REPEAT=N` measures N seconds (a counter that sees the whole process, qemu's,
/// takes the difference of two runs: scripts/bench/bench-aarch64.mjs).
pub fn run(f: &mut dyn FnMut()) {
    f();
    let repeat: usize = std::env::var("INSTRUCTIONS_REPEAT")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(1);
    for _ in 0..repeat {
        measured(SECOND / BLOCK, f);
    }
}

/// (name, case); every case feeds the same number of input frames.
pub type Case = (&'static str, fn());

/// Lists the cases (`list`, or no argument) or runs the one named.
pub fn main(cases: &[Case]) {
    // `cargo bench` passes `--bench`; the case is the first other argument.
    let arg = std::env::args().skip(1).find(|a| !a.starts_with("--"));
    match arg.as_deref() {
        None | Some("list") => {
            for (name, _) in cases {
                println!("{name}");
            }
            println!("frames-per-case {}", SECOND / BLOCK * BLOCK);
        }
        Some(name) => match cases.iter().find(|(n, _)| *n == name) {
            Some((_, case)) => case(),
            None => {
                eprintln!("unknown case {name}; `list` names them");
                std::process::exit(2);
            }
        },
    }
}
