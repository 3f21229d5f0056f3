import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { test } from 'node:test';
import { DEFAULT_PLOT, DEFAULT_RECORD, readRecord, soakPlotSvg } from '../soak/plot.mjs';

/** A record of `minutes` with a sample a minute: RSS rising by `slope` MB a minute. */
function record(minutes, slope) {
  const outside = [];
  const inside = [];
  for (let m = 0; m <= minutes; m++) {
    outside.push({ at: m * 60_000, vmRss: (150 + slope * m) * 1e6, fds: 40, threads: 24 });
    inside.push({ at: m * 60_000 + 100, heapUsed: 35e6 });
  }
  return {
    minutes,
    date: '2026-12-07T09:00:00.000Z',
    commit: 'abcdef0123',
    slopes: { warmupMs: 10 * 60_000 },
    samples: { outside, inside },
  };
}

/** The y coordinates of the SVG path drawn in `colour`. */
function ys(svg, colour) {
  const d = svg.match(new RegExp(`<path d="([^"]+)" fill="none" stroke="${colour}"`))[1];
  return [...d.matchAll(/[ML][\d.]+,([\d.]+)/g)].map((m) => Number(m[1]));
}

test('the plot draws each series where its values are: a rising RSS rises, a flat heap is flat', () => {
  const svg = soakPlotSvg(record(60, 1));
  assert.match(svg, /^<svg [^>]*role="img"/);
  assert.match(svg, /Soak of 60 minutes, 2026-12-07, commit abcdef0/);
  const rss = ys(svg, '#2563eb');
  assert.equal(rss.length, 61);
  // SVG y grows downwards: RSS rising is y falling, by the same step each minute.
  assert.ok(rss.every((y, i) => i === 0 || y < rss[i - 1]));
  const heap = ys(svg, '#d97706');
  assert.ok(heap.every((y) => y === heap[0]));
  // The warm-up (10 of 60 minutes) is shaded: a sixth of the plot's width.
  const warm = Number(svg.match(/<rect x="[\d.]+" y="[\d.]+" width="([\d.]+)"/)[1]);
  const flat = soakPlotSvg(record(60, 0));
  assert.notEqual(ys(flat, '#2563eb')[60], rss[60], 'another RSS draws another line');
  assert.ok(Math.abs(warm - (760 - 56 - 120) / 6) < 0.01, `warm-up ${warm} px wide`);
});

test("the docs' plot is the committed soak's: regenerated from its record, byte for byte", () => {
  assert.ok(existsSync(DEFAULT_RECORD), 'bench/results/soak.record.jsonl is committed');
  assert.ok(existsSync(DEFAULT_PLOT), 'content/docs/images/soak-memory.svg is committed');
  assert.equal(
    readFileSync(DEFAULT_PLOT, 'utf8'),
    soakPlotSvg(readRecord()),
    'run: node scripts/bench/soak/plot.mjs',
  );
});
