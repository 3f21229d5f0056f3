// Drawing one frame of the visualizer on a 2D canvas: a waveform (the engine's min/max envelope,
// filled), a spectrum (an area over the 64 bands) or bars (32 groups with falling peak caps).
// Pure drawing from the latest levels.
import type { SinkLevels } from '../../api/schema';
import { group } from '../../lib/levels';

export interface Palette {
  line: string;
  grid: string;
  text: string;
}

/** What the bars keep between frames: their shown heights and peak caps (0 to 1). */
export interface Trace {
  bars: number[];
  caps: number[];
}

/** The spectrum's scale: -90 dBFS at the bottom, 0 at the top. */
const FLOOR_DB = -90;
const BAR_COUNT = 32;

const height01 = (db: number) => Math.min(1, Math.max(0, 1 - db / FLOOR_DB));

export function draw(
  g: CanvasRenderingContext2D,
  width: number,
  height: number,
  style: 'waveform' | 'spectrum' | 'bars',
  levels: SinkLevels | null,
  palette: Palette,
  trace: Trace,
  elapsedS: number,
) {
  g.clearRect(0, 0, width, height);
  const unit = Math.max(1, Math.round(height / 140));
  g.lineWidth = 2 * unit;
  g.strokeStyle = palette.line;
  g.fillStyle = palette.line;
  if (style === 'waveform') {
    drawEnvelope(g, width, height, levels?.wave_min ?? [], levels?.wave_max ?? []);
    return;
  }
  const spectrum = levels?.spectrum ?? [];
  if (style === 'spectrum') {
    g.beginPath();
    g.moveTo(0, height);
    const n = Math.max(spectrum.length, 1);
    spectrum.forEach((db, i) => {
      g.lineTo(((i + 0.5) / n) * width, height - height01(db) * height);
    });
    g.lineTo(width, height);
    g.closePath();
    g.globalAlpha = 0.35;
    g.fill();
    g.globalAlpha = 1;
    g.stroke();
    return;
  }
  const target = group(spectrum, BAR_COUNT).map((db) => (Number.isFinite(db) ? height01(db) : 0));
  const slot = width / BAR_COUNT;
  for (let i = 0; i < BAR_COUNT; i++) {
    // Bars rise at once and fall at about a screen height a second; caps fall slower.
    const bar = Math.max(target[i] ?? 0, (trace.bars[i] ?? 0) - elapsedS * 1.2);
    const cap = Math.max(bar, (trace.caps[i] ?? 0) - elapsedS * 0.4);
    trace.bars[i] = bar;
    trace.caps[i] = cap;
    const x = i * slot + slot * 0.15;
    const w = slot * 0.7;
    g.fillRect(x, height - bar * height, w, bar * height);
    if (cap > 0) g.fillRect(x, height - cap * height - 2 * unit, w, 2 * unit);
  }
}

/**
 * The waveform: the band between each stretch's lowest and highest sample, filled and outlined
 * (so a quiet passage is a thin line and a loud one a solid band, whatever its frequency).
 */
function drawEnvelope(
  g: CanvasRenderingContext2D,
  width: number,
  height: number,
  low: readonly number[],
  high: readonly number[],
) {
  const mid = height / 2;
  const reach = mid - g.lineWidth;
  const y = (v: number) => mid - Math.max(-1, Math.min(1, v)) * reach;
  const n = Math.min(low.length, high.length);
  g.beginPath();
  if (n < 2) {
    g.moveTo(0, mid);
    g.lineTo(width, mid);
    g.stroke();
    return;
  }
  const x = (i: number) => (i / (n - 1)) * width;
  for (let i = 0; i < n; i++) g.lineTo(x(i), y(high[i]!));
  for (let i = n - 1; i >= 0; i--) g.lineTo(x(i), y(low[i]!));
  g.closePath();
  g.fill();
  g.stroke();
}
