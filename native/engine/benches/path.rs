//! Criterion bench of one path of the engine offline, as `tributary render` runs it: s16 stereo
//! decoded, converted to the sink's rate, EQ (every band active) and volume, encoded. Throughput
//! is in input frames, so "elem/s" divided by the input rate is the x-realtime factor on one
//! core. `npm run bench -- native` prints it beside the DSP kernels.

#[path = "../tests/common/render_job.rs"]
mod render_job;

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use render_job::{all_bands, RenderJob};
use std::hint::black_box;
use tributary_engine::limits::EQ_BANDS;

const BLOCK: usize = 1024;

fn path(c: &mut Criterion) {
    let mut g = c.benchmark_group("path s16 stereo, EQ all bands + volume");
    g.throughput(Throughput::Elements(BLOCK as u64));
    for (name, from, to, eq, volume) in [
        (
            "44.1k -> 48k",
            "s16le:44100:2",
            "s16le:48000:2",
            all_bands(),
            0.8,
        ),
        (
            "48k -> 48k",
            "s16le:48000:2",
            "s16le:48000:2",
            all_bands(),
            0.8,
        ),
        (
            "neutral 48k",
            "s16le:48000:2",
            "s16le:48000:2",
            [1.0; EQ_BANDS],
            1.0,
        ),
    ] {
        let mut job = RenderJob::new(from, to, eq, volume, BLOCK);
        let bytes = job.input_bytes().to_vec();
        g.bench_function(name, |b| b.iter(|| job.run(black_box(&bytes))));
    }
    g.finish();
}

criterion_group!(benches, path);
criterion_main!(benches);
