// The equalizer sounds like its sliders (issue 19): tones through `tributary render`, measured
// at the 18 band centres and the 17 midpoints between them, against the slider values alone.
// One render per setting: a multi-tone signal holding every test frequency, each measured by
// windowed projection (scripts/bench/eq-tones.mjs).
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { test } from 'node:test';
import {
  errorStats,
  expectedDb,
  logSpaced,
  multiTone,
  POINTS,
  randomSettings,
  readWav,
  toneAmplitudes,
  writeWav24,
} from '../../../scripts/bench/eq-tones.mjs';
import { run } from '../../src/commands/render.js';
import { runCommand, tempDir } from '../helpers.js';

const AMP = 0.01; // -40 dBFS per tone: 35 tones stay far from clipping after +6 dB
const SETTLE_S = 0.5; // filters settle before the measured second
const MEASURE_S = 1;

/** Renders `input` with `gains` and returns each tone's level in dB (0 dB = unchanged). */
async function levels(input: string, output: string, gains: number[], freqs: number[]) {
  const res = await runCommand(run, [
    '--in',
    input,
    '--out',
    output,
    '--eq',
    gains.join(','),
    '-q',
  ]);
  assert.equal(res.status, 0, res.stderr);
  const { samples, rate } = readWav(output);
  const from = Math.round(SETTLE_S * rate);
  const amps = toneAmplitudes(samples, rate, freqs, from, samples.length - from);
  return amps.map((a) => 20 * Math.log10(a / AMP));
}

const SETTINGS = randomSettings(19, 50);

for (const rate of [44100, 48000, 96000]) {
  test(`${rate} Hz: 50 random settings (0.25-2.0) within 0.5 dB at the centres and 1.0 dB between`, async (t) => {
    const dir = tempDir(t);
    const input = join(dir, 'tones.wav');
    const output = join(dir, 'out.wav');
    const freqs = POINTS.map((p) => p.freq);
    writeWav24(input, multiTone(freqs, rate, SETTLE_S + MEASURE_S, AMP), rate);
    const centre: number[] = [];
    const midpoint: number[] = [];
    const misses: string[] = [];
    for (const [k, gains] of SETTINGS.entries()) {
      const measured = await levels(input, output, gains, freqs);
      POINTS.forEach((p, i) => {
        const err = measured[i]! - expectedDb(gains, p);
        (p.kind === 'centre' ? centre : midpoint).push(err);
        const tolerance = p.kind === 'centre' ? 0.5 : 1.0;
        if (Math.abs(err) >= tolerance) {
          misses.push(
            `setting ${k} (${gains.join(',')}): ${p.kind} ${p.freq.toFixed(0)} Hz off by ${err.toFixed(2)} dB`,
          );
        }
      });
    }
    const c = errorStats(centre);
    const m = errorStats(midpoint);
    t.diagnostic(
      `${rate} Hz: centres max ${c.max.toFixed(3)} rms ${c.rms.toFixed(3)} dB, midpoints max ${m.max.toFixed(3)} rms ${m.rms.toFixed(3)} dB`,
    );
    assert.deepEqual(misses, []);
  });
}

test('all bands at 2.0 play +6.02 dB within 0.5 dB from 50 Hz to 15 kHz', async (t) => {
  const dir = tempDir(t);
  // Sixth-octave steps (6 Hz apart at 50 Hz): a two-second window keeps them apart.
  const freqs = logSpaced(50, 15000, 50);
  for (const rate of [44100, 48000, 96000]) {
    const input = join(dir, `flat-${rate}.wav`);
    writeWav24(input, multiTone(freqs, rate, SETTLE_S + 2, AMP), rate);
    const measured = await levels(input, join(dir, 'out.wav'), Array(18).fill(2), freqs);
    const errors = measured.map((db) => db - 20 * Math.log10(2));
    const { max } = errorStats(errors);
    t.diagnostic(`${rate} Hz: all at 2.0, max error ${max.toFixed(3)} dB from 50 Hz to 15 kHz`);
    const worst = errors.findIndex((e) => Math.abs(e) === max);
    assert.ok(
      max < 0.5,
      `${rate} Hz: ${errors[worst]!.toFixed(2)} dB off at ${freqs[worst]!.toFixed(0)} Hz`,
    );
  }
});

test('the measurement finds a known response: a tone cut by --volume, neighbours undisturbed', async (t) => {
  // The same tones through volume 0.5 (exactly -6.02 dB everywhere) and a flat equalizer, so a
  // broken measurement (leakage between tones, wrong window) cannot pass the tests above.
  const dir = tempDir(t);
  const input = join(dir, 'tones.wav');
  const output = join(dir, 'out.wav');
  const freqs = POINTS.map((p) => p.freq);
  writeWav24(input, multiTone(freqs, 48000, SETTLE_S + MEASURE_S, AMP), 48000);
  const res = await runCommand(run, ['--in', input, '--out', output, '--volume', '0.5', '-q']);
  assert.equal(res.status, 0, res.stderr);
  const { samples } = readWav(output);
  const amps = toneAmplitudes(samples, 48000, freqs, 24000, 48000);
  for (const [i, a] of amps.entries()) {
    const db = 20 * Math.log10(a / AMP);
    assert.ok(Math.abs(db + 6.0206) < 0.01, `${freqs[i]} Hz: ${db.toFixed(4)} dB`);
  }
});
