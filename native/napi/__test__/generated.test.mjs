import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';

const dir = fileURLToPath(new URL('..', import.meta.url));

function insideGit() {
  try {
    execFileSync('git', ['rev-parse', '--is-inside-work-tree'], { cwd: dir, stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

// An `env:` skip is counted as skipped by `npm test`, and fails the run under CI=true.
test('index.d.ts and index.js are the committed output of the last build', {
  skip: !insideGit() && 'env: not a git checkout, or git is not installed',
}, () => {
  // `npm run build` (napi build) regenerates both files; a difference means the Rust API
  // changed and the regenerated files were not committed.
  const diff = execFileSync('git', ['diff', '--stat', '--', 'index.d.ts', 'index.js'], {
    cwd: dir,
    encoding: 'utf8',
  });
  assert.equal(diff, '', `regenerated files differ from the committed ones:\n${diff}`);
  const untracked = execFileSync(
    'git',
    ['ls-files', '--others', '--exclude-standard', '--', 'index.d.ts', 'index.js'],
    {
      cwd: dir,
      encoding: 'utf8',
    },
  );
  assert.equal(untracked, '', 'index.d.ts / index.js must be committed');
});

test('the typings declare the documented API', () => {
  const dts = readFileSync(new URL('../index.d.ts', import.meta.url), 'utf8');
  for (const name of [
    'class Engine',
    'class PathPreview',
    'interface PathPreviewOptions',
    'processInto(',
    'function parseFormat(',
    'function eqResponse(',
  ]) {
    assert.ok(dts.includes(name), name);
  }
});
