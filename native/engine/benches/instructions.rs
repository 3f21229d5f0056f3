//! Instruction counts of one path of the engine offline under callgrind (`tributary render`'s
//! work per block: decode, conversion, EQ, volume, encode), beside the DSP kernels' in
//! `native/dsp/benches/instructions.rs`, whose harness this bench shares.
//!
//! `cargo bench -p tributary-engine --bench instructions -- CASE` runs one case (`list` names
//! them).

#[path = "../../dsp/benches/common/callgrind.rs"]
mod callgrind;
#[path = "../tests/common/render_job.rs"]
mod render_job;

use callgrind::{run, Case, BLOCK};
use render_job::{all_bands, RenderJob};
use std::hint::black_box;

fn path(from: &str, to: &str) {
    let mut job = RenderJob::new(from, to, all_bands(), 0.8, BLOCK);
    let bytes = job.input_bytes().to_vec();
    run(&mut || {
        job.run(black_box(&bytes));
    });
}

const CASES: &[Case] = &[
    ("path-44k1-48k", || path("s16le:44100:2", "s16le:48000:2")),
    ("path-48k-48k", || path("s16le:48000:2", "s16le:48000:2")),
];

fn main() {
    callgrind::main(CASES);
}
