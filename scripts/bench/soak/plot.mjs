#!/usr/bin/env node
// The soak's plots for the docs: memory (RSS from /proc, V8 heap in use after a full collection)
// and open descriptors and threads over the run, the warm-up shaded (the fit starts after it),
// drawn as one SVG from the committed record, so the image in the docs' technical details page is
// the committed run and nothing else (a test regenerates it and compares). Pure: soakPlotSvg.
//   node scripts/bench/soak/plot.mjs [RECORD] [OUT]
//   (defaults: bench/results/soak.record.jsonl, content/docs/images/soak-memory.svg)
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { root } from '../bench-results.mjs';

export const DEFAULT_RECORD = join(root, 'bench/results/soak.record.jsonl');
export const DEFAULT_PLOT = join(root, 'content/docs/images/soak-memory.svg');

const W = 760;
const PANEL_H = 200;
const PAD = { left: 56, right: 120, top: 34, bottom: 34 };
const COLOURS = ['#2563eb', '#d97706'];

/** A round step for an axis spanning `span` with about `n` ticks. */
function niceStep(span, n) {
  const raw = span / n;
  const p = 10 ** Math.floor(Math.log10(raw || 1));
  return [1, 2, 5, 10].map((m) => m * p).find((s) => s >= raw) ?? raw;
}

const esc = (s) => String(s).replace(/&/g, '&amp;').replace(/</g, '&lt;');

/** One panel: `series` [{ label, points: [[minute, value]] }] from y = `top`. */
function panel({ title, unit, series, top, minutes, warmup, zeroBased }) {
  const values = series.flatMap((s) => s.points.map(([, v]) => v));
  let lo = zeroBased ? 0 : Math.min(...values);
  let hi = Math.max(...values);
  const step = niceStep(hi - lo || 1, 4);
  lo = Math.floor(lo / step) * step;
  hi = Math.ceil(hi / step) * step || step;
  const plotW = W - PAD.left - PAD.right;
  const plotH = PANEL_H - PAD.top - PAD.bottom;
  const x = (m) => PAD.left + (m / minutes) * plotW;
  const y = (v) => top + PAD.top + plotH - ((v - lo) / (hi - lo)) * plotH;
  const out = [];
  out.push(
    `<text x="${PAD.left}" y="${top + 20}" font-weight="600">${esc(title)}</text>`,
    `<rect x="${x(0)}" y="${top + PAD.top}" width="${x(warmup) - x(0)}" height="${plotH}" fill="#9ca3af" fill-opacity="0.15"/>`,
    `<text x="${x(warmup / 2)}" y="${top + PAD.top + 14}" text-anchor="middle" font-size="11" fill="#6b7280">warm-up</text>`,
  );
  for (let v = lo; v <= hi + step / 2; v += step) {
    const yy = y(v).toFixed(1);
    out.push(
      `<line x1="${PAD.left}" x2="${W - PAD.right}" y1="${yy}" y2="${yy}" stroke="#9ca3af" stroke-opacity="0.35"/>`,
      `<text x="${PAD.left - 6}" y="${yy}" dy="4" text-anchor="end" font-size="11">${Number(v.toFixed(2))}</text>`,
    );
  }
  const mStep = niceStep(minutes, 6);
  for (let m = 0; m <= minutes + 1e-9; m += mStep) {
    out.push(
      `<text x="${x(m).toFixed(1)}" y="${top + PANEL_H - PAD.bottom + 16}" text-anchor="middle" font-size="11">${m}</text>`,
    );
  }
  out.push(
    `<text x="${W - PAD.right + 8}" y="${top + PANEL_H - PAD.bottom + 16}" font-size="11">minutes</text>`,
    `<text x="14" y="${top + PAD.top + plotH / 2}" font-size="11" transform="rotate(-90 14 ${top + PAD.top + plotH / 2})" text-anchor="middle">${esc(unit)}</text>`,
  );
  series.forEach((s, i) => {
    const d = s.points
      .map(([m, v], k) => `${k ? 'L' : 'M'}${x(m).toFixed(1)},${y(v).toFixed(1)}`)
      .join('');
    out.push(
      `<path d="${d}" fill="none" stroke="${COLOURS[i]}" stroke-width="1.6"/>`,
      `<text x="${W - PAD.right + 8}" y="${top + PAD.top + 14 + i * 16}" font-size="12" fill="${COLOURS[i]}">${esc(s.label)}</text>`,
    );
  });
  return out.join('\n');
}

/** The SVG of a soak record (the .record.jsonl's one object). */
export function soakPlotSvg(record) {
  const { outside, inside } = record.samples;
  const minutes = record.minutes;
  const warmup = record.slopes.warmupMs / 60_000;
  const at = (s) => s.at / 60_000;
  const MB = 1e6;
  const memory = panel({
    title: 'Memory of the daemon',
    unit: 'MB',
    series: [
      { label: 'RSS', points: outside.map((s) => [at(s), s.vmRss / MB]) },
      { label: 'V8 heap in use', points: inside.map((s) => [at(s), s.heapUsed / MB]) },
    ],
    top: 0,
    minutes,
    warmup,
    zeroBased: true,
  });
  const handles = panel({
    title: 'Open descriptors and threads',
    unit: 'count',
    series: [
      { label: 'descriptors', points: outside.map((s) => [at(s), s.fds]) },
      { label: 'threads', points: outside.map((s) => [at(s), s.threads]) },
    ],
    top: PANEL_H,
    minutes,
    warmup,
    zeroBased: true,
  });
  const title = `Soak of ${minutes} minutes, ${record.date.slice(0, 10)}, commit ${String(record.commit).slice(0, 7)}`;
  return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${W} ${2 * PANEL_H}" width="${W}" height="${2 * PANEL_H}" font-family="system-ui, sans-serif" font-size="12" fill="#374151" role="img" aria-label="${esc(title)}: memory, descriptors and threads over time">
<title>${esc(title)}</title>
<rect width="100%" height="100%" fill="#ffffff"/>
${memory}
${handles}
</svg>
`;
}

/** Reads a record file (one JSON object on its one line). */
export function readRecord(path = DEFAULT_RECORD) {
  return JSON.parse(readFileSync(path, 'utf8').split('\n')[0]);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const [record = DEFAULT_RECORD, out = DEFAULT_PLOT] = process.argv.slice(2);
  writeFileSync(out, soakPlotSvg(readRecord(record)));
  console.log(`soak plot: ${out}`);
}
