#!/usr/bin/env node
// Runs every suite in scripts/test-suites.mjs, streams its output, reads its pass/fail counts
// and ends with one line "N passed, N failed" summing all of them. Exits non-zero if any test
// failed or any suite's result could not be read.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { chooseByName } from './choose-by-name.mjs';
import { suites } from './test-suites.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
// biome-ignore lint/suspicious/noControlCharactersInRegex: ANSI escape sequences
const ansi = /\u001b\[[0-9;]*[A-Za-z]/g;

/** @returns {{passed:number, failed:number} | null} */
export function parseCounts(format, output, exitCode) {
  const text = output.replace(ansi, '');
  const sum = (re) => [...text.matchAll(re)].reduce((n, m) => n + Number(m[1]), 0);
  switch (format) {
    case 'check':
      return exitCode === 0 ? { passed: 1, failed: 0 } : { passed: 0, failed: 1 };
    case 'node-test': {
      const pass = /^(?:# |ℹ )pass (\d+)\s*$/gm;
      const fail = /^(?:# |ℹ )fail (\d+)\s*$/gm;
      if (text.match(pass) === null) return null;
      return { passed: sum(pass), failed: sum(fail) };
    }
    case 'cargo': {
      const lines = [...text.matchAll(/^test result: \w+\. (\d+) passed; (\d+) failed/gm)];
      if (lines.length === 0) return null;
      return {
        passed: lines.reduce((n, m) => n + Number(m[1]), 0),
        failed: lines.reduce((n, m) => n + Number(m[2]), 0),
      };
    }
    case 'jest': {
      const lines = [...text.matchAll(/^Tests:\s+(.*)$/gm)];
      if (lines.length === 0) return null;
      let passed = 0;
      let failed = 0;
      for (const [, line] of lines) {
        passed += Number(/(\d+) passed/.exec(line)?.[1] ?? 0);
        failed += Number(/(\d+) failed/.exec(line)?.[1] ?? 0);
      }
      return { passed, failed };
    }
    default:
      throw new Error(`unknown result format ${format}`);
  }
}

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
  const results = [];
  for (const suite of chosen) {
    console.log(`\n=== ${suite.name}: ${suite.cmd} ${suite.args.join(' ')}`);
    const started = Date.now();
    const { output, code } = await run(suite);
    let counts = parseCounts(suite.format, output, code);
    let note = '';
    if (!counts) {
      counts = { passed: 0, failed: 1 };
      note = ' (no test summary found in its output)';
    } else if (code !== 0 && counts.failed === 0) {
      counts = { ...counts, failed: 1 };
      note = ` (exit code ${code} with no failed test reported)`;
    }
    const seconds = ((Date.now() - started) / 1000).toFixed(1);
    results.push({ name: suite.name, ...counts, seconds, note });
  }
  console.log('\n=== summary');
  for (const r of results) {
    console.log(
      `${r.failed ? 'FAIL' : 'ok  '} ${r.name}: ${r.passed} passed, ${r.failed} failed, ${r.seconds} s${r.note}`,
    );
  }
  const passed = results.reduce((n, r) => n + r.passed, 0);
  const failed = results.reduce((n, r) => n + r.failed, 0);
  console.log(`${passed} passed, ${failed} failed`);
  process.exit(failed ? 1 : 0);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await main();
