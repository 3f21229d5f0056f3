//! Signal generators and measurements shared by the unit tests.

use crate::buffer::AudioBuffer;

/// `amp * sin(2 pi f n / rate)` for `n` samples.
pub fn sine(freq: f64, rate: f64, amp: f64, n: usize) -> Vec<f32> {
    (0..n)
        .map(|i| (amp * (2.0 * std::f64::consts::PI * freq * i as f64 / rate).sin()) as f32)
        .collect()
}

/// Least-squares fit of `a sin + b cos + c` at a known frequency: returns (amplitude, phase,
/// rms of what is left).
pub fn fit_sine(x: &[f32], freq: f64, rate: f64) -> (f64, f64, f64) {
    let w = 2.0 * std::f64::consts::PI * freq / rate;
    let mut m = [[0.0f64; 3]; 3];
    let mut v = [0.0f64; 3];
    for (n, &y) in x.iter().enumerate() {
        let basis = [(w * n as f64).sin(), (w * n as f64).cos(), 1.0];
        for i in 0..3 {
            v[i] += basis[i] * y as f64;
            for j in 0..3 {
                m[i][j] += basis[i] * basis[j];
            }
        }
    }
    let coef = solve3(m, v);
    let mut err = 0.0;
    for (n, &y) in x.iter().enumerate() {
        let model = coef[0] * (w * n as f64).sin() + coef[1] * (w * n as f64).cos() + coef[2];
        err += (y as f64 - model).powi(2);
    }
    (
        coef[0].hypot(coef[1]),
        coef[1].atan2(coef[0]),
        (err / x.len() as f64).sqrt(),
    )
}

fn solve3(mut m: [[f64; 3]; 3], mut v: [f64; 3]) -> [f64; 3] {
    for col in 0..3 {
        let pivot = (col..3)
            .max_by(|a, b| m[*a][col].abs().total_cmp(&m[*b][col].abs()))
            .unwrap();
        m.swap(col, pivot);
        v.swap(col, pivot);
        for row in 0..3 {
            if row != col {
                let f = m[row][col] / m[col][col];
                for k in 0..3 {
                    m[row][k] -= f * m[col][k];
                }
                v[row] -= f * v[col];
            }
        }
    }
    [v[0] / m[0][0], v[1] / m[1][1], v[2] / m[2][2]]
}

pub fn db(x: f64) -> f64 {
    20.0 * x.log10()
}

pub fn rms(x: &[f32]) -> f64 {
    (x.iter().map(|v| (*v as f64).powi(2)).sum::<f64>() / x.len().max(1) as f64).sqrt()
}

/// A buffer with the same signal on every channel.
pub fn buffer_of(signal: &[f32], channels: usize) -> AudioBuffer {
    let planes: Vec<&[f32]> = (0..channels).map(|_| signal).collect();
    AudioBuffer::from_planes(&planes).unwrap()
}
