#!/usr/bin/env node
// How closely each 18-band equalizer follows its sliders: the same multi-tone input and the
// same slider settings through `tributary render`, ffmpeg's superequalizer, ffmpeg's 18 x
// `equalizer` biquads (a plain cascade) and GStreamer's equalizer-nbands, each measured at the
// 18 band centres and the 17 midpoints against the slider values (scripts/bench/eq-tones.mjs).
// Part of `npm run bench -- native`; runs alone too: `node scripts/bench/bench-native-eq.mjs`
// (after `npm run build`).
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { root, sh } from './bench-native-common.mjs';
import {
  bandPoints,
  CENTRES,
  errorStats,
  expectedDb,
  logSpaced,
  multiTone,
  POINTS,
  randomSettings,
  readWav,
  toneAmplitudes,
  writeWav24,
} from './eq-tones.mjs';

const AMP = 0.01;
// superequalizer is an FFT filter with latency: measure well after the start.
const SKIP_S = 1.5;

const dbOf = (g) => 20 * Math.log10(Math.max(g, 0.01));

/** superequalizer's bands are brick-wall ranges between the frequencies its options name (1b
 * is 0-65 Hz, 2b 65-92 Hz, ... 18b 16.7 kHz up): read fairly, at the middle of each range and
 * at the edges between them. */
const SUPER_MIDDLES = [
  CENTRES[0] * 2 ** -0.25,
  ...CENTRES.slice(0, 16).map((f, b) => Math.sqrt(f * CENTRES[b + 1])),
  CENTRES[16] * 2 ** 0.25,
];
const SUPER_POINTS = bandPoints(SUPER_MIDDLES, CENTRES.slice(0, 17));

/** The equalizers: a name, the id of its figures in bench/results/native.json, a function (input
 * WAV, output WAV, 18 slider values) that runs it, and optionally where its bands really are. */
export function equalizers() {
  const cli = join(root, 'daemon', 'dist', 'cli.js');
  const ffmpeg = (input, output, filter) =>
    sh('ffmpeg', ['-v', 'error', '-y', '-i', input, '-af', filter, '-c:a', 'pcm_s24le', output]);
  const superEq = (input, output, gains) =>
    ffmpeg(input, output, `superequalizer=${gains.map((g, i) => `${i + 1}b=${g}`).join(':')}`);
  const ours = (input, output, gains) =>
    sh(process.execPath, [
      cli,
      'render',
      '-q',
      '--in',
      input,
      '--out',
      output,
      '--eq',
      gains.join(','),
    ]);
  const biquads = (gains) =>
    CENTRES.map((f, i) => `equalizer=f=${f}:t=o:w=0.5:g=${dbOf(gains[i]).toFixed(4)}`).join(',');
  const tools = [
    { name: 'tributary render', id: 'tributary', run: ours },
    { name: 'ffmpeg superequalizer', id: 'ffmpeg_superequalizer', run: superEq },
    {
      name: '  the same, at its own band middles',
      id: 'ffmpeg_superequalizer_middles',
      run: superEq,
      points: SUPER_POINTS,
    },
    {
      name: 'ffmpeg 18 x equalizer (plain cascade)',
      id: 'ffmpeg_biquads',
      run: (input, output, gains) => ffmpeg(input, output, biquads(gains)),
    },
  ];
  if (spawnSync('gst-inspect-1.0', ['equalizer-nbands'], { stdio: 'ignore' }).status === 0) {
    // Its bands at our centres, half an octave wide (in Hz), its own end shelves kept.
    tools.push({
      name: 'gst equalizer-nbands',
      id: 'gst_equalizer_nbands',
      run: (input, output, gains) =>
        sh('gst-launch-1.0', [
          '-q',
          'filesrc',
          `location=${input}`,
          '!',
          'wavparse',
          '!',
          'audioconvert',
          '!',
          'equalizer-nbands',
          'num-bands=18',
          ...CENTRES.flatMap((f, i) => [
            `band${i}::freq=${f}`,
            `band${i}::bandwidth=${(f * (2 ** 0.25 - 2 ** -0.25)).toFixed(3)}`,
            `band${i}::gain=${dbOf(gains[i]).toFixed(4)}`,
          ]),
          '!',
          'audioconvert',
          '!',
          'audio/x-raw,format=S24LE',
          '!',
          'wavenc',
          '!',
          'filesink',
          `location=${output}`,
        ]),
    });
  }
  return tools;
}

/** Levels (dB) of `freqs` after `run` on a multi-tone input. */
function levels(run, dir, input, gains, freqs, window) {
  const output = join(dir, 'out.wav');
  run(input, output, gains);
  const { samples, rate } = readWav(output);
  const from = Math.round(SKIP_S * rate);
  return toneAmplitudes(samples, rate, freqs, from, Math.round(window * rate)).map(
    (a) => 20 * Math.log10(a / AMP),
  );
}

/** Measures every equalizer at `rate` over `settings`; returns per tool the centre and
 * midpoint error statistics and the largest error with all bands at 2.0 from 50 Hz to 15 kHz. */
export function measure({ rate = 48000, settings, tools = equalizers() }) {
  const dir = mkdtempSync(join(tmpdir(), 'tributary-eq-accuracy-'));
  try {
    const sweep = join(dir, 'sweep.wav');
    const sweepFreqs = logSpaced(50, 15000, 50);
    writeWav24(sweep, multiTone(sweepFreqs, rate, SKIP_S + 2.5, AMP), rate);
    const inputs = new Map();
    return tools.map(({ name, id, run, points = POINTS }) => {
      const pointFreqs = points.map((p) => p.freq);
      const input = join(dir, `points-${inputs.size}.wav`);
      if (!inputs.has(points)) {
        writeWav24(input, multiTone(pointFreqs, rate, SKIP_S + 1.5, AMP), rate);
        inputs.set(points, input);
      }
      const centre = [];
      const midpoint = [];
      for (const gains of settings) {
        const measured = levels(run, dir, inputs.get(points), gains, pointFreqs, 1);
        points.forEach((p, i) => {
          (p.kind === 'centre' ? centre : midpoint).push(measured[i] - expectedDb(gains, p));
        });
      }
      const up = levels(run, dir, sweep, Array(18).fill(2), sweepFreqs, 2).map((d) => d - dbOf(2));
      return {
        name,
        id,
        centre: errorStats(centre),
        midpoint: errorStats(midpoint),
        allUp: errorStats(up).max,
      };
    });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The settings the benchmark compares: its own alternating 1.6 / 0.6 and 20 seeded random
 * settings of 0.25-2.0 (the render test's generator). */
export function benchSettings() {
  return [
    Array.from({ length: 18 }, (_, i) => (i % 2 === 0 ? 1.6 : 0.6)),
    ...randomSettings(19, 20),
  ];
}

export function printAccuracy(rows, rate, count) {
  console.log(
    `\nEQ accuracy at ${rate} Hz: error against the slider values (dB), ${count} settings (the bench's 1.6/0.6 and ${count - 1} random 0.25-2.0), tones through each tool`,
  );
  console.log(
    `  ${'equalizer'.padEnd(38)} ${'centres max'.padStart(11)} ${'rms'.padStart(6)}   ${'midpoints max'.padStart(13)} ${'rms'.padStart(6)}   all 2.0, 50 Hz-15 kHz max`,
  );
  for (const r of rows) {
    console.log(
      `  ${r.name.padEnd(38)} ${r.centre.max.toFixed(2).padStart(11)} ${r.centre.rms.toFixed(2).padStart(6)}   ${r.midpoint.max.toFixed(2).padStart(13)} ${r.midpoint.rms.toFixed(2).padStart(6)}   ${r.allUp.toFixed(2).padStart(6)}`,
    );
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const settings = benchSettings();
  const rate = Number(process.env.BENCH_EQ_RATE ?? 48000);
  printAccuracy(measure({ rate, settings }), rate, settings.length);
}
