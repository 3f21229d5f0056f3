#!/usr/bin/env node
// Runs every suite in scripts/run-tests/test-suites.mjs, streams its output, reads its counts and
// judges them (scripts/run-tests/test-results.mjs), then prints a summary ending with the whole
// run's "N passed, N failed, N skipped". Exits non-zero if any test failed or any suite broke a
// rule: no readable summary, nothing passed, fewer tests than scripts/run-tests/test-inventory.json
// records, or (CI=true) a skip or todo scripts/run-tests/allowed-skips.json does not list.
// `--record` (with or without suite names) writes the inventory of the suites run: as they ran
// for those that passed (how tests are removed on purpose), only adding for those that failed.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { chooseByName } from '../shared/choose-by-name.mjs';
import { readAllowedSkips, readInventory, recorded, writeInventory } from './test-inventory.mjs';
import { isCi, judge, parseCounts, summaryLines } from './test-results.mjs';
import { suites } from './test-suites.mjs';

const root = fileURLToPath(new URL('../..', import.meta.url));

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
  const words = process.argv.slice(2);
  const record = words.includes('--record');
  const chosen = chooseByName(
    suites,
    words.filter((w) => w !== '--record'),
    'suite',
  );
  const ci = isCi();
  const inventory = readInventory();
  const allowedSkips = readAllowedSkips();
  const results = [];
  const runs = [];
  for (const suite of chosen) {
    console.log(`\n=== ${suite.name}: ${suite.cmd} ${suite.args.join(' ')}`);
    const started = Date.now();
    const { output, code } = await run(suite);
    const counts = parseCounts(suite.format, output, code);
    const result = judge(suite, counts, code, {
      ci,
      expected: record ? undefined : (inventory[suite.name] ?? null),
      allowed: allowedSkips.filter((a) => a.suite === suite.name),
    });
    results.push({ ...result, seconds: ((Date.now() - started) / 1000).toFixed(1) });
    if (counts) runs.push({ name: suite.name, counts });
  }
  console.log(`\n${summaryLines(results).join('\n')}`);
  const failed = results.some((r) => r.failed);
  if (record) {
    // Suites that passed are recorded as they ran; one that failed can only add to its record
    // (scripts/run-tests/test-inventory.mjs); one with no readable counts keeps its old record.
    const judged = runs.map((r) => ({
      ...r,
      failed: Boolean(results.find((x) => x.name === r.name)?.failed),
    }));
    if (judged.length) writeInventory(recorded(inventory, judged));
    const list = (rs) => rs.map((r) => r.name).join(', ');
    const grown = judged.filter((r) => r.failed);
    const unread = chosen.map((s) => s.name).filter((n) => !runs.some((r) => r.name === n));
    console.log(
      '\nrecorded in scripts/run-tests/test-inventory.json: ' +
        `${list(judged.filter((r) => !r.failed)) || 'none'}` +
        (grown.length ? `; added to only (failed): ${list(grown)}` : '') +
        (unread.length ? `; not recorded (no counts): ${unread.join(', ')}` : ''),
    );
  }
  process.exit(failed ? 1 : 0);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await main();
