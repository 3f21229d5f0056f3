import assert from 'node:assert/strict';
import { test } from 'node:test';
import { channelS16, native, sineS16 } from './helpers.mjs';

const { PathPreview, eqResponse } = native;
const CENTRES = [
  65.406, 92.499, 130.81, 185.0, 261.63, 369.99, 523.25, 739.99, 1046.5, 1480.0, 2093.0, 2960.0,
  4186.0, 5919.9, 8372.0, 11840, 16744, 20000,
];
const FLAT = Array(18).fill(1);
const db = (v) => 20 * Math.log10(v);

/** Level in dB of a `freq` tone in `x` from sample `from` (least squares on sin/cos). */
function toneDb(x, freq, rate, from) {
  let [ss, cc, sc, sy, cy] = [0, 0, 0, 0, 0];
  for (let n = from; n < x.length; n++) {
    const s = Math.sin((2 * Math.PI * freq * n) / rate);
    const c = Math.cos((2 * Math.PI * freq * n) / rate);
    [ss, cc, sc, sy, cy] = [ss + s * s, cc + c * c, sc + s * c, sy + s * x[n], cy + c * x[n]];
  }
  const det = ss * cc - sc * sc;
  return db(Math.hypot((sy * cc - cy * sc) / det, (cy * ss - sy * sc) / det));
}

test('eqResponse: flat is 0 dB, one band is its slider at its centre, all up is +6 dB', () => {
  assert.deepEqual(eqResponse(FLAT, 48000, [20, 1000, 24000]), [0, 0, 0]);
  const one = [...FLAT];
  one[8] = 2;
  const [atCentre] = eqResponse(one, 48000, [CENTRES[8]]);
  assert.ok(Math.abs(atCentre - db(2)) < 0.3, `${atCentre}`);
  const freqs = Array.from({ length: 60 }, (_, k) => 50 * 300 ** (k / 59));
  for (const [i, r] of eqResponse(Array(18).fill(2), 44100, freqs).entries()) {
    assert.ok(Math.abs(r - db(2)) < 0.5, `${freqs[i]} Hz: ${r}`);
  }
});

test('eqResponse is what the engine plays: tones through a path with the same gains', () => {
  const rate = 48000;
  const gains = [
    1.8, 0.3, 1.2, 2, 0.6, 1, 0.25, 1.5, 0.9, 1.9, 0.5, 1.1, 0.7, 2, 1.4, 0.4, 1.6, 0.8,
  ];
  const freqs = [50, CENTRES[1], 160, CENTRES[6], 3000, CENTRES[13], 15000];
  const predicted = eqResponse(gains, rate, freqs);
  freqs.forEach((f, i) => {
    const path = new PathPreview({
      input: 's16le:48000:1',
      output: 's16le:48000:1',
      eq: gains,
      dither: false,
    });
    const input = sineS16(f, rate, 0.25, rate, 1);
    const rendered = Buffer.alloc(path.maxOutputBytes(input.length));
    const out = channelS16(rendered.subarray(0, path.processInto(input, rendered)), 1, 0);
    const measured = toneDb(out, f, rate, rate / 2) - db(0.25);
    assert.ok(
      Math.abs(measured - predicted[i]) < 0.02,
      `${f} Hz: played ${measured.toFixed(3)} dB, eqResponse ${predicted[i].toFixed(3)} dB`,
    );
  });
});

test('eqResponse refuses bad gains, rates and frequencies with the rule', () => {
  assert.throws(() => eqResponse([1, 1], 48000, [100]), /18 band gains/);
  assert.throws(() => eqResponse([...FLAT.slice(1), 2.5], 48000, [100]), /b18 must be 0\.0-2\.0/);
  assert.throws(() => eqResponse(FLAT, 4000, [100]), /sampleRate must be 8000-384000 Hz/);
  assert.throws(() => eqResponse(FLAT, 48000, [100, 30000]), /frequencies\[1\] must be 0-24000 Hz/);
  assert.throws(() => eqResponse(FLAT, 48000, [Number.NaN]), /frequencies\[0\]/);
});
