// Pure helpers for level meters and the visualizer: decibels, the meter's scale, and the
// spectrum's band frequencies (as the engine spaces them: log-spaced, 20 Hz to 20 kHz or half
// the sample rate).

/** The bottom of the meters' scale, dBFS. */
export const METER_FLOOR_DB = -60;

/** A linear level (1.0 is full scale) in dBFS; -Infinity for silence. */
export function toDb(linear: number): number {
  return linear > 0 ? 20 * Math.log10(linear) : Number.NEGATIVE_INFINITY;
}

/** Where a level sits on a meter, 0 (at or below the floor) to 1 (full scale). */
export function meterFraction(linear: number, floorDb = METER_FLOOR_DB): number {
  const db = toDb(linear);
  if (!(db > floorDb)) return 0;
  return Math.min(1, 1 - db / floorDb);
}

/** How a level reads: "-12.3 dB", or "silent" below the floor. */
export function formatDb(linear: number, floorDb = METER_FLOOR_DB): string {
  const db = toDb(linear);
  return db > floorDb ? `${db.toFixed(1)} dB` : 'silent';
}

/** The centre frequency of band `b` of `count` bands at `sampleRate`. */
export function bandCentreHz(b: number, count: number, sampleRate: number): number {
  const high = Math.min(20_000, sampleRate / 2);
  return 20 * (high / 20) ** ((b + 0.5) / count);
}

/**
 * A meter's falling edge: rises at once, falls at `dbPerSecond` (the ballistics of a peak
 * meter), so a level that flickers at 30 Hz still reads steadily.
 */
export function fallTowards(shown: number, target: number, elapsedS: number, dbPerSecond = 24) {
  if (target >= shown) return target;
  const fallen = shown * 10 ** (-(dbPerSecond * elapsedS) / 20);
  return Math.max(target, fallen);
}

/** Averages `values` into `count` groups (the visualizer's bars from 64 bands). */
export function group(values: readonly number[], count: number): number[] {
  if (values.length === 0) return new Array<number>(count).fill(0);
  const out: number[] = [];
  for (let i = 0; i < count; i++) {
    const from = Math.floor((i * values.length) / count);
    const to = Math.max(from + 1, Math.floor(((i + 1) * values.length) / count));
    let max = Number.NEGATIVE_INFINITY;
    for (let k = from; k < to; k++) max = Math.max(max, values[k] ?? max);
    out.push(max);
  }
  return out;
}
