/** A band's centre frequency for a label: "65 Hz", "523 Hz", "1.0 kHz", "20 kHz". */
export function formatHz(hz: number): string {
  if (hz < 1000) return `${Math.round(hz)} Hz`;
  const k = hz / 1000;
  return `${k < 10 ? k.toFixed(1) : Math.round(k)} kHz`;
}

/** A linear band gain as decibels: 2.0 -> "+6.0 dB", 0 -> "−∞ dB". */
export function gainDb(gain: number): string {
  if (gain <= 0) return '−∞ dB';
  const db = 20 * Math.log10(gain);
  if (Math.abs(db) < 0.05) return '0.0 dB';
  return `${db > 0 ? '+' : '−'}${Math.abs(db).toFixed(1)} dB`;
}
