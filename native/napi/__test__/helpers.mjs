// Signal helpers shared by the binding tests.
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
/** @type {typeof import('../index.js')} */
export const native = require('../index.js');

/** Interleaved s16le bytes of a sine on every channel. */
export function sineS16(freq, rate, amp, frames, channels = 2) {
  const out = new Int16Array(frames * channels);
  for (let n = 0; n < frames; n++) {
    const v = Math.round(amp * 32767 * Math.sin((2 * Math.PI * freq * n) / rate));
    for (let c = 0; c < channels; c++) out[n * channels + c] = v;
  }
  return Buffer.from(out.buffer);
}

/** Channel `c` of interleaved s16le bytes as numbers in [-1, 1). */
export function channelS16(buf, channels, c) {
  const view = new Int16Array(buf.buffer, buf.byteOffset, buf.length / 2);
  const out = new Float64Array(view.length / channels);
  for (let n = 0; n < out.length; n++) out[n] = view[n * channels + c] / 32768;
  return out;
}

/** Frequency of a clean tone by interpolated rising zero crossings (as the engine's tests). */
export function frequency(samples, rate) {
  let first = null;
  let last = 0;
  let n = 0;
  for (let i = 1; i < samples.length; i++) {
    if (samples[i - 1] < 0 && samples[i] >= 0) {
      const t = i - 1 + samples[i - 1] / (samples[i - 1] - samples[i]);
      first ??= t;
      last = t;
      n++;
    }
  }
  return n > 10 ? ((n - 1) * rate) / (last - first) : null;
}

/** RMS level in dBFS. */
export function rmsDb(samples) {
  let sum = 0;
  for (const v of samples) sum += v * v;
  return 10 * Math.log10(sum / samples.length);
}

/** Peak absolute value of samples from `from` on. */
export function peak(samples, from = 0) {
  let p = 0;
  for (let n = from; n < samples.length; n++) p = Math.max(p, Math.abs(samples[n]));
  return p;
}

/** Deterministic pseudo-random bytes. */
export function noise(length, seed = 1) {
  const out = Buffer.alloc(length);
  let x = seed >>> 0 || 1;
  for (let i = 0; i < length; i++) {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    out[i] = x & 0xff;
  }
  return out;
}

/** A Scream sink (48 kHz 16-bit stereo, `sink-1`) on 127.0.0.1:`port`, in the solver's shape. */
export function sinkTo(port, paths = []) {
  return {
    name: 'Kitchen',
    config_id: 'sink-1',
    ip: '127.0.0.1',
    port,
    protocol: 'scream',
    sample_rate: 48000,
    bit_depth: 16,
    channels: 2,
    channel_layout: 'stereo',
    volume_normalization: false,
    paths,
  };
}

/** A path from the source `id`, matched by nothing on the network (a memory source's). */
export function memoryPath(id) {
  return {
    source: id,
    source_config_id: id,
    ip: null,
    tag: null,
    rtp: null,
    volume: 1,
    eq: Array(18).fill(1),
    delay_ms: 0,
  };
}
