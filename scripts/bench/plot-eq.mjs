#!/usr/bin/env node
// Draws the equalizer's measured response for three built-in presets beside their slider
// values, for the docs (site/public/images/eq-presets.svg). The curves are measurements: tones
// through `tributary render` (the built CLI; run `npm run build` first), read back by windowed
// projection (eq-tones.mjs), not the design's own formula.
// `node scripts/bench/plot-eq.mjs [out.svg]`.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { root, sh } from './bench-native-common.mjs';
import {
  CENTRES,
  logSpaced,
  multiTone,
  readWav,
  sliderDb,
  toneAmplitudes,
  writeWav24,
} from './eq-tones.mjs';

const RATE = 48000;
const AMP = 0.01;
const PRESETS = ['Bass Boost', 'Vocal', 'Loudness'];
const out = process.argv[2] ?? join(root, 'site', 'public', 'images', 'eq-presets.svg');

// 1/12-octave tones from 25 Hz to 20 kHz, in four interleaved renders (third-octave apart
// within one, so a 1.5 s window keeps them apart), plus the band centres.
const curve = logSpaced(25, 20000, 117);
const groups = [0, 1, 2, 3].map((g) => curve.filter((_, i) => i % 4 === g));
groups.push(CENTRES);

const { defaultEqualizers } = await import(join(root, 'daemon', 'dist', 'config', 'defaults.js'));
const presets = PRESETS.map((name) => {
  const p = defaultEqualizers().equalizers.find((e) => e.name === name);
  if (!p) throw new Error(`no built-in preset named ${name}`);
  return { name, gains: CENTRES.map((_, b) => p[`b${b + 1}`] ?? 1) };
});

const dir = mkdtempSync(join(tmpdir(), 'tributary-plot-eq-'));
const cli = join(root, 'daemon', 'dist', 'cli.js');
try {
  const inputs = groups.map((freqs, g) => {
    const file = join(dir, `tones-${g}.wav`);
    writeWav24(file, multiTone(freqs, RATE, 2, AMP), RATE);
    return file;
  });
  for (const preset of presets) {
    const measured = groups.map((freqs, g) => {
      const output = join(dir, 'out.wav');
      const args = ['render', '-q', '--in', inputs[g], '--out', output];
      sh(process.execPath, [cli, ...args, '--eq', preset.gains.join(',')]);
      const { samples } = readWav(output);
      return toneAmplitudes(samples, RATE, freqs, RATE / 2, 1.5 * RATE).map(
        (a) => 20 * Math.log10(a / AMP),
      );
    });
    preset.centres = measured.pop();
    preset.curve = curve.map((f) => {
      const g = groups.findIndex((freqs) => freqs.includes(f));
      return [f, measured[g][groups[g].indexOf(f)]];
    });
    const errors = preset.centres.map((db, b) => Math.abs(db - sliderDb(preset.gains[b])));
    preset.worst = Math.max(...errors);
    console.log(`${preset.name}: largest error at the band centres ${preset.worst.toFixed(2)} dB`);
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}

writeFileSync(out, svg(presets));
console.log(`wrote ${out}`);

/** Three stacked panels: the measured curve, the slider values as dots. */
function svg(panels) {
  const W = 720;
  const H = 190;
  const [left, right, top, bottom] = [46, 14, 28, 26];
  const [lo, hi] = [-6, 6];
  const x = (f) => left + ((W - left - right) * Math.log(f / 20)) / Math.log(1000);
  const y = (db) => top + ((H - top - bottom) * (hi - db)) / (hi - lo);
  const n = (v) => v.toFixed(1);
  const parts = [];
  panels.forEach((p, k) => {
    const grid = [];
    for (const f of [20, 50, 100, 200, 500, 1000, 2000, 5000, 10000, 20000]) {
      grid.push(`<line x1="${n(x(f))}" y1="${top}" x2="${n(x(f))}" y2="${H - bottom}" class="g"/>`);
      const label = f >= 1000 ? `${f / 1000}k` : `${f}`;
      grid.push(`<text x="${n(x(f))}" y="${H - bottom + 15}" text-anchor="middle">${label}</text>`);
    }
    for (let db = lo; db <= hi; db += 3) {
      grid.push(
        `<line x1="${left}" y1="${n(y(db))}" x2="${W - right}" y2="${n(y(db))}" class="${db === 0 ? 'z' : 'g'}"/>`,
      );
      grid.push(
        `<text x="${left - 6}" y="${n(y(db) + 4)}" text-anchor="end">${db > 0 ? '+' : ''}${db} dB</text>`,
      );
    }
    const path = p.curve.map(([f, db], i) => `${i ? 'L' : 'M'}${n(x(f))} ${n(y(db))}`).join(' ');
    const dots = p.gains
      .map((g, b) => `<circle cx="${n(x(CENTRES[b]))}" cy="${n(y(sliderDb(g)))}" r="3.5"/>`)
      .join('');
    parts.push(
      `<g transform="translate(0 ${k * H})">`,
      `<text x="${left}" y="17"><tspan class="t">${p.name}</tspan>  measured within ${p.worst.toFixed(2)} dB of the sliders at the band centres</text>`,
      ...grid,
      `<path d="${path}" class="m"/>`,
      `<g class="s">${dots}</g>`,
      '</g>',
    );
  });
  const height = H * panels.length + 24;
  const legendY = height - 9;
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${height}" viewBox="0 0 ${W} ${height}" role="img" aria-label="Measured equalizer response of three presets beside their slider values">`,
    '<style>text{font:11px system-ui,sans-serif;fill:#444}.t{font-size:13px;font-weight:600;fill:#111}',
    '.g{stroke:#ddd;stroke-width:1}.z{stroke:#999;stroke-width:1}',
    '.m{fill:none;stroke:#2563eb;stroke-width:2}.s circle{fill:#ea580c}</style>',
    `<rect width="${W}" height="${height}" fill="#fff"/>`,
    ...parts,
    `<line x1="${left}" y1="${legendY - 4}" x2="${left + 24}" y2="${legendY - 4}" class="m"/>`,
    `<text x="${left + 30}" y="${legendY}">measured through tributary render at 48 kHz (tones, 1/12 octave apart)</text>`,
    `<circle cx="${left + 470}" cy="${legendY - 4}" r="3.5" fill="#ea580c"/>`,
    `<text x="${left + 480}" y="${legendY}">slider values at the band centres</text>`,
    '</svg>',
    '',
  ].join('\n');
}
