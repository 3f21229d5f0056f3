//! A small weighted least-squares solver on fixed-size arrays (no allocation): normal equations
//! with a tiny ridge term, solved by Cholesky. The design's systems are at most 18 unknowns and
//! a few dozen equations, well conditioned, so the normal equations lose nothing that matters.

use super::design::BANDS;

/// Rows of a system: at most this many design points.
pub(crate) const MAX_ROWS: usize = 2 * BANDS + 4;
/// Unknowns: a gain and a bandwidth per band.
pub(crate) const MAX_COLS: usize = 2 * BANDS;

/// `rows` x `cols` matrix of Jacobian entries, row-major in fixed storage.
pub(crate) type Matrix = [[f64; MAX_COLS]; MAX_ROWS];

/// The normal equations `J^T W J` and `J^T W r` of a weighted linear least-squares problem.
pub(crate) struct Normal {
    a: [[f64; MAX_COLS]; MAX_COLS],
    b: [f64; MAX_COLS],
    cols: usize,
}

impl Normal {
    pub(crate) fn new(
        j: &Matrix,
        r: &[f64; MAX_ROWS],
        w: &[f64; MAX_ROWS],
        rows: usize,
        cols: usize,
    ) -> Self {
        let mut n = Normal {
            a: [[0.0; MAX_COLS]; MAX_COLS],
            b: [0.0; MAX_COLS],
            cols,
        };
        for i in 0..rows {
            for p in 0..cols {
                let wp = w[i] * j[i][p];
                if wp == 0.0 {
                    continue;
                }
                n.b[p] += wp * r[i];
                for q in p..cols {
                    n.a[p][q] += wp * j[i][q];
                }
            }
        }
        n
    }

    /// The Levenberg-Marquardt step `x` minimising `sum_i w_i (J_i . x - r_i)^2 +
    /// sum_p ridge_p (x_p + from_p)^2 + damping sum_p D_pp x_p^2` (`D` the diagonal of the
    /// system with the ridge): a Gauss-Newton step from the point `from` that the ridge pulls
    /// towards zero, shortened and turned towards steepest descent as `damping` grows.
    pub(crate) fn step(
        &self,
        ridge: &[f64; MAX_COLS],
        from: &[f64; MAX_COLS],
        damping: f64,
    ) -> [f64; MAX_COLS] {
        let n = self.cols;
        let mut a = self.a;
        let mut b = self.b;
        for p in 0..n {
            a[p][p] = (a[p][p] + ridge[p]) * (1.0 + damping);
            b[p] -= ridge[p] * from[p];
            for q in 0..p {
                a[p][q] = a[q][p];
            }
        }
        cholesky_solve(&mut a, &mut b, n);
        b
    }
}

/// Solves `a x = b` in place (`b` becomes `x`) for a symmetric positive definite `a`.
fn cholesky_solve(a: &mut [[f64; MAX_COLS]; MAX_COLS], b: &mut [f64; MAX_COLS], n: usize) {
    // a = L L^T, L stored in the lower triangle.
    for k in 0..n {
        let mut d = a[k][k];
        for m in 0..k {
            d -= a[k][m] * a[k][m];
        }
        let d = d.max(1e-300).sqrt();
        a[k][k] = d;
        for i in k + 1..n {
            let mut s = a[i][k];
            for m in 0..k {
                s -= a[i][m] * a[k][m];
            }
            a[i][k] = s / d;
        }
    }
    for i in 0..n {
        let mut s = b[i];
        for m in 0..i {
            s -= a[i][m] * b[m];
        }
        b[i] = s / a[i][i];
    }
    for i in (0..n).rev() {
        let mut s = b[i];
        for m in i + 1..n {
            s -= a[m][i] * b[m];
        }
        b[i] = s / a[i][i];
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn recovers_an_exact_solution_and_fits_an_overdetermined_line() {
        // x = (1, -2, 0.5) from four exact equations.
        let mut j = [[0.0; MAX_COLS]; MAX_ROWS];
        let rows = [
            [1.0, 0.0, 0.0],
            [1.0, 1.0, 0.0],
            [0.0, 1.0, 2.0],
            [3.0, 0.0, 1.0],
        ];
        let mut r = [0.0; MAX_ROWS];
        for (i, row) in rows.iter().enumerate() {
            j[i][..3].copy_from_slice(row);
            r[i] = row[0] - 2.0 * row[1] + 0.5 * row[2];
        }
        let w = [1.0; MAX_ROWS];
        let x = Normal::new(&j, &r, &w, 4, 3).step(&[0.0; MAX_COLS], &[0.0; MAX_COLS], 0.0);
        for (got, want) in x.iter().zip([1.0, -2.0, 0.5]) {
            assert!((got - want).abs() < 1e-12, "{got} vs {want}");
        }
        // y = 2 t + 1 through noisy-free points, with one heavily down-weighted outlier.
        let mut j = [[0.0; MAX_COLS]; MAX_ROWS];
        let mut w = [1.0; MAX_ROWS];
        for t in 0..5 {
            j[t][0] = t as f64;
            j[t][1] = 1.0;
            r[t] = 2.0 * t as f64 + 1.0;
        }
        r[4] += 100.0;
        w[4] = 1e-12;
        let x = Normal::new(&j, &r, &w, 5, 2).step(&[0.0; MAX_COLS], &[0.0; MAX_COLS], 0.0);
        assert!(
            (x[0] - 2.0).abs() < 1e-6 && (x[1] - 1.0).abs() < 1e-6,
            "{x:?}"
        );
    }
}
