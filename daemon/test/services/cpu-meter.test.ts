// The CPU percentage /api/stats reports for the engine and each MP3 encoder: a counter's
// growth over at least half a second of wall-clock time, on one core's scale.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { CPU_WINDOW_S, CpuMeter } from '../../src/services/cpu-meter.js';

const close = (actual: number, expected: number, message?: string) =>
  assert.ok(
    Math.abs(actual - expected) < 1e-9,
    `${message ?? 'percent'}: ${actual} != ${expected}`,
  );

test('the percentage is CPU seconds over wall-clock seconds since the last window', () => {
  const meter = new CpuMeter(1000);
  close(meter.percent(0.25, 1500), 50);
  // The next window starts where the last ended: 0.3 s more CPU over 2 s is 15 %.
  close(meter.percent(0.55, 3500), 15);
  // More than one core busy reads above 100.
  close(meter.percent(2.55, 4500), 200);
});

test('readings inside a window repeat the last percentage and do not move the window', () => {
  const meter = new CpuMeter(0);
  close(meter.percent(0.1, 100), 0, 'nothing measured before the first window');
  close(meter.percent(0.2, 499), 0);
  close(meter.percent(0.25, CPU_WINDOW_S * 1000), 50);
  close(meter.percent(0.9, 700), 50, 'still the window that ended at 500 ms');
  // The window is measured from 500 ms, not from the reading at 700 ms.
  close(meter.percent(0.5, 1500), 25);
});

test('a counter that restarted from zero reads 0, never a negative percentage', () => {
  const meter = new CpuMeter(0);
  close(meter.percent(4, 1000), 400);
  close(meter.percent(0.1, 2000), 0);
  close(meter.percent(0.6, 3000), 50, 'the next window measures from the restarted counter');
});
