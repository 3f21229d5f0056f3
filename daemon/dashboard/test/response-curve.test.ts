import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  CURVE_MAX_DB,
  CURVE_MIN_DB,
  curvePath,
  describeCurve,
  xOfHz,
  yOfDb,
} from '../src/lib/response-curve';

test('the frequency axis is logarithmic from 20 Hz to 20 kHz', () => {
  assert.equal(xOfHz(20, 600), 0);
  assert.equal(xOfHz(20_000, 600), 600);
  assert.ok(Math.abs(xOfHz(632.5, 600) - 300) < 0.1);
  assert.equal(xOfHz(5, 600), 0);
  assert.equal(xOfHz(30_000, 600), 600);
});

test('the gain axis runs from the top (+12 dB) to the bottom (-24 dB), clamped', () => {
  assert.equal(yOfDb(CURVE_MAX_DB, 140), 0);
  assert.equal(yOfDb(CURVE_MIN_DB, 140), 140);
  assert.ok(Math.abs(yOfDb(0, 140) - (140 * 12) / 36) < 1e-9);
  assert.equal(yOfDb(-80, 140), 140);
});

test('the path goes through every point', () => {
  assert.equal(curvePath([20, 20_000], [0, 12], 600, 140), 'M0.0,46.7 L600.0,0.0');
});

test('the summary says flat, or where the curve peaks and dips', () => {
  assert.equal(describeCurve([20, 1000], [0.01, -0.02]), 'Flat: 0 dB at every frequency');
  assert.equal(
    describeCurve([65, 1047, 12_000], [6.02, 0, -20.5]),
    'Highest +6.0 dB at 65 Hz, lowest −20.5 dB at 12 kHz',
  );
  assert.equal(describeCurve([], []), 'No response yet');
});
