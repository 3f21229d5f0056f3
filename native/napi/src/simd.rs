//! `simdDispatch()`: the instruction set the DSP kernels run with in this process (the CPU's
//! best, lowered by `TRIBUTARY_SIMD`), for `/api/stats` and the startup summary.

use napi_derive::napi;
use tributary_dsp::simd::{dispatch, Isa};

/// An instruction set the DSP kernels dispatch to (`sse2` is the x86-64 baseline).
#[napi(string_enum = "lowercase")]
pub enum InstructionSet {
    Sse2,
    Avx2,
    Avx512,
}

impl From<Isa> for InstructionSet {
    fn from(isa: Isa) -> Self {
        match isa {
            Isa::Baseline => InstructionSet::Sse2,
            Isa::Avx2 => InstructionSet::Avx2,
            Isa::Avx512 => InstructionSet::Avx512,
        }
    }
}

/// What the DSP kernels run with, and why.
#[napi(object)]
pub struct SimdDispatch {
    /// The best instruction set this CPU supports.
    pub best: InstructionSet,
    /// What the kernels use: `best`, or less when `TRIBUTARY_SIMD` asks for less.
    pub used: InstructionSet,
    /// Why `TRIBUTARY_SIMD` was not followed as given (an unknown name, more than the CPU has).
    pub problem: Option<String>,
}

/// The instruction set the DSP kernels run with in this process.
#[napi]
pub fn simd_dispatch() -> SimdDispatch {
    let d = dispatch();
    SimdDispatch {
        best: d.best.into(),
        used: d.used.into(),
        problem: d.problem.clone(),
    }
}
