#!/usr/bin/env node
// The solver's benchmark (issue 10): the memoised solver against the chain-enumerating one it
// replaced, on the report's nested groups and on a house of 1,000 entities. Runs
// daemon/scripts/bench-solver.ts through tsx.
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const daemon = fileURLToPath(new URL('../daemon/', import.meta.url));
const res = spawnSync(process.execPath, ['--import', 'tsx', 'scripts/bench-solver.ts'], {
  cwd: daemon,
  stdio: 'inherit',
});
process.exit(res.status ?? 1);
