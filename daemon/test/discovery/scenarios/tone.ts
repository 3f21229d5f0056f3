// Measuring a recorded test tone precisely: the longest steady stretch of the recording (no
// dropout, no burst), then the frequency of its loudest tone to a few hundredths of a hertz (a
// coarse scan over a short window, then the peak of the Hann-windowed spectrum of the whole
// stretch), its RMS level, and how much of another tone leaked in.

export interface Tone {
  /** Frequency of the loudest tone in the stretch, Hz. */
  readonly hz: number;
  /** RMS level of the stretch (full scale 1.0). */
  readonly rms: number;
  /** Length of the steady stretch measured, s. */
  readonly seconds: number;
  /** 10 ms blocks of the whole recording whose level was off the stretch's (dropouts, bursts). */
  readonly unsteady_blocks: number;
}

const BLOCK_S = 0.01;

/** Magnitude of the Hann-windowed spectrum of `x` at `hz` (amplitude of a tone, full scale 1). */
export function amplitudeAt(x: Float64Array, rate: number, hz: number): number {
  const n = x.length;
  const w = (2 * Math.PI * hz) / rate;
  let re = 0;
  let im = 0;
  // Rotating phasors instead of cos/sin per sample; renormalised every 4096 samples.
  let c = 1;
  let s = 0;
  const dc = Math.cos(w);
  const ds = Math.sin(w);
  let hc = 1;
  let hs = 0;
  const dhc = Math.cos((2 * Math.PI) / n);
  const dhs = Math.sin((2 * Math.PI) / n);
  for (let i = 0; i < n; i++) {
    const v = x[i]! * (0.5 - 0.5 * hc);
    re += v * c;
    im += v * s;
    [c, s] = [c * dc - s * ds, s * dc + c * ds];
    [hc, hs] = [hc * dhc - hs * dhs, hs * dhc + hc * dhs];
    if ((i & 4095) === 4095) {
      const m = Math.hypot(c, s);
      c /= m;
      s /= m;
      const h = Math.hypot(hc, hs);
      hc /= h;
      hs /= h;
    }
  }
  // A Hann window's coherent gain is 0.5.
  return (2 * Math.hypot(re, im)) / (0.5 * n);
}

function rmsOf(x: Float64Array): number {
  let e = 0;
  for (const v of x) e += v * v;
  return Math.sqrt(e / Math.max(1, x.length));
}

/**
 * The longest run of 10 ms blocks whose RMS stays within 30 % of the median block RMS of the
 * recording: where a stream plays steadily, without the silence of an underrun or a burst.
 */
export function steadyStretch(
  x: Float64Array,
  rate: number,
): { start: number; end: number; unsteady: number } {
  const size = Math.round(rate * BLOCK_S);
  const blocks: number[] = [];
  for (let at = 0; at + size <= x.length; at += size) blocks.push(rmsOf(x.subarray(at, at + size)));
  const sorted = [...blocks].sort((a, b) => a - b);
  const median = sorted[Math.floor(sorted.length / 2)] ?? 0;
  const ok = blocks.map((b) => median > 0 && Math.abs(b - median) <= 0.3 * median);
  let best = { from: 0, to: 0 };
  let from = 0;
  for (let i = 0; i <= ok.length; i++) {
    if (i < ok.length && ok[i]) continue;
    if (i - from > best.to - best.from) best = { from, to: i };
    from = i + 1;
  }
  return {
    start: best.from * size,
    end: best.to * size,
    unsteady: ok.filter((v) => !v).length,
  };
}

/**
 * The loudest tone between `lo` and `hi` Hz in the steady part of `samples` (mono, `rate` Hz),
 * measured over at most its last `maxSeconds`.
 */
export function measureTone(
  samples: Float64Array,
  rate: number,
  { lo = 50, hi = 5000, maxSeconds = 2 } = {},
): Tone {
  const { start, end, unsteady } = steadyStretch(samples, rate);
  // The end of the stretch: the latest audio of the recording.
  const length = Math.min(end - start, Math.round(maxSeconds * rate));
  const x = samples.subarray(end - length, end);
  const seconds = length / rate;
  if (length < rate * 0.1) return { hz: 0, rms: rmsOf(x), seconds, unsteady_blocks: unsteady };
  // Coarse: 0.1 s (Hann main lobe +-20 Hz), 5 Hz steps.
  const short = x.subarray(0, Math.round(rate * 0.1));
  let coarse = lo;
  let peak = -1;
  for (let hz = lo; hz <= hi; hz += 5) {
    const a = amplitudeAt(short, rate, hz);
    if (a > peak) [peak, coarse] = [a, hz];
  }
  // Fine: the whole stretch (main lobe +-2/seconds Hz), steps of a quarter of 1/seconds over
  // +-15 Hz, then golden-section search around the best step.
  const step = 0.25 / seconds;
  let best = coarse;
  peak = -1;
  for (let hz = coarse - 15; hz <= coarse + 15; hz += step) {
    const a = amplitudeAt(x, rate, hz);
    if (a > peak) [peak, best] = [a, hz];
  }
  let [a, b] = [best - step, best + step];
  const g = (Math.sqrt(5) - 1) / 2;
  let c = b - g * (b - a);
  let d = a + g * (b - a);
  let fc = amplitudeAt(x, rate, c);
  let fd = amplitudeAt(x, rate, d);
  while (b - a > 1e-4) {
    if (fc > fd) {
      [b, d, fd] = [d, c, fc];
      c = b - g * (b - a);
      fc = amplitudeAt(x, rate, c);
    } else {
      [a, c, fc] = [c, d, fd];
      d = a + g * (b - a);
      fd = amplitudeAt(x, rate, d);
    }
  }
  return { hz: (a + b) / 2, rms: rmsOf(x), seconds, unsteady_blocks: unsteady };
}
