import assert from 'node:assert/strict';
import { test } from 'node:test';
import { channelS16, native, noise, peak, sineS16 } from './helpers.mjs';

const { Chain } = native;

test('a neutral chain returns the input bytes unchanged, whatever the pieces', () => {
  for (const format of ['s16le:48000:2', 's24be:96000:6:5.1', 's32le:44100:8']) {
    const chain = new Chain({ input: format, output: format });
    assert.equal(chain.isPassthrough, true);
    const input = noise(30_011);
    const parts = [];
    for (let pos = 0, k = 0; pos < input.length; k++) {
      const len = Math.min([1, 999, 4096, 7][k % 4], input.length - pos);
      parts.push(chain.process(input.subarray(pos, pos + len)));
      pos += len;
    }
    assert.ok(Buffer.concat(parts).equals(input), format);
  }
});

test('typed arrays are read through their view, not their whole buffer', () => {
  const chain = new Chain({ input: 's16le:48000:1', output: 's16le:48000:1' });
  const backing = new Int16Array([1, 2, 3, 4, 5, 6]);
  const view = new Int16Array(backing.buffer, 4, 3); // 3, 4, 5
  const out = chain.process(view);
  assert.deepEqual([...new Int16Array(out.buffer, out.byteOffset, 3)], [3, 4, 5]);
});

test('44.1 kHz to 48 kHz keeps the tone and yields the right number of frames', () => {
  const chain = new Chain({ input: 's16le:44100:2', output: 's16le:48000:2' });
  const out = chain.process(sineS16(1000, 44100, 0.5, 44100));
  const frames = out.length / 4;
  assert.ok(Math.abs(frames - (48000 - chain.latencyFrames)) <= 2, `${frames} frames`);
  const left = channelS16(out, 2, 0);
  let crossings = 0;
  for (let n = 2000; n < left.length; n++) if (left[n - 1] < 0 && left[n] >= 0) crossings++;
  const seconds = (left.length - 2000) / 48000;
  assert.ok(Math.abs(crossings / seconds - 1000) < 2, `${crossings / seconds} Hz`);
  assert.ok(Math.abs(peak(left, 2000) - 0.5) < 0.01);
});

test('live changes take effect: volume, EQ, matrix, normalisation and settings()', () => {
  const chain = new Chain({ input: 's16le:48000:2', output: 's16le:48000:2' });
  const tone = sineS16(1046.5, 48000, 0.4, 48000);
  assert.ok(Math.abs(peak(channelS16(chain.process(tone), 2, 0)) - 0.4) < 0.001);
  chain.set({ volume: 0.5 });
  assert.equal(chain.isPassthrough, false);
  const halved = channelS16(chain.process(tone), 2, 0);
  assert.ok(Math.abs(peak(halved, 4800) - 0.2) < 0.001, `peak ${peak(halved, 4800)}`);
  const eq = Array(18).fill(1);
  eq[8] = 2; // +6 dB at 1046.5 Hz
  chain.set({ eq });
  const boosted = channelS16(chain.process(tone), 2, 0);
  assert.ok(Math.abs(peak(boosted, 24000) - 0.4) < 0.005, `peak ${peak(boosted, 24000)}`);
  chain.set({
    matrix: [
      [0, 0],
      [1, 0],
    ],
  }); // left silent, right gets left
  const swapped = chain.process(tone);
  assert.ok(peak(channelS16(swapped, 2, 0), 4800) < 0.001);
  assert.ok(peak(channelS16(swapped, 2, 1), 4800) > 0.3);
  chain.set({ matrix: [], normalize: true, delayMs: 250, dither: false });
  const s = chain.settings();
  assert.equal(s.volume, 0.5);
  assert.equal(s.eq[8], 2);
  assert.deepEqual(s.matrix, []);
  assert.equal(s.normalize, true);
  assert.equal(s.delayMs, 250);
  // 250 ms of delay: after the tone stops, its last 12000 frames still come out.
  chain.set({ volume: 1, eq: Array(18).fill(1), normalize: false, delayMs: 250 });
  chain.process(tone);
  const delayed = channelS16(chain.process(Buffer.alloc(48000 * 4)), 2, 0);
  assert.ok(peak(delayed, 0) > 0.1, 'the delayed tone is still playing');
  assert.ok(peak(delayed, 13000) < 0.001, 'silence after the delay');
});

test('ratio adjustment needs a resampler and changes the output rate', () => {
  const plain = new Chain({ input: 's16le:48000:2', output: 's16le:48000:2' });
  assert.throws(
    () => plain.set({ ratioAdjust: 0.01 }),
    /no resampler.*driftCorrection|drift_correction/,
  );
  const drift = new Chain({
    input: 's16le:48000:2',
    output: 's16le:48000:2',
    driftCorrection: true,
  });
  drift.set({ ratioAdjust: 0.02 });
  const out = drift.process(Buffer.alloc(48000 * 4));
  const frames = out.length / 4;
  assert.ok(frames < 47300 && frames > 46700, `${frames} frames at +2 %`);
  assert.ok(drift.settings().ratioAdjust > 0.019);
});

test('processInto writes into a caller buffer and checks its size', () => {
  const chain = new Chain({ input: 's24le:96000:2', output: 's16le:48000:2' });
  const input = sineS16(440, 96000, 0.3, 9600, 3); // any bytes work: 9600 x 6 bytes
  const out = Buffer.alloc(chain.maxOutputBytes(input.length));
  const n = chain.processInto(input, out);
  assert.ok(n > 0 && n <= out.length && n % 4 === 0);
  assert.throws(() => chain.processInto(input, Buffer.alloc(8)), /output buffer too small/);
});

test('bad arguments throw clear errors instead of crashing', () => {
  assert.throws(
    () => new Chain({ input: 'u8:48000:2', output: 's16le:48000:2' }),
    /input: unknown sample format 'u8'/,
  );
  assert.throws(
    () => new Chain({ input: 's16le:48000:2', output: 's16le:12:2' }),
    /output: sample rate/,
  );
  assert.throws(
    () => new Chain({ input: 's16le:48000:2', output: 's16le:48000:2:5.1' }),
    /layout 5\.1 has 6 channels/,
  );
  assert.throws(
    () => new Chain({ input: 's16le:48000:2', output: 's16le:48000:2', volume: 2 }),
    /volume must be 0\.0-1\.0/,
  );
  assert.throws(
    () => new Chain({ input: 's16le:48000:2', output: 's16le:48000:2', eq: [1, 1] }),
    /18 band gains/,
  );
  assert.throws(
    () => new Chain({ input: 's16le:48000:2', output: 's16le:48000:2', eq: Array(18).fill(3) }),
    /band b1 must be 0\.0-2\.0/,
  );
  assert.throws(
    () => new Chain({ input: 's16le:48000:2', output: 's16le:48000:2', matrix: [[1, 0, 0]] }),
    /matrix/,
  );
  assert.throws(() => new Chain({ output: 's16le:48000:2' }), /input/);
  assert.throws(() => new Chain(), Error);
  const chain = new Chain({ input: 's16le:48000:2', output: 's16le:48000:2' });
  assert.throws(
    () => chain.process('not bytes'),
    /input must be a Buffer or an integer TypedArray of PCM bytes, got a value of type String/,
  );
  assert.throws(() => chain.process(new Float32Array(4)), /integer PCM samples/);
  assert.throws(() => chain.process([1, 2, 3]), /input must be a Buffer/);
  assert.throws(() => chain.set({ delayMs: 6000 }), /delay must be 0-5000 ms/);
  assert.throws(() => chain.set({ volume: Number.NaN }), /volume must be a finite number/);
  assert.throws(() => chain.set({ eq: 'loud' }), Error);
  // The chain still works after all of that.
  assert.equal(chain.process(Buffer.alloc(8)).length, 8);
});
