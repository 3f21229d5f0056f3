// The first `npm start` says up front that it compiles the Rust engine and how long that took
// when measured (issue 32: a first start was 24 minutes of cargo lines and nothing else).
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';

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
  assert.match(first.stderr, /it took 22 minutes on a\s+busy 2-core machine \(this one has \d+\)/);
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
  assert.match(readme, /first `npm start` compiles the Rust audio engine[^.]*22 minutes/);
});
