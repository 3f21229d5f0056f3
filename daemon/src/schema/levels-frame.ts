// The binary encoding of a levels message on /ws/levels (`encoding=binary`, what the dashboard
// asks for): the engine's float32 values as they are, instead of decimal text. One frame is one
// LevelsMessage. Layout, little-endian:
//   u32     H: the length of the header
//   H bytes the header, UTF-8 JSON: `[sinks, sources]`, each a list of one array per sink or
//           source, `[config_id, name, channels, sample_rate, windows, sizes]`, `sizes` the
//           lengths of peak, rms and (detail=full) spectrum, wave_min and wave_max, in that order
//   0-3     zero bytes, to a multiple of 4
//   float32 every level's arrays, in the order of the header (sinks, then sources) and `sizes`
// Plain code (no TypeBox): the daemon encodes with it and the dashboard decodes with it.
import type { LevelsMessage, SinkLevels } from './levels.js';

/** The arrays of a level, in the order a frame carries them. */
export const LEVEL_ARRAYS = ['peak', 'rms', 'spectrum', 'wave_min', 'wave_max'] as const;
type ArrayName = (typeof LEVEL_ARRAYS)[number];

/** A sink's or source's levels to encode: arrays of any numbers (the engine's Float32Array). */
export type LevelsToEncode = Omit<SinkLevels, ArrayName> & {
  [K in ArrayName]?: ArrayLike<number>;
} & { peak: ArrayLike<number>; rms: ArrayLike<number> };

/** A sink's or source's fields in the header, by position (no names repeated 30 times a second). */
type HeaderLevel = [
  config_id: string,
  name: string,
  channels: number,
  sample_rate: number,
  windows: number,
  sizes: number[],
];
type Header = [sinks: HeaderLevel[], sources: HeaderLevel[]];

const align4 = (n: number) => (n + 3) & ~3;

/** One frame of `message`. */
export function encodeLevelsFrame(message: {
  sinks: LevelsToEncode[];
  sources: LevelsToEncode[];
}): Uint8Array {
  const arrays: ArrayLike<number>[] = [];
  const strip = (level: LevelsToEncode): HeaderLevel => {
    const { peak, rms, spectrum, wave_min, wave_max } = level;
    const carried = [peak, rms];
    if (spectrum && wave_min && wave_max) carried.push(spectrum, wave_min, wave_max);
    arrays.push(...carried);
    const { config_id, name, channels, sample_rate, windows } = level;
    return [config_id, name, channels, sample_rate, windows, carried.map((a) => a.length)];
  };
  const header: Header = [message.sinks.map(strip), message.sources.map(strip)];
  const text = new TextEncoder().encode(JSON.stringify(header));
  const start = align4(4 + text.length);
  const floats = arrays.reduce((n, a) => n + a.length, 0);
  const frame = new Uint8Array(start + 4 * floats);
  new DataView(frame.buffer).setUint32(0, text.length, true);
  frame.set(text, 4);
  const values = new Float32Array(frame.buffer, start, floats);
  let at = 0;
  for (const a of arrays) {
    values.set(a, at);
    at += a.length;
  }
  return frame;
}

/** A frame's message; throws (a RangeError or SyntaxError) if it is not one. */
export function decodeLevelsFrame(data: ArrayBuffer | Uint8Array): LevelsMessage {
  const bytes = data instanceof Uint8Array ? data : new Uint8Array(data);
  if (bytes.length < 4) throw new RangeError('a levels frame is at least 4 bytes');
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.length);
  const length = view.getUint32(0, true);
  if (4 + length > bytes.length) throw new RangeError('the header runs past the frame');
  const header = JSON.parse(new TextDecoder().decode(bytes.subarray(4, 4 + length))) as Header;
  let at = align4(4 + length);
  const take = (n: number): number[] => {
    if (!Number.isInteger(n) || n < 0 || at + 4 * n > bytes.length) {
      throw new RangeError('the values run past the frame');
    }
    const out = new Array<number>(n);
    for (let i = 0; i < n; i++) out[i] = view.getFloat32(at + 4 * i, true);
    at += 4 * n;
    return out;
  };
  const level = (h: HeaderLevel): SinkLevels => {
    const [config_id, name, channels, sample_rate, windows, sizes] = h;
    const out: SinkLevels = { config_id, name, channels, sample_rate, windows, peak: [], rms: [] };
    out.peak = take(sizes[0] ?? 0);
    out.rms = take(sizes[1] ?? 0);
    if (sizes.length === LEVEL_ARRAYS.length) {
      out.spectrum = take(sizes[2] ?? 0);
      out.wave_min = take(sizes[3] ?? 0);
      out.wave_max = take(sizes[4] ?? 0);
    }
    return out;
  };
  if (!Array.isArray(header) || !Array.isArray(header[0]) || !Array.isArray(header[1])) {
    throw new RangeError('the header is not [sinks, sources]');
  }
  const sinks = header[0].map(level);
  const sources = header[1].map(level);
  return { type: 'levels', sinks, sources };
}
