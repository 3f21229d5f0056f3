// The README promises Node.js 20.19 or newer. Every package the lockfile installs must accept the
// oldest Node it promises, or `npm install` warns EBADENGINE and the package may not work there.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import semver from 'semver';

const read = (path) =>
  JSON.parse(readFileSync(new URL(`../../../${path}`, import.meta.url), 'utf8'));

test('the promised Node version is the same in the README and every package.json', () => {
  const promised = read('package.json').engines.node;
  assert.match(promised, /^>=\d+\.\d+$/);
  const oldest = promised.slice(2);
  const readme = readFileSync(new URL('../../../README.md', import.meta.url), 'utf8');
  assert.ok(readme.includes(`Node.js ${oldest} or newer`), `README does not say Node.js ${oldest}`);
  for (const workspace of read('package.json').workspaces) {
    const engines = read(`${workspace}/package.json`).engines?.node;
    if (engines !== undefined) assert.equal(engines, promised, `${workspace}/package.json`);
  }
});

test('every locked package accepts the oldest Node the README promises', () => {
  const oldest = semver.minVersion(read('package.json').engines.node).version;
  const lock = read('package-lock.json');
  const refusing = Object.entries(lock.packages)
    .filter(([, entry]) => entry.engines?.node && !semver.satisfies(oldest, entry.engines.node))
    .map(([path, entry]) => `${path}@${entry.version} wants node ${entry.engines.node}`);
  assert.deepEqual(refusing, [], `packages that refuse Node ${oldest}`);
});

test('the README names the Node.js lines CI tests, and the workflow tests them', () => {
  const readme = readFileSync(new URL('../../../README.md', import.meta.url), 'utf8');
  const tested = /CI\s+tests\s+(\d+) and (\d+)/.exec(readme);
  assert.ok(tested, 'README says which Node.js lines CI tests');
  const workflow = readFileSync(
    new URL('../../../.github/workflows/ci.yml', import.meta.url),
    'utf8',
  );
  const matrix = /^\s+node: \[([\d, ]+)\]$/m.exec(workflow);
  assert.ok(matrix, 'the workflow has a node matrix');
  assert.deepEqual(matrix[1].split(/,\s*/), [tested[1], tested[2]]);
  assert.equal(tested[1], semver.minVersion(read('package.json').engines.node).major.toString());
});
