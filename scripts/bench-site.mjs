#!/usr/bin/env node
// The website's benchmark (issue 5), run by `npm run bench`: first-load JS and mobile total
// blocking time of our pages against an empty exported Next.js page of the same version, and
// desktop Lighthouse scores. Builds the site when site/out is missing. SITE_BENCH_RUNS=N (default 3).
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const site = fileURLToPath(new URL('../site/', import.meta.url));
if (!existsSync(`${site}out/index.html`)) {
  console.log('bench-site: site/out is missing, building the site first');
  const build = spawnSync('npm', ['run', 'build', '-w', 'site'], { stdio: 'inherit' });
  if (build.status !== 0) process.exit(build.status ?? 1);
}
const result = spawnSync(process.execPath, ['--import', 'tsx', 'bench/site-bench.ts'], {
  cwd: site,
  stdio: 'inherit',
});
process.exit(result.status ?? 1);
