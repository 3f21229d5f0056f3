#!/usr/bin/env node
// The dashboard's benchmark (issue 13), run by `npm run bench`: first-load JS against an empty
// React app, and frame figures from a Chromium trace with 32 sources, 16 sinks and 64 routes on a
// real daemon. Builds the dashboard when dist/ is missing. Targets (stated by
// daemon/dashboard/bench/): first-load JS within 150 KB gzipped, and p95 main-thread time per frame
// within 16.7 ms (60 fps), wall clock and CPU, stats at 1/s and at 30/s; search (a key to the
// frame showing the filtered panels) p95 within 50 ms (issue 31); `--json` writes
// bench/results/dashboard.json.
import { join } from 'node:path';
import { root, runEchoing, startBench } from './bench-results.mjs';

const bench = startBench('dashboard', {
  what: 'dashboard first-load JS against an empty React app; frame times in Chromium with 32 sources, 16 sinks, 64 routes and live stats',
});
const run = await runEchoing(process.execPath, ['--import', 'tsx', 'bench/dashboard-bench.ts'], {
  cwd: join(root, 'daemon', 'dashboard'),
});
const m = run.results.at(-1);
if (run.status !== 0 || !m) {
  console.error(`the dashboard bench failed (${run.status})`);
  process.exit(1);
}
const kb = (bytes) => bytes / 1024;
const { ours, empty, budget_bytes: budget } = m.first_load;
const stated = { stated: 'daemon/dashboard/bench/ (issue 13)' };
bench.figure('first_load.empty_gzip_kb', kb(empty.gzipBytes), 'KB', {
  label: 'empty React 19 app built by the same Vite, gzipped',
});
bench.figure('first_load.gzip_kb', kb(ours.gzipBytes), 'KB', {
  label: 'dashboard first-load JS, gzipped',
  reference: {
    tool: 'an empty React 19 app built by the same Vite',
    value: kb(empty.gzipBytes),
    ratio: ours.gzipBytes / empty.gzipBytes,
    ratio_is: 'ours / empty app',
  },
});
bench.figure('first_load.brotli_kb', kb(ours.brotliBytes), 'KB', { label: 'as served' });
bench.figure('first_load.raw_kb', kb(ours.rawBytes), 'KB');
bench.figure('first_load.files', ours.files, 'count', { digits: 0 });
bench.target('first_load.gzip_kb', '<=', kb(budget), stated);

/** The figures formatFrames prints for one scenario. */
function frames(prefix, f) {
  for (const kind of ['frame', 'cpu', 'render']) {
    for (const q of ['p50', 'p95', 'p99', 'max']) {
      bench.figure(`${prefix}.${kind}_${q}_ms`, f[kind][q], 'ms');
    }
    bench.figure(`${prefix}.${kind}_count`, f[kind].count, 'count', { digits: 0 });
  }
  bench.figure(`${prefix}.frame_over_16_7_ms`, f.frame.over16, 'count', { digits: 0 });
  bench.figure(`${prefix}.cpu_over_16_7_ms`, f.cpu.over16, 'count', { digits: 0 });
  bench.figure(`${prefix}.seconds`, f.seconds, 's');
  bench.figure(`${prefix}.presented`, f.presented, 'count', { digits: 0 });
  bench.figure(`${prefix}.dropped`, f.dropped, 'count', { digits: 0 });
  bench.figure(`${prefix}.tasks_over_16_7_ms`, f.tasksOver16, 'count', { digits: 0 });
  bench.figure(`${prefix}.tasks_over_50_ms`, f.tasksOver50, 'count', { digits: 0 });
  bench.figure(`${prefix}.busy_percent`, 100 * f.busy, '% of the run', { digits: 0 });
  for (const [kind, ms] of Object.entries(f.breakdown)) {
    bench.figure(`${prefix}.${kind}_ms_per_frame`, ms, 'ms', { digits: 2 });
  }
  if (f.lines !== undefined) {
    bench.figure(`${prefix}.lines_draws`, f.lines.draws, 'count', {
      digits: 0,
      label: 'frames the route lines were drawn in',
    });
    bench.figure(`${prefix}.lines_measures`, f.lines.measures, 'count', {
      digits: 0,
      label: 'of those, frames that measured every card (the rest followed a scroll)',
    });
  }
  if (f.levels_per_s !== undefined) {
    bench.figure(`${prefix}.levels_messages_per_s`, f.levels_per_s, 'per s', { digits: 0 });
  }
}
frames('floor', m.floor);
for (const id of ['stats_1s', 'stats_30s']) {
  frames(id, m[id]);
  bench.target(`${id}.frame_p95_ms`, '<=', m.frame_target_ms, stated);
  bench.target(`${id}.cpu_p95_ms`, '<=', m.frame_target_ms, stated);
}
const search = { label: 'search: keydown to the frame showing the filtered panels' };
bench.figure('search.p50_ms', m.search.p50, 'ms', search);
bench.figure('search.p95_ms', m.search.p95, 'ms', search);
bench.figure('search.max_ms', m.search.max, 'ms', search);
bench.figure('search.keys', m.search.count, 'count', { digits: 0 });
const cpu = { label: "search: the page's main-thread CPU time in the same interval" };
bench.figure('search.cpu_p50_ms', m.search_cpu.p50, 'ms', cpu);
bench.figure('search.cpu_p95_ms', m.search_cpu.p95, 'ms', cpu);
bench.figure('search.cpu_max_ms', m.search_cpu.max, 'ms', cpu);
bench.target('search.p95_ms', '<=', m.search_target_ms, { stated: 'issue 31' });
bench.finish();
