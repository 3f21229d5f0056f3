#!/usr/bin/env node
// Runs every suite in scripts/test-suites.mjs, streams its output, reads its counts and judges
// them (scripts/test-results.mjs), then prints a summary ending with the whole run's
// "N passed, N failed, N skipped". Exits non-zero if any test failed or any suite broke a rule:
// no readable summary, nothing passed, fewer tests than its minimum, or (CI=true) a skip caused by
// the environment.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { chooseByName } from './choose-by-name.mjs';
import { isCi, judge, parseCounts, summaryLines } from './test-results.mjs';
import { suites } from './test-suites.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));

function run(suite) {
  return new Promise((resolve) => {
    const child = spawn(suite.cmd, suite.args, {
      cwd: root,
      env: { ...process.env, FORCE_COLOR: '0' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    const collect = (stream, sink) =>
      stream.on('data', (chunk) => {
        output += chunk;
        sink.write(chunk);
      });
    collect(child.stdout, process.stdout);
    collect(child.stderr, process.stderr);
    child.on('error', (err) => {
      output += `\n${err.message}`;
      resolve({ output, code: 127 });
    });
    child.on('close', (code) => resolve({ output, code: code ?? 1 }));
  });
}

async function main() {
  const chosen = chooseByName(suites, process.argv.slice(2), 'suite');
  const ci = isCi();
  const results = [];
  for (const suite of chosen) {
    console.log(`\n=== ${suite.name}: ${suite.cmd} ${suite.args.join(' ')}`);
    const started = Date.now();
    const { output, code } = await run(suite);
    const result = judge(suite, parseCounts(suite.format, output, code), code, { ci });
    results.push({ ...result, seconds: ((Date.now() - started) / 1000).toFixed(1) });
  }
  console.log(`\n${summaryLines(results).join('\n')}`);
  process.exit(results.some((r) => r.failed) ? 1 : 0);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await main();
