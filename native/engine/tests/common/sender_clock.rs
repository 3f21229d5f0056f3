//! How fast a real sender's clock runs against this machine's, from its RTP timestamps and
//! when its packets arrived: the earliest arrival of each second (the packets least delayed
//! by the network, the sender's scheduling and the machine's load) against their timestamps,
//! fitted with a line. A sender timed by the same clock reads near 0; one whose audio clock
//! runs fast (PulseAudio's null sink paces by timer) reads its real rate, which is the pitch a
//! receiver that follows the sender's clock plays.
#![allow(dead_code)]

/// Arrivals: (seconds since the first packet, RTP timestamp). Returns ppm (positive: the
/// sender's audio clock runs fast), or `None` with less than 5 seconds of packets.
pub fn sender_ppm(arrivals: &[(f64, u32)], clock_rate: u32) -> Option<f64> {
    let &(t0, ts0) = arrivals.first()?;
    let mut lows = std::collections::BTreeMap::<i64, f64>::new();
    for &(t, ts) in arrivals {
        let media_s = f64::from(ts.wrapping_sub(ts0)) / f64::from(clock_rate);
        // A packet's lateness against its timestamp (the unknown constant cancels out).
        let late = (t - t0) - media_s;
        let low = lows.entry((t - t0).floor() as i64).or_insert(late);
        *low = low.min(late);
    }
    // The first two seconds hold the sender's start-up; the last is partial.
    let mut fit: Vec<(f64, f64)> = lows
        .into_iter()
        .skip(2)
        .map(|(s, l)| (s as f64, l))
        .collect();
    fit.pop();
    if fit.len() < 5 {
        return None;
    }
    let n = fit.len() as f64;
    let (mx, my) = (
        fit.iter().map(|p| p.0).sum::<f64>() / n,
        fit.iter().map(|p| p.1).sum::<f64>() / n,
    );
    let sxy: f64 = fit.iter().map(|p| (p.0 - mx) * (p.1 - my)).sum();
    let sxx: f64 = fit.iter().map(|p| (p.0 - mx).powi(2)).sum();
    // Lateness falling over time: the audio comes faster than real time.
    Some(-sxy / sxx * 1e6)
}
