// The first `npm start` says up front that it compiles the Rust engine and how long that took
// when measured (issue 32: a first start was 24 minutes of cargo lines and nothing else).
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { estimate } from '../first-build-notice.mjs';

const script = fileURLToPath(new URL('../first-build-notice.mjs', import.meta.url));
const run = (dir) => spawnSync(process.execPath, [script, dir], { encoding: 'utf8' });

test('without a built binding the notice names the Rust build, the measured minutes and the cores; with one, nothing', (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'napi-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  writeFileSync(join(dir, 'index.js'), '');
  const first = run(dir);
  assert.equal(first.status, 0);
  assert.equal(first.stdout, '');
  assert.match(first.stderr, /^First start: compiling Tributary's audio engine \(Rust/);
  assert.match(first.stderr, /once:\s+about (a minute|\d+ minutes) on this \d+-core machine/);
  assert.match(first.stderr, /\(109 s on an\s+idle 2-core machine/);
  assert.match(first.stderr, /'Compiling <crate>' line per crate/, 'not a terminal: the log form');
  writeFileSync(join(dir, 'tributary-native.linux-x64-gnu.node'), '');
  const later = run(dir);
  assert.equal(later.status, 0);
  assert.equal(later.stderr, '');
});

test('npm start runs the notice before it builds, and the README gives the same figure', () => {
  const start = JSON.parse(readFileSync(new URL('../../../package.json', import.meta.url))).scripts
    .start;
  assert.match(
    start,
    /^node scripts\/start\/first-build-notice\.mjs && npm run build -w native\/napi/,
  );
  const readme = readFileSync(new URL('../../../README.md', import.meta.url), 'utf8');
  assert.match(
    readme,
    /first `npm start` compiles the Rust audio engine[^.]*109 s on an idle 2-core/,
  );
});

test('the estimate spreads the measured CPU time over the cores, never below half the 2-core time', () => {
  assert.equal(estimate(2), 'about 2 minutes');
  assert.equal(estimate(1), 'about 4 minutes');
  assert.equal(estimate(4), 'about a minute');
  assert.equal(estimate(64), 'about a minute');
});
