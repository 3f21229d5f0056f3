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

test('44.1 kHz to 48 kHz keeps the tone and yields the frames of the input time', () => {
  const preview = new PathPreview({ input: 's16le:44100:2', output: 's16le:48000:2' });
  const out = run(preview, sineS16(1000, 44100, 0.5, 44100), 4, 0);
  const left = channelS16(out, 2, 0);
  // Time-aligned: one second in, one second out less the few frames the conversion holds back.
  assert.ok(left.length <= 48000 && left.length > 47900, `${left.length} frames`);
  let crossings = 0;
  for (let n = 2000; n < left.length; n++) if (left[n - 1] < 0 && left[n] >= 0) crossings++;
  const seconds = (left.length - 2000) / 48000;
  assert.ok(Math.abs(crossings / seconds - 1000) < 2, `${crossings / seconds} Hz`);
  assert.ok(Math.abs(peak(left, 2000) - 0.5) < 0.01, `${peak(left, 2000)}`);
});

test('typed arrays are read through their view, not their whole buffer', () => {
  const preview = new PathPreview({ input: 's16le:48000:1', output: 's16le:48000:1' });
  const backing = new Int16Array(400).map((_, i) => i);
  const view = new Int16Array(backing.buffer, 200, 300); // 100, 101, ... 399
  const out = Buffer.alloc(preview.maxOutputBytes(view.byteLength));
  const n = preview.processInto(view, out);
  const got = new Int16Array(out.buffer, out.byteOffset, n / 2);
  assert.ok(n > 0, 'frames out');
  assert.deepEqual([...got], [...view.subarray(0, n / 2)]);
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
  assert.throws(() => preview.processInto(Buffer.alloc(8), Buffer.alloc(0)), /output must hold/);
  assert.throws(
    () => preview.processInto('not bytes', out),
    /input must be a Buffer or an integer TypedArray of PCM bytes, got a value of type String/,
  );
  assert.throws(() => preview.processInto(new Float32Array(4), out), /integer PCM samples/);
  assert.throws(() => preview.processInto([1, 2, 3], out), /input must be a Buffer/);
  assert.throws(() => new PathPreview({ ...base, output: 's16le:12:2' }), /output: sample rate/);
  assert.throws(
    () => new PathPreview({ ...base, output: 's16le:48000:2:5.1' }),
    /layout 5\.1 has 6 channels/,
  );
  // The preview still works after all of that.
  const pcm = Buffer.alloc(4 * 4800);
  assert.ok(preview.processInto(pcm, Buffer.alloc(preview.maxOutputBytes(pcm.length))) > 0);
});
