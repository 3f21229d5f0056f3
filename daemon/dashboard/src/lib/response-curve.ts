// The equalizer's response curve as a drawing: log frequency across (20 Hz to 20 kHz), dB up
// (-24 to +12, clamped), and a sentence that says what it shows.

export const CURVE_MIN_DB = -24;
export const CURVE_MAX_DB = 12;
const LOW_HZ = 20;
const HIGH_HZ = 20_000;

/** x (0 to `width`) of a frequency on the log axis. */
export function xOfHz(hz: number, width: number): number {
  const f = Math.min(HIGH_HZ, Math.max(LOW_HZ, hz));
  return (Math.log(f / LOW_HZ) / Math.log(HIGH_HZ / LOW_HZ)) * width;
}

/** y (0 at the top to `height`) of a gain in dB, clamped to the scale. */
export function yOfDb(db: number, height: number): number {
  const d = Math.min(CURVE_MAX_DB, Math.max(CURVE_MIN_DB, db));
  return ((CURVE_MAX_DB - d) / (CURVE_MAX_DB - CURVE_MIN_DB)) * height;
}

/** An SVG path through the points. */
export function curvePath(
  frequencies: readonly number[],
  db: readonly number[],
  width: number,
  height: number,
): string {
  return frequencies
    .map((f, i) => {
      const x = xOfHz(f, width).toFixed(1);
      const y = yOfDb(db[i] ?? 0, height).toFixed(1);
      return `${i === 0 ? 'M' : 'L'}${x},${y}`;
    })
    .join(' ');
}

const hz = (f: number) =>
  f >= 1000 ? `${(f / 1000).toFixed(f >= 10_000 ? 0 : 1)} kHz` : `${Math.round(f)} Hz`;
const signed = (db: number) => `${db > 0 ? '+' : db < 0 ? '−' : ''}${Math.abs(db).toFixed(1)} dB`;

/** "Flat", or where the curve is highest and lowest. */
export function describeCurve(frequencies: readonly number[], db: readonly number[]): string {
  if (db.length === 0) return 'No response yet';
  let hi = 0;
  let lo = 0;
  db.forEach((d, i) => {
    if (d > db[hi]!) hi = i;
    if (d < db[lo]!) lo = i;
  });
  if (Math.abs(db[hi]!) < 0.05 && Math.abs(db[lo]!) < 0.05) return 'Flat: 0 dB at every frequency';
  return `Highest ${signed(db[hi]!)} at ${hz(frequencies[hi]!)}, lowest ${signed(db[lo]!)} at ${hz(frequencies[lo]!)}`;
}
