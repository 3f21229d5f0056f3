//! TPDF (triangular) dither for reducing bit depth.

/// A tiny, fast, deterministic noise source: xorshift32 feeding two uniform variables whose sum
/// is triangular on (-1, 1) least-significant bits. Deterministic so tests and renders repeat.
#[derive(Clone, Debug)]
pub struct Tpdf {
    state: u32,
}

impl Default for Tpdf {
    fn default() -> Self {
        Tpdf::new(0x9E37_79B9)
    }
}

impl Tpdf {
    pub fn new(seed: u32) -> Self {
        Tpdf {
            state: if seed == 0 { 0x1234_5678 } else { seed },
        }
    }

    #[inline(always)]
    fn next_unit(&mut self) -> f32 {
        let mut x = self.state;
        x ^= x << 13;
        x ^= x >> 17;
        x ^= x << 5;
        self.state = x;
        // 24 random bits -> [0, 1)
        (x >> 8) as f32 * (1.0 / 16_777_216.0)
    }

    /// One dither value in LSBs: the sum of two independent uniforms on [-0.5, 0.5), a
    /// triangular density on (-1, 1) with zero mean.
    #[inline(always)]
    pub fn next_lsb(&mut self) -> f32 {
        self.next_unit() + self.next_unit() - 1.0
    }
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
