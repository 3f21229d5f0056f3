// The suites find their files: every test file under scripts/, wherever its role's folder is, is
// run by the `scripts` suite or (the Debian package's and container's) the `packaging` suite.
import assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { suites } from '../test-suites.mjs';

const root = fileURLToPath(new URL('../../..', import.meta.url));

test('every test file under scripts/ is run by the scripts or the packaging suite, once', () => {
  const onDisk = readdirSync(`${root}/scripts`, { recursive: true })
    .map((path) => `scripts/${path.split('\\').join('/')}`)
    .filter((path) => /\.test\.mjs$/.test(path) && !path.includes('/node_modules/'))
    .sort();
  const run = suites
    .filter((s) => s.name === 'scripts' || s.name === 'packaging')
    .flatMap((s) => s.args.filter((arg) => arg.endsWith('.test.mjs')))
    .sort();
  assert.ok(onDisk.length > 10, `found ${onDisk.length} test files under scripts/`);
  assert.deepEqual(run, onDisk);
});
