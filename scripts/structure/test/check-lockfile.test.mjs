import assert from 'node:assert/strict';
import { test } from 'node:test';
import { isOptionalPlatformPackage, lockfileDifferences } from '../check-lockfile.mjs';

const biomeDarwin = {
  version: '2.6.8',
  integrity: 'sha512-aaaa',
  cpu: ['x64'],
  os: ['darwin'],
  optional: true,
  dev: true,
};
const base = () => ({
  name: 'tributary',
  version: '0.1.0',
  lockfileVersion: 3,
  packages: {
    '': { name: 'tributary', devDependencies: { '@biomejs/biome': '2.6.8' } },
    'node_modules/@biomejs/biome': {
      version: '2.6.8',
      integrity: 'sha512-bbbb',
      optionalDependencies: { '@biomejs/cli-darwin-x64': '2.6.8' },
    },
    'node_modules/is-number': { version: '7.0.0', integrity: 'sha512-cccc' },
  },
});

test('optional platform binaries may appear or disappear', () => {
  const withBinary = base();
  withBinary.packages['node_modules/@biomejs/cli-darwin-x64'] = biomeDarwin;
  assert.deepEqual(lockfileDifferences(base(), withBinary), []);
  assert.deepEqual(lockfileDifferences(withBinary, base()), []);
  assert.equal(isOptionalPlatformPackage(biomeDarwin), true);
  assert.equal(isOptionalPlatformPackage({ version: '1.0.0', optional: true }), false);
});

test('a changed version, an added package or a removed one is a real change', () => {
  const bumped = base();
  bumped.packages['node_modules/is-number'] = { version: '7.0.1', integrity: 'sha512-dddd' };
  assert.deepEqual(lockfileDifferences(base(), bumped), [
    'node_modules/is-number: changed (version, integrity)',
  ]);
  const added = base();
  added.packages['node_modules/left-pad'] = { version: '1.3.0' };
  assert.deepEqual(lockfileDifferences(base(), added), ['node_modules/left-pad: added']);
  const removed = base();
  delete removed.packages['node_modules/is-number'];
  assert.deepEqual(lockfileDifferences(base(), removed), ['node_modules/is-number: removed']);
});

test('a platform binary present on both sides must still agree', () => {
  const a = base();
  a.packages['node_modules/@biomejs/cli-darwin-x64'] = biomeDarwin;
  const b = base();
  b.packages['node_modules/@biomejs/cli-darwin-x64'] = { ...biomeDarwin, version: '2.6.9' };
  assert.deepEqual(lockfileDifferences(a, b), [
    'node_modules/@biomejs/cli-darwin-x64: changed (version)',
  ]);
});

test('key order does not matter; root fields do', () => {
  const reordered = base();
  reordered.packages['node_modules/is-number'] = { integrity: 'sha512-cccc', version: '7.0.0' };
  assert.deepEqual(lockfileDifferences(base(), reordered), []);
  const renamed = { ...base(), version: '0.2.0' };
  assert.deepEqual(lockfileDifferences(base(), renamed), ['version: "0.1.0" -> "0.2.0"']);
});
