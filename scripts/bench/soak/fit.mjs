// The soak's trend figures: a least-squares line through (time, value) samples, and which
// samples count (those after the warm-up, when buffers, caches and JIT have settled).

/** Least-squares slope of `ys` against `xs`, in units of y per unit of x; null under 2 points. */
export function slope(xs, ys) {
  const n = xs.length;
  if (n < 2 || ys.length !== n) return null;
  let sx = 0;
  let sy = 0;
  for (let i = 0; i < n; i++) {
    sx += xs[i];
    sy += ys[i];
  }
  const mx = sx / n;
  const my = sy / n;
  let num = 0;
  let den = 0;
  for (let i = 0; i < n; i++) {
    num += (xs[i] - mx) * (ys[i] - my);
    den += (xs[i] - mx) ** 2;
  }
  return den === 0 ? null : num / den;
}

/**
 * Slope per hour of `field` over the samples (`{ at }` in ms from the start) taken after
 * `warmupMs`, scaled by `unit` (bytes per MB: 1e6). Null when fewer than 3 samples count.
 */
export function hourlySlope(samples, field, warmupMs, unit = 1) {
  const kept = samples.filter((s) => s.at >= warmupMs && Number.isFinite(s[field]));
  if (kept.length < 3) return null;
  const perMs = slope(
    kept.map((s) => s.at),
    kept.map((s) => s[field] / unit),
  );
  return perMs === null ? null : perMs * 3_600_000;
}

/** The warm-up left out of the fit: 10 minutes, or the first sixth of a shorter run. */
export function warmupMs(minutes) {
  return Math.min(10, minutes / 6) * 60_000;
}
