import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { countsText, isCi, judge, parseCounts, summaryLines } from '../test-results.mjs';
import { suites } from '../test-suites.mjs';

const counts = (passed, failed, skipped = 0, todo = 0, envSkips = []) => ({
  passed,
  failed,
  skipped,
  todo,
  envSkips,
});

/** Runs node:test with `reporter` on one test file made of `body`; returns its output. */
function nodeTestOutput(t, body, reporter) {
  const dir = mkdtempSync(join(tmpdir(), 'test-results-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  writeFileSync(join(dir, 'sample.test.mjs'), `import { test } from 'node:test';\n${body}`);
  // A node:test run started from a test would report to this one unless told otherwise.
  const env = { ...process.env };
  delete env.NODE_TEST_CONTEXT;
  const res = spawnSync(process.execPath, ['--test', `--test-reporter=${reporter}`, dir], {
    encoding: 'utf8',
    env,
  });
  return { output: `${res.stdout}${res.stderr}`, code: res.status };
}

const sample = `
test('passes', () => {});
test('no tool', (t) => { t.skip('env: systemd-analyze is not installed'); });
test('not root', { skip: 'env: needs root' }, () => {});
test('skipped on purpose', { skip: 'flaky upstream' }, () => {});
test('to write', { todo: true }, () => {});
test('fails', () => { throw new Error('boom'); });
`;

test('node:test spec and TAP output of a real run: every count, and which skips were env skips', (t) => {
  for (const reporter of ['spec', 'tap']) {
    const { output, code } = nodeTestOutput(t, sample, reporter);
    assert.equal(code, 1, output);
    assert.deepEqual(
      parseCounts('node-test', output, code),
      counts(1, 1, 3, 1, [
        { test: 'no tool', reason: 'systemd-analyze is not installed' },
        { test: 'not root', reason: 'needs root' },
      ]),
      `${reporter}:\n${output}`,
    );
  }
});

test('node:test summaries are summed over runs; cancelled tests count as failed', () => {
  const tapTwice = '# pass 3\n# fail 0\n# skipped 1\n...\n# pass 2\n# fail 2\n# cancelled 1\n';
  assert.deepEqual(parseCounts('node-test', tapTwice, 1), counts(5, 3, 1));
  assert.deepEqual(parseCounts('node-test', 'ℹ tests 0\nℹ pass 0\nℹ fail 0\n', 0), counts(0, 0));
  assert.equal(parseCounts('node-test', 'crashed before any test', 1), null);
});

test('cargo: every "test result" line summed, ignored counted as skipped, colour codes ignored', () => {
  const out = [
    'test result: ok. 12 passed; 0 failed; 0 ignored; 0 measured; 0 filtered out',
    '\u001b[32mtest result: FAILED. 3 passed; 2 failed; 1 ignored\u001b[0m',
    'test result: ok. 0 passed; 0 failed; 0 ignored',
  ].join('\n');
  assert.deepEqual(parseCounts('cargo', out, 101), counts(15, 2, 1));
  assert.deepEqual(parseCounts('cargo', 'test result: ok. 0 passed; 0 failed; 0 ignored', 0), {
    ...counts(0, 0),
  });
  assert.equal(parseCounts('cargo', 'error[E0425]: cannot find value', 101), null);
});

test('cargo: an ENV-SKIP line (even after progress dots) moves its test from passed to skipped', () => {
  const out = [
    '....ENV-SKIP multicast_in_a_private_network_namespace: creating a network namespace needs root',
    '.',
    'test result: ok. 2 passed; 0 failed; 0 ignored',
  ].join('\n');
  assert.deepEqual(
    parseCounts('cargo', out, 0),
    counts(1, 0, 1, 0, [
      {
        test: 'multicast_in_a_private_network_namespace',
        reason: 'creating a network namespace needs root',
      },
    ]),
  );
});

test('jest: passed, failed, skipped and todo from every "Tests:" line; ENV-SKIP lines', () => {
  assert.deepEqual(parseCounts('jest', 'Tests:       40 passed, 40 total', 0), counts(40, 0));
  assert.deepEqual(
    parseCounts('jest', 'Tests:       2 failed, 1 skipped, 3 todo, 9 passed, 15 total', 1),
    counts(9, 2, 1, 3),
  );
  const warned =
    '  console.warn\n    ENV-SKIP renders: no fonts installed\n\nTests: 5 passed, 5 total';
  assert.deepEqual(
    parseCounts('jest', warned, 0),
    counts(4, 0, 1, 0, [{ test: 'renders', reason: 'no fonts installed' }]),
  );
  assert.deepEqual(parseCounts('jest', 'Tests:       0 total', 0), counts(0, 0));
  assert.equal(parseCounts('jest', 'No tests found, exiting with code 1', 1), null);
});

test('a check counts as one test decided by its exit code', () => {
  assert.deepEqual(parseCounts('check', '', 0), counts(1, 0));
  assert.deepEqual(parseCounts('check', '', 3), counts(0, 1));
});

const suite = { name: 'daemon', min: 10 };

test('judge: a clean suite at or above its minimum passes, skips and todo shown, not failed', () => {
  const r = judge(suite, counts(10, 0, 2, 1), 0, { ci: true });
  assert.deepEqual(r, { name: 'daemon', ...counts(10, 0, 2, 1), problems: [] });
});

test('judge: zero tests, or zero passed, is a failure (broken discovery)', () => {
  const none = judge(suite, counts(0, 0), 0, { ci: false });
  assert.equal(none.failed, 1);
  assert.match(none.problems.join(), /no test passed: is test discovery broken/);
  const allSkipped = judge({ name: 'x' }, counts(0, 0, 5), 0, { ci: false });
  assert.equal(allSkipped.failed, 1);
});

test('judge: fewer passed than the committed minimum is a failure naming both numbers', () => {
  const r = judge(suite, counts(9, 0), 0, { ci: false });
  assert.equal(r.failed, 1);
  assert.match(r.problems[0], /9 passed, fewer than its minimum of 10/);
});

test('judge: an environment skip is a skip locally and a failure under CI', () => {
  const skip = { test: 'systemd-analyze verify', reason: 'systemd-analyze is not installed' };
  const local = judge(suite, counts(12, 0, 1, 0, [skip]), 0, { ci: false });
  assert.deepEqual([local.failed, local.skipped, local.problems], [0, 1, []]);
  const ci = judge(suite, counts(12, 0, 1, 0, [skip]), 0, { ci: true });
  assert.deepEqual([ci.failed, ci.skipped], [1, 0]);
  assert.match(ci.problems[0], /1 test\(s\) skipped for want of something CI must have/);
  assert.deepEqual(ci.envSkips, [skip]);
});

test('judge: no summary, or a non-zero exit with no failed test, is a failure', () => {
  const missing = judge(suite, null, 1, { ci: false });
  assert.deepEqual(
    [missing.failed, missing.problems],
    [1, ['no test summary found in its output']],
  );
  const crashed = judge(suite, counts(20, 0), 134, { ci: false });
  assert.equal(crashed.failed, 1);
  assert.match(crashed.problems[0], /exit code 134 with no failed test reported/);
});

test('summary: per-suite counts and reasons, and a final line that counts skips (todo when any)', () => {
  const skip = { test: 'verify', reason: 'systemd-analyze is not installed' };
  const results = [
    { ...judge({ name: 'scripts', min: 1 }, counts(7, 0, 0, 2), 0, { ci: true }), seconds: '0.4' },
    judge(suite, counts(11, 0, 1, 0, [skip]), 0, { ci: true }),
    judge({ name: 'site', min: 3 }, counts(0, 0), 0, { ci: true }),
  ];
  assert.deepEqual(summaryLines(results), [
    '=== summary',
    'ok   scripts: 7 passed, 0 failed, 0 skipped, 2 todo, 0.4 s',
    'FAIL daemon: 11 passed, 1 failed, 0 skipped',
    '       1 test(s) skipped for want of something CI must have (CI=true)',
    '       env skip: verify: systemd-analyze is not installed',
    'FAIL site: 0 passed, 1 failed, 0 skipped',
    '       no test passed: is test discovery broken?',
    '18 passed, 2 failed, 0 skipped, 2 todo',
  ]);
  // The final line is the plain closing line CI reads: "N passed, N failed, N skipped".
  assert.match(countsText(counts(3, 0, 1)), /^\d+ passed, \d+ failed, \d+ skipped$/);
});

test('CI is recognised as .ci/run sets it', () => {
  assert.equal(isCi({ CI: 'true' }), true);
  assert.equal(isCi({ CI: '1' }), true);
  assert.equal(isCi({}), false);
  assert.equal(isCi({ CI: 'false' }), false);
});

test('every suite has a format and a committed minimum of at least one passed test', () => {
  for (const s of suites) {
    assert.ok(['check', 'node-test', 'cargo', 'jest'].includes(s.format), s.name);
    assert.ok(Number.isInteger(s.min) && s.min >= 1, `${s.name}: min ${s.min}`);
  }
});
