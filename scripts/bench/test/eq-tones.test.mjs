import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import {
  CENTRES,
  expectedDb,
  multiTone,
  POINTS,
  randomSettings,
  readWav,
  sliderCurveDb,
  toneAmplitudes,
  writeWav24,
} from '../eq-tones.mjs';

test('the slider curve: values at the centres, straight in log-frequency between, held beyond', () => {
  const gains = Array(18).fill(1);
  gains[3] = 2;
  gains[4] = 0.5;
  assert.equal(sliderCurveDb(gains, CENTRES[3]), 20 * Math.log10(2));
  const mid = Math.sqrt(CENTRES[3] * CENTRES[4]);
  assert.ok(Math.abs(sliderCurveDb(gains, mid)) < 1e-12, 'halfway between +6 and -6 dB');
  assert.ok(Math.abs(sliderCurveDb(gains, CENTRES[3] * 2 ** 0.125) - 3.0103) < 1e-3);
  gains[0] = 0;
  assert.equal(sliderCurveDb(gains, 20), -40, 'floor, held below b1');
  const point = POINTS.find((p) => p.kind === 'midpoint' && p.band === 3);
  assert.equal(POINTS.length, 35);
  assert.ok(Math.abs(expectedDb(gains, point) - sliderCurveDb(gains, point.freq)) < 1e-12);
  const settings = randomSettings(7, 3);
  assert.deepEqual(settings, randomSettings(7, 3), 'seeded');
  assert.ok(settings.flat().every((g) => g >= 0.25 && g <= 2));
});

test('tone amplitudes come back exactly, 12 Hz apart and 40 dB apart, through a 24-bit WAV', () => {
  const dir = mkdtempSync(join(tmpdir(), 'eq-tones-'));
  try {
    const rate = 48000;
    const freqs = POINTS.map((p) => p.freq);
    // Every other tone 40 dB down: leakage from the loud neighbours would show.
    const amps = freqs.map((_, i) => (i % 2 ? 0.0002 : 0.02));
    const x = new Float64Array(rate * 1.5);
    freqs.forEach((f, i) => {
      const tone = multiTone([f], rate, 1.5, amps[i]);
      for (let n = 0; n < x.length; n++) x[n] += tone[n];
    });
    const file = join(dir, 'tones.wav');
    writeWav24(file, x, rate);
    const read = readWav(file);
    assert.equal(read.rate, rate);
    const measured = toneAmplitudes(read.samples, rate, freqs, rate / 2, rate);
    measured.forEach((a, i) => {
      const err = 20 * Math.log10(a / amps[i]);
      assert.ok(Math.abs(err) < 0.01, `${freqs[i].toFixed(1)} Hz: ${err.toFixed(4)} dB`);
    });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
