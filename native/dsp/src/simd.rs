//! Which instruction set the optimised kernels run with, chosen once per processor.
//!
//! Kernels are written once as `#[inline(always)]` generic code and instantiated twice: plain
//! (baseline x86-64 SSE2, or any other target) and inside a `#[target_feature(enable = "avx2")]`
//! function, where LLVM vectorises the same loops 8 wide. Register-bound kernels (the EQ) are
//! instantiated a third time with AVX-512 enabled: the same 256-bit code then has 32 vector
//! registers instead of 16. Dispatch is an enum match outside the inner loops, never a `dyn`
//! call.

/// The instruction set a processor dispatches to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Isa {
    /// Portable code (still auto-vectorised for the baseline target).
    Baseline,
    /// x86-64 with AVX2 and FMA (checked at run time).
    Avx2,
    /// AVX2 and FMA plus AVX-512F/VL (checked at run time): AVX2 kernels with 32 registers.
    Avx512,
}

impl Isa {
    /// The best instruction set this CPU supports.
    pub fn detect() -> Isa {
        [Isa::Avx512, Isa::Avx2]
            .into_iter()
            .find(|isa| isa.runs_here())
            .unwrap_or(Isa::Baseline)
    }

    /// True when AVX2 and FMA kernels may run.
    pub fn has_avx2(self) -> bool {
        self != Isa::Baseline
    }

    /// Every instruction set this CPU can run, from [`Isa::Baseline`] up to [`Isa::detect`]'s
    /// choice. A machine dispatches to its best one only, but machines differ, so tests run the
    /// kernels of each of these against the scalar reference.
    pub fn supported() -> Vec<Isa> {
        [Isa::Baseline, Isa::Avx2, Isa::Avx512]
            .into_iter()
            .filter(|isa| isa.runs_here())
            .collect()
    }

    /// True when this CPU has the features the instruction set's kernels use.
    pub fn runs_here(self) -> bool {
        #[cfg(target_arch = "x86_64")]
        {
            use std::arch::is_x86_feature_detected as has;
            let avx2 = has!("avx2") && has!("fma");
            match self {
                Isa::Baseline => true,
                Isa::Avx2 => avx2,
                Isa::Avx512 => avx2 && has!("avx512f") && has!("avx512vl"),
            }
        }
        #[cfg(not(target_arch = "x86_64"))]
        {
            self == Isa::Baseline
        }
    }
}

/// Dot product with 32 independent accumulators, so the adds pipeline and LLVM can keep four
/// 8-wide vector accumulators. Same terms as [`dot_scalar`], summed in a different order.
#[inline(always)]
pub(crate) fn dot(a: &[f32], b: &[f32]) -> f32 {
    let n = a.len().min(b.len());
    let (a, b) = (&a[..n], &b[..n]);
    let mut acc = [0.0f32; 32];
    let chunks = n / 32;
    for (x, y) in a.chunks_exact(32).zip(b.chunks_exact(32)) {
        for k in 0..32 {
            acc[k] += x[k] * y[k];
        }
    }
    let mut tail = 0.0f32;
    for k in chunks * 32..n {
        tail += a[k] * b[k];
    }
    let mut s = [0.0f32; 8];
    for k in 0..8 {
        s[k] = (acc[k] + acc[k + 8]) + (acc[k + 16] + acc[k + 24]);
    }
    ((s[0] + s[4]) + (s[1] + s[5])) + ((s[2] + s[6]) + (s[3] + s[7])) + tail
}

/// The scalar reference of [`dot`]: one accumulator, in order.
pub fn dot_scalar(a: &[f32], b: &[f32]) -> f32 {
    a.iter().zip(b).fold(0.0, |s, (x, y)| s + x * y)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn supported_runs_from_baseline_to_the_detected_best() {
        let isas = Isa::supported();
        eprintln!("instruction sets tested on this CPU: {isas:?}");
        assert_eq!(isas.first(), Some(&Isa::Baseline));
        assert_eq!(isas.last(), Some(&Isa::detect()));
        // Each level needs the one below it: AVX-512 kernels are AVX2 kernels with more registers.
        assert!(!isas.contains(&Isa::Avx512) || isas.contains(&Isa::Avx2));
        #[cfg(target_arch = "x86_64")]
        assert_eq!(
            isas.contains(&Isa::Avx2),
            std::arch::is_x86_feature_detected!("avx2")
                && std::arch::is_x86_feature_detected!("fma")
        );
    }

    #[test]
    fn dot_matches_the_scalar_reference_for_every_length() {
        for n in 0..200 {
            let a: Vec<f32> = (0..n)
                .map(|i| ((i * 7919) % 113) as f32 / 57.0 - 1.0)
                .collect();
            let b: Vec<f32> = (0..n)
                .map(|i| ((i * 104_729) % 97) as f32 / 48.0 - 1.0)
                .collect();
            let (x, y) = (dot(&a, &b), dot_scalar(&a, &b));
            assert!((x - y).abs() <= 1e-5 * (1.0 + y.abs()), "n={n}: {x} vs {y}");
        }
    }
}
