//! Four f32 lanes in one 128-bit register on the targets Tributary ships for: SSE2 on x86-64 and
//! NEON on aarch64, both part of the base architecture (no run-time check needed), plain arrays
//! elsewhere. Products and sums are separate operations, never fused, so code written with them
//! rounds exactly as the scalar code it mirrors: the portable kernels stay bit for bit what
//! they were, only no longer at the mercy of how LLVM vectorises them.

#[cfg(target_arch = "aarch64")]
use std::arch::aarch64::*;
#[cfg(target_arch = "x86_64")]
use std::arch::x86_64::*;

#[cfg(target_arch = "x86_64")]
type Raw = __m128;
#[cfg(target_arch = "aarch64")]
type Raw = float32x4_t;
#[cfg(not(any(target_arch = "x86_64", target_arch = "aarch64")))]
type Raw = [f32; 4];

/// Four lanes.
#[derive(Clone, Copy)]
pub(crate) struct X4(Raw);

impl X4 {
    #[inline(always)]
    pub fn zero() -> Self {
        #[cfg(target_arch = "x86_64")]
        // SAFETY: SSE2 is part of x86-64.
        return X4(unsafe { _mm_setzero_ps() });
        #[cfg(target_arch = "aarch64")]
        // SAFETY: NEON is part of aarch64.
        return X4(unsafe { vdupq_n_f32(0.0) });
        #[cfg(not(any(target_arch = "x86_64", target_arch = "aarch64")))]
        X4([0.0; 4])
    }

    /// Lanes `at..at + 4` of `s` (panics if `s` is shorter).
    #[inline(always)]
    pub fn load(s: &[f32], at: usize) -> Self {
        let s = &s[at..at + 4];
        #[cfg(target_arch = "x86_64")]
        // SAFETY: SSE2; `s` holds four floats.
        return X4(unsafe { _mm_loadu_ps(s.as_ptr()) });
        #[cfg(target_arch = "aarch64")]
        // SAFETY: NEON; `s` holds four floats.
        return X4(unsafe { vld1q_f32(s.as_ptr()) });
        #[cfg(not(any(target_arch = "x86_64", target_arch = "aarch64")))]
        X4([s[0], s[1], s[2], s[3]])
    }

    /// Writes the lanes to `s[at..at + 4]` (panics if `s` is shorter).
    #[inline(always)]
    pub fn store(self, s: &mut [f32], at: usize) {
        let s = &mut s[at..at + 4];
        #[cfg(target_arch = "x86_64")]
        // SAFETY: SSE2; `s` holds four floats.
        unsafe {
            _mm_storeu_ps(s.as_mut_ptr(), self.0)
        };
        #[cfg(target_arch = "aarch64")]
        // SAFETY: NEON; `s` holds four floats.
        unsafe {
            vst1q_f32(s.as_mut_ptr(), self.0)
        };
        #[cfg(not(any(target_arch = "x86_64", target_arch = "aarch64")))]
        s.copy_from_slice(&self.0);
    }
}

macro_rules! lanewise {
    ($trait:ident, $method:ident, $sse:ident, $neon:ident, $op:tt) => {
        impl std::ops::$trait for X4 {
            type Output = X4;
            #[inline(always)]
            fn $method(self, o: X4) -> X4 {
                #[cfg(target_arch = "x86_64")]
                // SAFETY: SSE2 is part of x86-64.
                return X4(unsafe { $sse(self.0, o.0) });
                #[cfg(target_arch = "aarch64")]
                // SAFETY: NEON is part of aarch64.
                return X4(unsafe { $neon(self.0, o.0) });
                #[cfg(not(any(target_arch = "x86_64", target_arch = "aarch64")))]
                X4(std::array::from_fn(|i| self.0[i] $op o.0[i]))
            }
        }
    };
}

lanewise!(Add, add, _mm_add_ps, vaddq_f32, +);
lanewise!(Sub, sub, _mm_sub_ps, vsubq_f32, -);
lanewise!(Mul, mul, _mm_mul_ps, vmulq_f32, *);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lanes_round_as_scalar_code_does() {
        let a = [0.1f32, -3.5e-20, 7.25, f32::MAX];
        let b = [3.0f32, 1.5e-20, -0.5, 2.0];
        let c = [1e-7f32, 2.0, 1e30, -1.0];
        let (va, vb, vc) = (X4::load(&a, 0), X4::load(&b, 0), X4::load(&c, 0));
        let mut out = [0.0f32; 6];
        (va * vb + vc - va).store(&mut out, 1);
        for i in 0..4 {
            let want = a[i] * b[i] + c[i] - a[i];
            assert_eq!(out[i + 1].to_bits(), want.to_bits(), "lane {i}");
        }
        assert_eq!((out[0], out[5]), (0.0, 0.0), "only four lanes written");
        X4::zero().store(&mut out, 2);
        assert_eq!(&out[2..6], &[0.0; 4]);
    }
}
