#!/usr/bin/env node
// The dashboard's benchmark (issue 13), run by `npm run bench`: first-load JS against an empty
// React app, and frame figures from a Chromium trace with 32 sources, 16 sinks and 64 routes on a
// real daemon. Builds the dashboard when dist/ is missing.
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const dashboard = fileURLToPath(new URL('../daemon/dashboard/', import.meta.url));
const result = spawnSync(process.execPath, ['--import', 'tsx', 'bench/dashboard-bench.ts'], {
  cwd: dashboard,
  stdio: 'inherit',
});
process.exit(result.status ?? 1);
