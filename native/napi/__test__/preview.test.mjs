import assert from 'node:assert/strict';
import { test } from 'node:test';
import { channelS16, native, noise, peak, sineS16 } from './helpers.mjs';

const { PathPreview } = native;

/** Runs `input` through a preview and flushes it with `tail` frames of silence. */
function run(preview, input, frameBytes = 4, tail = 400) {
  const out = Buffer.alloc(preview.maxOutputBytes(input.length));
  const parts = [out.subarray(0, preview.processInto(input, out))];
  const silence = Buffer.alloc(tail * frameBytes);
  const rest = Buffer.alloc(preview.maxOutputBytes(silence.length));
  parts.push(rest.subarray(0, preview.processInto(silence, rest)));
  return Buffer.concat(parts);
}

test('a neutral path copies 16- and 24-bit samples exactly, whatever the channel count', () => {
  for (const [format, frameBytes] of [
    ['s16le:48000:2', 4],
    ['s24le:96000:6:5.1', 18],
  ]) {
    const preview = new PathPreview({ input: format, output: format });
    const input = noise(3000 * frameBytes);
    const out = Buffer.alloc(preview.maxOutputBytes(input.length));
    const n = preview.processInto(input, out);
    // Time-aligned: what comes out is the input's first frames, the rest held back.
    assert.ok(n > 0 && n < input.length, `${n} bytes`);
    assert.ok(out.subarray(0, n).equals(input.subarray(0, n)), format);
    assert.equal(preview.inputFormat, preview.outputFormat);
  }
});

test('the volume is the gain a sink mixer applies; the delay is silence before the input', () => {
  const preview = new PathPreview({
    input: 's16le:48000:2',
    output: 's16le:48000:2',
    volume: 0.5,
    delayMs: 10,
    dither: false,
  });
  const out = run(preview, sineS16(1000, 48000, 0.8, 4800));
  const left = channelS16(out, 2, 0);
  assert.ok(
    left.subarray(0, 480).every((v) => v === 0),
    '10 ms of silence',
  );
  assert.ok(Math.abs(peak(left, 600) - 0.4) < 0.002, `${peak(left, 600)}`);
});

test('bad settings are refused naming the field; input must be whole frames', () => {
  const base = { input: 's16le:48000:2', output: 's16le:48000:2' };
  assert.throws(() => new PathPreview({ ...base, volume: 1.5 }), /volume: 1.5 is outside 0.0-1.0/);
  assert.throws(() => new PathPreview({ ...base, eq: [3, ...Array(17).fill(1)] }), /eq: band 1/);
  assert.throws(() => new PathPreview({ ...base, eq: [1, 1] }), /18 band gains/);
  assert.throws(() => new PathPreview({ ...base, volume: Number.NaN }), /volume must be a finite/);
  assert.throws(() => new PathPreview({ ...base, input: 's16le:48000' }), /input:/);
  const preview = new PathPreview(base);
  const out = Buffer.alloc(1024);
  assert.throws(() => preview.processInto(Buffer.alloc(6), out), /whole frames of 4 bytes/);
});
