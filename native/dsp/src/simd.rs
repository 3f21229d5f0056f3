//! Which instruction set the optimised kernels run with, chosen once per process: the CPU's best,
//! or a lesser one named by `TRIBUTARY_SIMD` ([`SIMD_OVERRIDE_VAR`]) to run as a lesser CPU would.
//!
//! Kernels are written once as `#[inline(always)]` generic code and instantiated twice: plain
//! (baseline x86-64 SSE2, or any other target) and inside a `#[target_feature(enable = "avx2")]`
//! function, where LLVM vectorises the same loops 8 wide. Register-bound kernels (the EQ) are
//! instantiated a third time with AVX-512 enabled: the same 256-bit code then has 32 vector
//! registers instead of 16. Dispatch is an enum match outside the inner loops, never a `dyn`
//! call.

use std::sync::OnceLock;

mod x4;
pub(crate) use x4::X4;

/// The environment variable that lowers the instruction set the kernels dispatch to, so a
/// machine can run as a lesser CPU would: `sse2` (the x86-64 baseline), `avx2` or `avx512`. It
/// never raises it: asking for more than the CPU has dispatches to the CPU's best, with a
/// [`Dispatch::problem`] saying so. Read once per process.
pub const SIMD_OVERRIDE_VAR: &str = "TRIBUTARY_SIMD";

/// The instruction set a processor dispatches to, from the least to the most capable.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Isa {
    /// Portable code (still auto-vectorised for the baseline target: SSE2 on x86-64).
    Baseline,
    /// x86-64 with AVX2 and FMA (checked at run time).
    Avx2,
    /// AVX2 and FMA plus AVX-512F/VL (checked at run time): AVX2 kernels with 32 registers.
    Avx512,
}

/// The instruction set the kernels dispatch to, and why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Dispatch {
    /// The best instruction set this CPU supports.
    pub best: Isa,
    /// What the kernels use: `best`, lowered by [`SIMD_OVERRIDE_VAR`].
    pub used: Isa,
    /// The override as given (None when the variable is unset or empty).
    pub requested: Option<String>,
    /// Why the override was not followed as given (unknown name, more than the CPU has).
    pub problem: Option<String>,
}

impl Dispatch {
    /// The dispatch for a CPU whose best is `best`, with `requested` as the override's value.
    pub fn resolve(best: Isa, requested: Option<&str>) -> Dispatch {
        let requested = requested.map(str::trim).filter(|r| !r.is_empty());
        let (used, problem) = match requested.map(|r| (r, Isa::from_name(r))) {
            None => (best, None),
            Some((_, Some(isa))) if isa <= best => (isa, None),
            Some((r, Some(_))) => (
                best,
                Some(format!(
                    "{SIMD_OVERRIDE_VAR}={r} asks for more than this CPU has: using {}",
                    best.name()
                )),
            ),
            Some((r, None)) => (
                best,
                Some(format!(
                    "{SIMD_OVERRIDE_VAR}={r} is not one of {}: ignored, using {}",
                    Isa::ALL.map(Isa::name).join(", "),
                    best.name()
                )),
            ),
        };
        Dispatch {
            best,
            used,
            requested: requested.map(str::to_owned),
            problem,
        }
    }
}

/// This process's dispatch: the CPU's best, lowered by the override. Decided once.
pub fn dispatch() -> &'static Dispatch {
    static DISPATCH: OnceLock<Dispatch> = OnceLock::new();
    DISPATCH.get_or_init(|| {
        let requested = std::env::var(SIMD_OVERRIDE_VAR).ok();
        Dispatch::resolve(Isa::best_here(), requested.as_deref())
    })
}

impl Isa {
    /// Every instruction set, from the least capable.
    pub const ALL: [Isa; 3] = [Isa::Baseline, Isa::Avx2, Isa::Avx512];

    /// The name [`SIMD_OVERRIDE_VAR`] takes and reports give.
    pub fn name(self) -> &'static str {
        match self {
            Isa::Baseline => "sse2",
            Isa::Avx2 => "avx2",
            Isa::Avx512 => "avx512",
        }
    }

    /// The instruction set named `name` (case-insensitive; `baseline` is `sse2`).
    pub fn from_name(name: &str) -> Option<Isa> {
        let name = name.to_ascii_lowercase();
        if name == "baseline" {
            return Some(Isa::Baseline);
        }
        Isa::ALL.into_iter().find(|isa| isa.name() == name)
    }

    /// The instruction set the kernels dispatch to: [`Isa::best_here`], lowered by
    /// [`SIMD_OVERRIDE_VAR`] when it is set.
    pub fn detect() -> Isa {
        dispatch().used
    }

    /// The best instruction set this CPU supports, whatever the override says.
    pub fn best_here() -> Isa {
        Isa::ALL
            .into_iter()
            .rev()
            .find(|isa| isa.runs_here())
            .unwrap_or(Isa::Baseline)
    }

    /// True when AVX2 and FMA kernels may run.
    pub fn has_avx2(self) -> bool {
        self != Isa::Baseline
    }

    /// Every instruction set the kernels may use here, from [`Isa::Baseline`] up to
    /// [`Isa::detect`]'s choice. A machine dispatches to its best one only, but machines differ,
    /// so tests run the kernels of each of these against the scalar reference; with the override
    /// set, they test as the lesser CPU would.
    pub fn supported() -> Vec<Isa> {
        Isa::ALL
            .into_iter()
            .filter(|isa| *isa <= Isa::detect())
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

/// Dot product with 32 independent accumulators (eight vectors of four, [`X4`]), so the adds
/// pipeline. Same terms as [`dot_scalar`], summed in a different order; the same order on every
/// target. From plain code LLVM vectorised the 32 accumulators by splitting even and odd lanes,
/// with shuffles and spills (88 instructions per 32 terms with SSE2, against 24 now).
#[inline(always)]
pub(crate) fn dot(a: &[f32], b: &[f32]) -> f32 {
    let n = a.len().min(b.len());
    let (a, b) = (&a[..n], &b[..n]);
    let chunks = n / 32;
    let mut v = [X4::zero(); 8];
    for (x, y) in a.chunks_exact(32).zip(b.chunks_exact(32)) {
        for (u, v) in v.iter_mut().enumerate() {
            *v = *v + X4::load(x, 4 * u) * X4::load(y, 4 * u);
        }
    }
    let mut acc = [0.0f32; 32];
    for (u, v) in v.iter().enumerate() {
        v.store(&mut acc, 4 * u);
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
        eprintln!("instruction sets tested: {isas:?} ({:?})", dispatch());
        assert_eq!(isas.first(), Some(&Isa::Baseline));
        assert_eq!(isas.last(), Some(&Isa::detect()));
        assert!(isas.iter().all(|isa| isa.runs_here()));
        // Each level needs the one below it: AVX-512 kernels are AVX2 kernels with more registers.
        assert!(Isa::best_here().runs_here());
        assert!(!Isa::Avx512.runs_here() || Isa::Avx2.runs_here());
        #[cfg(target_arch = "x86_64")]
        assert_eq!(
            Isa::Avx2.runs_here(),
            std::arch::is_x86_feature_detected!("avx2")
                && std::arch::is_x86_feature_detected!("fma")
        );
    }

    #[test]
    fn the_override_in_this_process_is_followed_exactly() {
        // `npm test` runs this crate again with TRIBUTARY_SIMD set below the CPU's best: this
        // proves that run really dispatched lower (a misspelt value would test nothing).
        let d = dispatch();
        match std::env::var(SIMD_OVERRIDE_VAR)
            .ok()
            .filter(|v| !v.trim().is_empty())
        {
            None => assert_eq!((d.used, &d.problem), (Isa::best_here(), &None)),
            Some(v) => {
                let asked = Isa::from_name(v.trim())
                    .unwrap_or_else(|| panic!("{SIMD_OVERRIDE_VAR}={v} is not a known name"));
                assert_eq!(d.used, asked.min(Isa::best_here()), "{d:?}");
                assert_eq!(d.problem.is_some(), asked > Isa::best_here(), "{d:?}");
            }
        }
    }

    #[test]
    fn the_override_lowers_but_never_raises() {
        let r = |best, v| Dispatch::resolve(best, v);
        assert_eq!(r(Isa::Avx512, None).used, Isa::Avx512);
        assert_eq!(r(Isa::Avx512, Some("")).requested, None);
        assert_eq!(r(Isa::Avx512, Some("avx2")).used, Isa::Avx2);
        assert_eq!(r(Isa::Avx512, Some(" SSE2 ")).used, Isa::Baseline);
        assert_eq!(r(Isa::Avx2, Some("baseline")).used, Isa::Baseline);
        assert_eq!(r(Isa::Avx2, Some("avx2")).problem, None);
        let raised = r(Isa::Avx2, Some("avx512"));
        assert_eq!(raised.used, Isa::Avx2);
        assert!(raised.problem.unwrap().contains("more than this CPU has"));
        let unknown = r(Isa::Avx2, Some("scalar"));
        assert_eq!(
            (unknown.used, unknown.requested.as_deref()),
            (Isa::Avx2, Some("scalar"))
        );
        assert!(unknown
            .problem
            .unwrap()
            .contains("not one of sse2, avx2, avx512"));
        for isa in Isa::ALL {
            assert_eq!(Isa::from_name(isa.name()), Some(isa));
        }
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
