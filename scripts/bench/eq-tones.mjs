// Measuring an 18-band equalizer with tones: a multi-tone test signal, its levels after any
// equalizer (Tributary's `tributary render`, ffmpeg, GStreamer) by windowed projection, and the
// curve the sliders promise. Shared by the render accuracy test
// (daemon/test/commands/render-eq.test.ts), the benchmark's accuracy comparison
// (bench-native-eq.mjs) and the docs plot (plot-eq.mjs). Expected values come from the slider
// values alone, never from Tributary's filter code.
import { readFileSync, writeFileSync } from 'node:fs';

/** Band centres in Hz, b1..b18 (the documented table). */
export const CENTRES = [
  65.406, 92.499, 130.81, 185.0, 261.63, 369.99, 523.25, 739.99, 1046.5, 1480.0, 2093.0, 2960.0,
  4186.0, 5919.9, 8372.0, 11840, 16744, 20000,
];

/** The documented slider mapping: 20 log10(value), values below 0.01 count as 0.01. */
export const sliderDb = (value) => 20 * Math.log10(Math.max(value, 0.01));

/** The slider curve at `freq`: each slider's dB at its centre, straight lines in dB over
 * log-frequency between centres, the end values held beyond the ends. */
export function sliderCurveDb(gains, freq) {
  if (freq <= CENTRES[0]) return sliderDb(gains[0]);
  for (let b = 1; b < CENTRES.length; b++) {
    if (freq <= CENTRES[b]) {
      const t = Math.log(freq / CENTRES[b - 1]) / Math.log(CENTRES[b] / CENTRES[b - 1]);
      return sliderDb(gains[b - 1]) + t * (sliderDb(gains[b]) - sliderDb(gains[b - 1]));
    }
  }
  return sliderDb(gains[CENTRES.length - 1]);
}

/** Test points of a band layout: each band's centre, and between two bands the point `edges`
 * gives (by default the geometric midpoint). */
export function bandPoints(
  centres,
  edges = centres.slice(1).map((f, b) => Math.sqrt(f * centres[b])),
) {
  return centres.flatMap((f, b) =>
    b < edges.length
      ? [
          { freq: f, kind: 'centre', band: b },
          { freq: edges[b], kind: 'midpoint', band: b },
        ]
      : [{ freq: f, kind: 'centre', band: b }],
  );
}

/** The test points: the 18 centres and the 17 geometric midpoints between them. */
export const POINTS = bandPoints(CENTRES);

/** What the sliders promise at a test point: the slider value at a centre, the mean of the two
 * neighbours' dB at a midpoint (the straight line in log-frequency halfway). */
export function expectedDb(gains, point) {
  return point.kind === 'centre'
    ? sliderDb(gains[point.band])
    : (sliderDb(gains[point.band]) + sliderDb(gains[point.band + 1])) / 2;
}

/** `n` log-spaced frequencies from `lo` to `hi`. */
export const logSpaced = (lo, hi, n) =>
  Array.from({ length: n }, (_, k) => lo * (hi / lo) ** (k / (n - 1)));

/** A seeded generator of uniform numbers in [0, 1) (mulberry32). */
export function seeded(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** `count` settings of 18 slider values uniform in [lo, hi], rounded to 0.01 as a slider would. */
export function randomSettings(seed, count, lo = 0.25, hi = 2.0) {
  const next = seeded(seed);
  return Array.from({ length: count }, () =>
    Array.from({ length: 18 }, () => Math.round((lo + (hi - lo) * next()) * 100) / 100),
  );
}

/** A sum of sines at `freqs`, each of amplitude `amp`, with Schroeder phases (a low crest
 * factor), `seconds` long at `rate`. */
export function multiTone(freqs, rate, seconds, amp) {
  const n = Math.round(rate * seconds);
  const x = new Float64Array(n);
  freqs.forEach((f, k) => {
    const phase = (Math.PI * k * k) / freqs.length;
    // The sine by rotation (exact enough over a few seconds, far faster than Math.sin).
    const w = (2 * Math.PI * f) / rate;
    const c = Math.cos(w);
    const s = Math.sin(w);
    let re = Math.cos(phase);
    let im = Math.sin(phase);
    for (let i = 0; i < n; i++) {
      x[i] += amp * im;
      const next = re * c - im * s;
      im = re * s + im * c;
      re = next;
    }
  });
  return x;
}

/** The 4-term Blackman-Harris window: sidelobes below -92 dB, main lobe +-4 bins. */
function blackmanHarris(n) {
  const w = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    const t = (2 * Math.PI * i) / (n - 1);
    w[i] = 0.35875 - 0.48829 * Math.cos(t) + 0.14128 * Math.cos(2 * t) - 0.01168 * Math.cos(3 * t);
  }
  return w;
}

/** The amplitude of each of `freqs` in `x[from, from + length)`: windowed projection at the
 * exact frequency, so tones 4 / (length / rate) Hz or more apart do not disturb each other. */
export function toneAmplitudes(x, rate, freqs, from, length) {
  if (from + length > x.length) {
    throw new Error(`${x.length} samples, need ${from + length} to measure`);
  }
  const w = blackmanHarris(length);
  const sumW = w.reduce((a, b) => a + b, 0);
  return freqs.map((f) => {
    const step = (2 * Math.PI * f) / rate;
    const c = Math.cos(step);
    const s = Math.sin(step);
    let re = 1;
    let im = 0;
    let accRe = 0;
    let accIm = 0;
    for (let i = 0; i < length; i++) {
      const v = w[i] * x[from + i];
      accRe += v * re;
      accIm += v * im;
      const next = re * c - im * s;
      im = re * s + im * c;
      re = next;
    }
    return (2 * Math.hypot(accRe, accIm)) / sumW;
  });
}

/** Writes mono samples (-1..1) as a 24-bit PCM WAV file. */
export function writeWav24(file, x, rate) {
  const data = Buffer.alloc(3 * x.length);
  for (let i = 0; i < x.length; i++) {
    const v = Math.max(-8388608, Math.min(8388607, Math.round(x[i] * 8388608)));
    data.writeIntLE(v, 3 * i, 3);
  }
  const head = Buffer.alloc(44);
  head.write('RIFF', 0, 'latin1');
  head.writeUInt32LE(36 + data.length, 4);
  head.write('WAVEfmt ', 8, 'latin1');
  head.writeUInt32LE(16, 16);
  head.writeUInt16LE(1, 20); // PCM
  head.writeUInt16LE(1, 22); // mono
  head.writeUInt32LE(rate, 24);
  head.writeUInt32LE(rate * 3, 28);
  head.writeUInt16LE(3, 32);
  head.writeUInt16LE(24, 34);
  head.write('data', 36, 'latin1');
  head.writeUInt32LE(data.length, 40);
  writeFileSync(file, Buffer.concat([head, data]));
}

/** The first channel of an integer (16/24/32-bit) or 32-bit float WAV file, and its rate. */
export function readWav(file) {
  const buf = readFileSync(file);
  if (buf.toString('latin1', 0, 4) !== 'RIFF' || buf.toString('latin1', 8, 12) !== 'WAVE') {
    throw new Error(`${file} is not a WAV file`);
  }
  let pos = 12;
  let fmt = null;
  while (pos + 8 <= buf.length) {
    const id = buf.toString('latin1', pos, pos + 4);
    const size = buf.readUInt32LE(pos + 4);
    const body = pos + 8;
    if (id === 'fmt ') {
      const tag = buf.readUInt16LE(body);
      fmt = {
        float: tag === 3 || (tag === 0xfffe && buf.readUInt16LE(body + 24) === 3),
        channels: buf.readUInt16LE(body + 2),
        rate: buf.readUInt32LE(body + 4),
        bits: buf.readUInt16LE(body + 14),
      };
    } else if (id === 'data' && fmt) {
      const end =
        size === 0 || size === 0xffffffff ? buf.length : Math.min(body + size, buf.length);
      const bytes = fmt.bits / 8;
      const frame = bytes * fmt.channels;
      const n = Math.floor((end - body) / frame);
      const x = new Float64Array(n);
      const scale = 2 ** (fmt.bits - 1);
      for (let i = 0; i < n; i++) {
        const at = body + i * frame;
        x[i] = fmt.float ? buf.readFloatLE(at) : buf.readIntLE(at, bytes) / scale;
      }
      return { samples: x, rate: fmt.rate };
    }
    pos = body + size + (size % 2);
  }
  throw new Error(`${file}: no fmt and data chunks`);
}

/** Max and rms of absolute errors. */
export function errorStats(errors) {
  const abs = errors.map(Math.abs);
  return {
    max: Math.max(...abs),
    rms: Math.sqrt(abs.reduce((a, e) => a + e * e, 0) / abs.length),
  };
}
