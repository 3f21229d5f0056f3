// Volume sliders on a perceptual scale: the slider position moves in decibels over a 50 dB range,
// so equal movements sound like equal steps; the bottom is silence. The API's value stays the
// linear gain 0.0-1.0, rounded to 3 decimals; the card shows the position as a percentage and
// the level in dB with the saved value in its details.

export const RANGE_DB = 50;
/** Position step of the Up/Down keys and the slider's arrow keys: 2 dB. */
export const KEY_STEP = 2 / RANGE_DB;

/** Slider position 0..1 -> linear gain 0..1. */
export function positionToGain(position: number): number {
  if (position <= 0) return 0;
  const p = Math.min(1, position);
  return Math.round(10 ** ((RANGE_DB * (p - 1)) / 20) * 1000) / 1000;
}

/** Linear gain 0..1 -> slider position 0..1. */
export function gainToPosition(gain: number): number {
  if (gain <= 0) return 0;
  return Math.min(1, Math.max(0.001, 1 + (20 * Math.log10(gain)) / RANGE_DB));
}

/** The gain in decibels, for display ("−6.0 dB", "−∞ dB"). */
export function formatDb(gain: number): string {
  if (gain <= 0) return '−∞ dB';
  const db = 20 * Math.log10(gain);
  const text = Math.abs(db) < 0.05 ? '0.0' : db.toFixed(1);
  return `${text.replace('-', '−')} dB`;
}

/** What a person reads: the slider's position as a percentage ("88 %" for 0.5). */
export function formatVolume(gain: number): string {
  return `${Math.round(gainToPosition(gain) * 100)} %`;
}

/** The details: the level in dB and the exact saved value ("−6.0 dB (gain 0.5)"). */
export function volumeDetail(gain: number): string {
  const level = gain <= 0 ? 'silent' : formatDb(gain);
  return `${level} (gain ${Number(gain.toFixed(3))})`;
}

/** The gain one key step up or down from `gain` (from silence, up goes to the bottom step). */
export function stepGain(gain: number, direction: 1 | -1): number {
  const position = gainToPosition(gain) + direction * KEY_STEP;
  if (position <= KEY_STEP / 2) return 0;
  return positionToGain(position);
}
