import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  bandCentreHz,
  fallTowards,
  formatDb,
  group,
  METER_FLOOR_DB,
  meterFraction,
  toDb,
} from '../src/lib/levels';

test('levels in decibels: full scale is 0 dB, half is -6 dB, silence reads silent', () => {
  assert.equal(toDb(1), 0);
  assert.ok(Math.abs(toDb(0.5) + 6.02) < 0.01);
  assert.equal(toDb(0), Number.NEGATIVE_INFINITY);
  assert.equal(formatDb(0.5), '-6.0 dB');
  assert.equal(formatDb(0), 'silent');
  assert.equal(formatDb(10 ** ((METER_FLOOR_DB - 1) / 20)), 'silent');
});

test('the meter is linear in decibels from the floor to full scale', () => {
  assert.equal(meterFraction(1), 1);
  assert.equal(meterFraction(2), 1);
  assert.equal(meterFraction(0), 0);
  assert.ok(Math.abs(meterFraction(10 ** (-30 / 20)) - 0.5) < 1e-9);
  assert.equal(meterFraction(10 ** (-70 / 20)), 0);
});

test('a peak meter rises at once and falls at 24 dB a second', () => {
  assert.equal(fallTowards(0.1, 0.5, 0.033), 0.5);
  const fallen = fallTowards(1, 0, 0.5);
  assert.ok(Math.abs(toDb(fallen) + 12) < 1e-9, `${toDb(fallen)}`);
  // Never below what is playing.
  assert.equal(fallTowards(1, 0.9, 1), 0.9);
});

test("bands are spaced as the engine's: 20 Hz to 20 kHz, or half the rate", () => {
  assert.ok(Math.abs(bandCentreHz(0, 64, 48_000) - 20 * 1000 ** (0.5 / 64)) < 1e-9);
  assert.ok(bandCentreHz(63, 64, 48_000) < 20_000 && bandCentreHz(63, 64, 48_000) > 18_000);
  assert.ok(bandCentreHz(63, 64, 16_000) < 8_000);
  // The band of the daemon test's 1 kHz tone.
  assert.ok(Math.abs(bandCentreHz(36, 64, 48_000) - 1028) < 2);
});

test('bars take the loudest of their bands', () => {
  assert.deepEqual(group([1, 5, 2, 8, 3, 3], 3), [5, 8, 3]);
  assert.deepEqual(group([1, 2, 3], 2), [1, 3]);
  assert.deepEqual(group([], 2), [0, 0]);
});
