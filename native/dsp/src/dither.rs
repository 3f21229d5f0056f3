//! TPDF (triangular) dither for reducing bit depth.

/// Parallel noise streams: one xorshift32 state per lane of an 8-wide vector.
pub const LANES: usize = 8;

/// A tiny, fast, deterministic noise source: eight xorshift32 generators side by side (so a
/// vector kernel can step them all at once), each value the sum of two uniform variables, a
/// triangular density on (-1, 1) least-significant bits. Values come out in batches of eight,
/// lane by lane; the scalar [`Tpdf::next_lsb`] and the vector encoder draw the same sequence.
/// Deterministic so tests and renders repeat.
#[derive(Clone, Debug)]
pub struct Tpdf {
    state: [u32; LANES],
    batch: [f32; LANES],
    /// Next unread value of `batch` (`LANES` when it is spent).
    next: usize,
}

impl Default for Tpdf {
    fn default() -> Self {
        Tpdf::new(0x9E37_79B9)
    }
}

impl Tpdf {
    pub fn new(seed: u32) -> Self {
        let mut x = if seed == 0 { 0x1234_5678 } else { seed };
        // Distinct, non-zero lane seeds from one xorshift sequence.
        let state = std::array::from_fn(|_| {
            x = xorshift(x);
            x
        });
        Tpdf {
            state,
            batch: [0.0; LANES],
            next: LANES,
        }
    }

    /// One dither value in LSBs: the sum of two independent uniforms on [-0.5, 0.5), a
    /// triangular density on (-1, 1) with zero mean.
    #[inline(always)]
    pub fn next_lsb(&mut self) -> f32 {
        if self.next == LANES {
            self.batch = self.next_batch();
            self.next = 0;
        }
        self.next += 1;
        self.batch[self.next - 1]
    }

    /// True when the next value starts a fresh batch (vector kernels draw whole batches).
    #[inline(always)]
    #[cfg_attr(not(target_arch = "x86_64"), allow(dead_code))]
    pub(crate) fn at_batch_start(&self) -> bool {
        self.next == LANES
    }

    /// Eight values at once (the scalar reference of the vector step).
    #[inline(always)]
    pub(crate) fn next_batch(&mut self) -> [f32; LANES] {
        std::array::from_fn(|k| {
            let a = xorshift(self.state[k]);
            let b = xorshift(a);
            self.state[k] = b;
            unit(a) + unit(b) - 1.0
        })
    }

    /// The lane states, for vector kernels that step them in registers.
    #[inline(always)]
    #[cfg_attr(not(target_arch = "x86_64"), allow(dead_code))]
    pub(crate) fn state_mut(&mut self) -> &mut [u32; LANES] {
        &mut self.state
    }
}

#[inline(always)]
fn xorshift(mut x: u32) -> u32 {
    x ^= x << 13;
    x ^= x >> 17;
    x ^= x << 5;
    x
}

/// 24 random bits -> [0, 1).
#[inline(always)]
fn unit(x: u32) -> f32 {
    (x >> 8) as f32 * (1.0 / 16_777_216.0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn triangular_zero_mean_within_one_lsb() {
        let mut d = Tpdf::default();
        let n = 200_000;
        let (mut sum, mut sum_sq, mut centre) = (0.0f64, 0.0f64, 0usize);
        for _ in 0..n {
            let v = d.next_lsb();
            assert!(v > -1.0 && v < 1.0);
            sum += v as f64;
            sum_sq += (v * v) as f64;
            if v.abs() < 0.5 {
                centre += 1;
            }
        }
        assert!((sum / n as f64).abs() < 0.01);
        // Variance of TPDF with +-1 LSB support is 1/6.
        assert!((sum_sq / n as f64 - 1.0 / 6.0).abs() < 0.005);
        // Triangular: 75 % of the mass lies within +-0.5.
        assert!(((centre as f64 / n as f64) - 0.75).abs() < 0.01);
    }
}
