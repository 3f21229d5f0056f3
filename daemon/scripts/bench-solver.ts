// The solver's benchmark (`npm run bench -- solver`): solve time of the memoised solver against
// the chain-enumerating one it replaced (test/solver/reference-solve.ts), on the same input in
// the same run. Workloads: the report's nested groups (2^depth chains) and a large house of
// 1,000 entities (and 5,000 for scale). Target: under 50 ms for 1,000 entities and for depth 25;
// a run that misses it exits 1 unless `--report-only`. One JSON line last, for
// scripts/bench/bench-solver.mjs (bench/results/solver.json).
import { solve } from '../src/solver/solve.js';
import { referenceSolve } from '../test/solver/reference-solve.js';
import { largeHouse, nestedGroups } from './solver-workloads.js';

type Solvable = Parameters<typeof solve>[0];

/** Median wall time (ms) of `runs` calls, after one warm-up. */
function time(f: () => unknown, runs: number): number {
  f();
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const start = performance.now();
    f();
    times.push(performance.now() - start);
  }
  times.sort((a, b) => a - b);
  return times[Math.floor(times.length / 2)]!;
}

const TARGET_MS = 50;
const rows: { what: string; ours: number; reference: number | null; target: boolean }[] = [];

function measure(what: string, config: Solvable, reference: boolean, target = false) {
  const ours = time(() => solve(config), 21);
  const ref = reference ? time(() => referenceSolve(config), 3) : null;
  rows.push({ what, ours, reference: ref, target });
}

for (const depth of [12, 14, 16])
  measure(`nested groups, depth ${depth}`, nestedGroups(depth), true);
measure('nested groups, depth 25', nestedGroups(25), false, true);
measure('1,000 entities', largeHouse(1000), true, true);
measure('5,000 entities', largeHouse(5000), false);

const fmt = (ms: number) => (ms < 10 ? ms.toFixed(2) : ms.toFixed(1));
console.log('workload                         memoised (ms)   enumerating (ms)   speed-up');
let failed = false;
for (const r of rows) {
  const ref = r.reference === null ? 'not run' : fmt(r.reference);
  const speedUp = r.reference === null ? 0 : r.reference / r.ours;
  const ratio = r.reference === null ? '' : `${speedUp.toFixed(speedUp < 10 ? 1 : 0)}x`;
  const verdict = r.target
    ? r.ours < TARGET_MS
      ? `  (target < ${TARGET_MS} ms: met)`
      : `  (target < ${TARGET_MS} ms: MISSED)`
    : '';
  if (r.target && r.ours >= TARGET_MS) failed = true;
  console.log(
    `${r.what.padEnd(32)} ${fmt(r.ours).padStart(13)}   ${ref.padStart(16)}   ${ratio.padStart(8)}${verdict}`,
  );
}
console.log('enumerating at depth 25: 2^25 chains, about nine minutes by the report; not run.');
console.log(JSON.stringify({ target_ms: TARGET_MS, rows }));
process.exitCode = failed && !process.argv.includes('--report-only') ? 1 : 0;
