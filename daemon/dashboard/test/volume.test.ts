import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  formatDb,
  formatVolume,
  gainToPosition,
  KEY_STEP,
  positionToGain,
  RANGE_DB,
  stepGain,
  volumeDetail,
} from '../src/lib/volume';

test('the ends of the slider are silence and full volume', () => {
  assert.equal(positionToGain(0), 0);
  assert.equal(positionToGain(1), 1);
  assert.equal(gainToPosition(0), 0);
  assert.equal(gainToPosition(1), 1);
});

test('the slider moves in decibels: half-way is half the range down', () => {
  const gain = positionToGain(0.5);
  assert.ok(Math.abs(20 * Math.log10(gain) - -RANGE_DB / 2) < 0.1, `${gain}`);
  // -6 dB (0.5) sits near the top, not in the middle as on a linear slider.
  assert.ok(gainToPosition(0.5) > 0.85);
});

test('gain -> position -> gain keeps every saved value to 3 decimals', () => {
  for (let g = 1; g <= 1000; g++) {
    const gain = g / 1000;
    const back = positionToGain(gainToPosition(gain));
    // The bottom of the range (< -50 dB) is clamped to the first step.
    if (gain >= 0.004)
      assert.ok(Math.abs(back - gain) <= 0.0005 + gain * 1e-9, `${gain} -> ${back}`);
  }
});

test('what is shown is a level a person reads (a percentage of the slider); dB and the saved value in the details', () => {
  assert.equal(formatVolume(1), '100 %');
  assert.equal(formatVolume(0), '0 %');
  // -6 dB is near the top of a perceptual slider.
  assert.equal(formatVolume(0.5), '88 %');
  assert.equal(formatVolume(0.1), '60 %');
  assert.equal(volumeDetail(0.5), '−6.0 dB (gain 0.5)');
  assert.equal(volumeDetail(1), '0.0 dB (gain 1)');
  assert.equal(volumeDetail(0), 'silent (gain 0)');
  assert.equal(formatDb(0.1), '−20.0 dB');
});

test('keys step 2 dB, down to silence and back up', () => {
  const down = stepGain(1, -1);
  assert.ok(Math.abs(20 * Math.log10(down) + 2) < 0.05, `${down}`);
  assert.ok(Math.abs(20 * Math.log10(stepGain(down, 1))) < 0.05);
  let gain = 1;
  for (let i = 0; i < 40; i++) gain = stepGain(gain, -1);
  assert.equal(gain, 0);
  assert.ok(stepGain(0, 1) > 0);
  // From silence, up goes to the bottom step (rounded to a value the API stores).
  assert.ok(gainToPosition(stepGain(0, 1)) < 2 * KEY_STEP);
});
