//! Prints, as JSON, the instruction set the DSP kernels dispatch to on this machine and the
//! CPU's best (`TRIBUTARY_SIMD` lowers the first; a value it cannot follow is explained on
//! stderr). `scripts/run-tests/test-masked-simd.mjs` asks it which instruction set to mask:
//! `cargo run -q -p tributary-dsp --example simd`.
use tributary_dsp::simd::dispatch;

fn main() {
    let d = dispatch();
    if let Some(problem) = &d.problem {
        eprintln!("{problem}");
    }
    println!(
        "{{\"best\":\"{}\",\"used\":\"{}\"}}",
        d.best.name(),
        d.used.name()
    );
}
