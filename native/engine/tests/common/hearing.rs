//! What a listener hears of a recorded 16-bit tone: gaps (silent runs over 2 ms between the
//! first and the last sound) and the pitch per 0.5 s window (interpolated zero crossings,
//! precise to a fraction of a ppm on a clean tone). Included by the fidelity bench and the
//! tests (`#[path]`), so both measure the same way.
#![allow(dead_code)]

/// Frequency of a clean tone at `rate` by interpolated rising zero crossings.
pub fn precise_frequency(x: &[f64], rate: f64) -> Option<f64> {
    let mut first = None;
    let mut last = 0.0;
    let mut n = 0usize;
    for i in 1..x.len() {
        if x[i - 1] < 0.0 && x[i] >= 0.0 {
            let t = (i - 1) as f64 + x[i - 1] / (x[i - 1] - x[i]);
            first.get_or_insert(t);
            last = t;
            n += 1;
        }
    }
    let first = first?;
    (n > 10).then(|| (n - 1) as f64 * rate / (last - first))
}

/// What a listener hears.
#[derive(Debug)]
pub struct Heard {
    /// Silent runs longer than 2 ms between the first and the last sound: (start s, ms).
    pub gaps: Vec<(f64, f64)>,
    /// Pitch error (ppm against the tone's frequency) per 0.5 s window without a gap, from
    /// `settle_s` on.
    pub pitch_ppm: Vec<f64>,
    /// Seconds from the first to the last sound.
    pub seconds: f64,
}

impl Heard {
    pub fn gap_ms(&self) -> f64 {
        self.gaps.iter().map(|g| g.1).sum()
    }
}

/// Hears `x` (one channel at `rate`) playing a `freq` Hz tone.
pub fn hear(x: &[f64], rate: f64, freq: f64, settle_s: f64) -> Heard {
    let start = x.iter().position(|s| s.abs() > 0.01).unwrap_or(0);
    let end = x.iter().rposition(|s| s.abs() > 0.01).unwrap_or(0);
    let x = &x[start..end.max(start)];
    let mut gaps = Vec::new();
    let mut run = 0usize;
    let long = (rate * 0.002) as usize;
    for (i, s) in x.iter().enumerate() {
        if s.abs() < 1e-4 {
            run += 1;
        } else {
            if run > long {
                gaps.push(((i - run) as f64 / rate, run as f64 / rate * 1000.0));
            }
            run = 0;
        }
    }
    let window = (rate / 2.0) as usize;
    let pitch_ppm = x
        .chunks_exact(window)
        .enumerate()
        .filter(|(i, _)| *i as f64 * 0.5 >= settle_s)
        .filter(|(_, w)| !has_silence(w, 8))
        .filter_map(|(_, w)| precise_frequency(w, rate))
        .map(|f| (f / freq - 1.0) * 1e6)
        .collect();
    Heard {
        gaps,
        pitch_ppm,
        seconds: x.len() as f64 / rate,
    }
}

fn has_silence(x: &[f64], run: usize) -> bool {
    let mut n = 0;
    for s in x {
        n = if s.abs() < 1e-3 { n + 1 } else { 0 };
        if n >= run {
            return true;
        }
    }
    false
}

/// |x| at quantile `q` (NaN for none).
pub fn quantile_abs(values: &[f64], q: f64) -> f64 {
    let mut v: Vec<f64> = values.iter().map(|x| x.abs()).collect();
    v.sort_by(f64::total_cmp);
    v.get(((v.len() as f64 - 1.0) * q).round() as usize)
        .copied()
        .unwrap_or(f64::NAN)
}

/// Places (sample index) where a recorded `freq` Hz tone at `rate` jumps: a sine follows
/// x[n] = 2 cos(w) x[n-1] - x[n-2] to within quantisation, so a dropped or doubled stretch
/// (what a receiver that does not fill gaps writes when packets go missing) or a gap shows as
/// a residual far above it. Only where the tone plays, 10 ms after its first sound and before
/// its last (a player fades a stream in and out: the end of a stream is no jump).
pub fn jumps(x: &[f64], rate: f64, freq: f64) -> Vec<usize> {
    let edge = (rate * 0.01) as usize;
    let start = x.iter().position(|s| s.abs() > 0.01).unwrap_or(0) + edge;
    let end = x
        .iter()
        .rposition(|s| s.abs() > 0.01)
        .unwrap_or(0)
        .saturating_sub(edge);
    let c = 2.0 * (2.0 * std::f64::consts::PI * freq / rate).cos();
    let mut out: Vec<usize> = Vec::new();
    for n in (start + 2)..end {
        if (x[n] - (c * x[n - 1] - x[n - 2])).abs() > 0.02
            && out.last().is_none_or(|&last| n > last + 16)
        {
            out.push(n);
        }
    }
    out
}
