import assert from 'node:assert/strict';
import { test } from 'node:test';
import { channelS16, native, peak, sineS16 } from './helpers.mjs';

const { Mixer } = native;

test('sums inputs with gains, padding shorter ones with silence', () => {
  const mixer = new Mixer({ format: 's16le:48000:2' });
  assert.equal(mixer.format, 's16le:48000:2:stereo');
  const a = sineS16(500, 48000, 0.2, 4800);
  const b = sineS16(500, 48000, 0.2, 2400);
  const out = mixer.mix([a, b], [1, 0.5]);
  assert.equal(out.length, a.length);
  const left = channelS16(out, 2, 0);
  assert.ok(Math.abs(peak(left.subarray(0, 2400)) - 0.3) < 0.002);
  assert.ok(Math.abs(peak(left.subarray(2400)) - 0.2) < 0.002);
});

test('overload saturates smoothly instead of wrapping', () => {
  const mixer = new Mixer({ format: 's16le:48000:1' });
  const loud = Buffer.from(new Int16Array(4800).fill(30000).buffer);
  const out = new Int16Array(mixer.mix([loud, loud, loud]).buffer);
  assert.ok(
    out.every((v) => v > 29000 && v < 32767),
    'positive, below full scale',
  );
});

test('bad arguments throw', () => {
  assert.throws(() => new Mixer({ format: 's16le:48000' }), /FORMAT:RATE:CHANNELS/);
  const mixer = new Mixer({ format: 's16le:48000:2' });
  assert.throws(() => mixer.mix([Buffer.alloc(4)], [1, 1]), /gains has 2 entries for 1 inputs/);
  assert.throws(
    () => mixer.mix([Buffer.alloc(4)], [Number.POSITIVE_INFINITY]),
    /gain must be a finite number/,
  );
  assert.equal(mixer.mix([]).length, 0);
});
