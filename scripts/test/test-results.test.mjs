import assert from 'node:assert/strict';
import { test } from 'node:test';
import { parseCounts } from '../test-all.mjs';

test('node:test spec and tap summaries are read, summed over runs', () => {
  const spec = 'ℹ tests 7\nℹ pass 6\nℹ fail 1\n';
  assert.deepEqual(parseCounts('node-test', spec, 1), { passed: 6, failed: 1 });
  const tapTwice = '# pass 3\n# fail 0\n...\n# pass 2\n# fail 2\n';
  assert.deepEqual(parseCounts('node-test', tapTwice, 1), { passed: 5, failed: 2 });
  assert.equal(parseCounts('node-test', 'crashed before any test', 1), null);
});

test('every cargo "test result" line is summed, colour codes ignored', () => {
  const out = [
    'test result: ok. 12 passed; 0 failed; 0 ignored',
    '\u001b[32mtest result: FAILED. 3 passed; 2 failed; 1 ignored\u001b[0m',
    'test result: ok. 0 passed; 0 failed; 0 ignored',
  ].join('\n');
  assert.deepEqual(parseCounts('cargo', out, 101), { passed: 15, failed: 2 });
  assert.equal(parseCounts('cargo', 'error[E0425]: cannot find value', 101), null);
});

test('jest "Tests:" lines with and without failures are read', () => {
  assert.deepEqual(parseCounts('jest', 'Tests:       40 passed, 40 total', 0), {
    passed: 40,
    failed: 0,
  });
  assert.deepEqual(parseCounts('jest', 'Tests:       2 failed, 1 skipped, 9 passed, 12 total', 1), {
    passed: 9,
    failed: 2,
  });
});

test('a check counts as one test decided by its exit code', () => {
  assert.deepEqual(parseCounts('check', '', 0), { passed: 1, failed: 0 });
  assert.deepEqual(parseCounts('check', '', 3), { passed: 0, failed: 1 });
});
