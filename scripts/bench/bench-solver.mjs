#!/usr/bin/env node
// The solver's benchmark (issue 10): the memoised solver against the chain-enumerating one it
// replaced, on the report's nested groups and on a house of 1,000 entities. Runs
// daemon/scripts/bench-solver.ts through tsx, which states the target (under 50 ms for depth 25
// and for 1,000 entities); `--json` writes bench/results/solver.json.
import { join } from 'node:path';
import { root, runEchoing, startBench } from './bench-results.mjs';

const bench = startBench('solver', {
  what: 'configuration solver, memoised against the chain-enumerating reference: nested groups and houses of 1,000 and 5,000 entities',
});
const run = await runEchoing(
  process.execPath,
  ['--import', 'tsx', 'scripts/bench-solver.ts', '--report-only'],
  { cwd: join(root, 'daemon') },
);
const out = run.results.at(-1);
if (run.status !== 0 || !out) {
  console.error(`the solver bench failed (${run.status})`);
  process.exit(1);
}
for (const r of out.rows) {
  const id = `solve.${r.what.toLowerCase().replace(/[^a-z0-9]+/g, '_')}_ms`;
  bench.figure(id, r.ours, 'ms', {
    digits: r.ours < 10 ? 2 : 1,
    label: `${r.what}: median solve time, memoised`,
    ...(r.reference !== null && {
      reference: {
        tool: 'the chain-enumerating solver it replaced (test/solver/reference-solve.ts)',
        value: r.reference,
        ratio: r.reference / r.ours,
        ratio_is: 'reference ms / ours (speed-up)',
      },
    }),
  });
  if (r.target) {
    bench.target(id, '<', out.target_ms, { stated: 'daemon/scripts/bench-solver.ts (issue 10)' });
  }
}
bench.finish();
