#!/usr/bin/env node
// The website's benchmark (issue 5), run by `npm run bench`: first-load JS and mobile total
// blocking time of our pages against an empty exported Next.js page of the same version, and
// desktop Lighthouse scores. Builds the site when site/out is missing. SITE_BENCH_RUNS=N (default 3).
// Budgets (stated by site/bench/site-bench.ts, judged here): first-load JS at most 20 KB above the
// empty page, mobile TBT at most 1.2x the empty page's, desktop performance at least 98, for each
// page; `--json` writes bench/results/site.json.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { root, runEchoing, startBench } from './bench-results.mjs';

const site = join(root, 'site');
if (!existsSync(join(site, 'out', 'index.html'))) {
  console.log('bench-site: site/out is missing, building the site first');
  const build = spawnSync('npm', ['run', 'build', '-w', 'site'], { cwd: root, stdio: 'inherit' });
  if (build.status !== 0) process.exit(build.status ?? 1);
}
const bench = startBench('site', {
  what: 'website first-load JS and mobile total blocking time against an empty exported Next.js page, Lighthouse scores',
});
const run = await runEchoing(process.execPath, ['--import', 'tsx', 'bench/site-bench.ts'], {
  cwd: site,
});
const m = run.results.at(-1);
if (run.status !== 0 || !m) {
  console.error(`the site bench failed (${run.status})`);
  process.exit(1);
}
const stated = { stated: 'site/bench/site-bench.ts (issue 5)' };
const kb = (bytes) => bytes / 1024;
bench.figure('empty.first_load_kb', kb(m.empty_first_load_bytes), 'KB', {
  label: 'empty exported Next.js page, first-load JS gzipped',
});
bench.figure('empty.tbt_ms', m.empty_tbt_ms, 'ms', { digits: 0 });
for (const [page, p] of Object.entries(m.pages)) {
  const id = page === '/' ? 'home' : page.replace(/^\/|\/$/g, '').replace(/[^a-z0-9]+/g, '_');
  bench.figure(
    `${id}.first_load_above_empty_kb`,
    kb(p.first_load_bytes - m.empty_first_load_bytes),
    'KB',
  );
  bench.figure(`${id}.first_load_kb`, kb(p.first_load_bytes), 'KB', {
    label: `${page}: first-load JS gzipped`,
    reference: {
      tool: 'an empty exported Next.js page of the same version',
      value: kb(m.empty_first_load_bytes),
      ratio: p.first_load_bytes / m.empty_first_load_bytes,
      ratio_is: 'ours / empty page',
    },
  });
  bench.target(
    `${id}.first_load_above_empty_kb`,
    '<=',
    kb(m.budgets.first_load_above_empty_bytes),
    stated,
  );
  bench.figure(`${id}.tbt_ms`, p.tbt_ms, 'ms', {
    digits: 0,
    label: `${page}: mobile total blocking time, median`,
  });
  bench.figure(`${id}.tbt_ratio`, p.tbt_ratio, 'ratio', {
    digits: 2,
    reference: {
      tool: 'the empty page, +1 ms each side',
      value: m.empty_tbt_ms,
      ratio: p.tbt_ratio,
      ratio_is: '(ours + 1 ms) / (empty + 1 ms)',
    },
  });
  bench.target(`${id}.tbt_ratio`, '<=', m.budgets.tbt_ratio, stated);
  for (const [form, scores] of [
    ['mobile', p.mobile],
    ['desktop', p.desktop],
  ]) {
    for (const [category, score] of Object.entries(scores)) {
      bench.figure(`${id}.${form}.${category}`, score, 'Lighthouse score', { digits: 0 });
    }
  }
  bench.target(`${id}.desktop.performance`, '>=', m.budgets.desktop_performance, stated);
}
bench.finish();
