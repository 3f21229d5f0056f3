import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { readAllowedSkips, recorded } from '../test-inventory.mjs';
import { countsText, isCi, judge, parseCounts, summaryLines } from '../test-results.mjs';
import { suites } from '../test-suites.mjs';

const counts = (passed, failed, skipped = 0, todo = 0, envSkips = [], skips = envSkips) => ({
  passed,
  failed,
  skipped,
  todo,
  envSkips,
  skips,
  names: [],
});

/** The counts of a parse, without the names (tested on their own). */
const countsOf = (parsed) => parsed && { ...parsed, names: [] };

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
test('plain', { skip: true }, () => {});
test('to write', { todo: true }, () => {});
test('to write later', { todo: 'later' }, () => {});
test('fails', () => { throw new Error('boom'); });
test('group', async (t) => { await t.test('inner (x)', () => {}); });
`;

test('node:test spec and TAP output of a real run: every count, name and skip, which were env skips', (t) => {
  for (const reporter of ['spec', 'tap']) {
    const { output, code } = nodeTestOutput(t, sample, reporter);
    assert.equal(code, 1, output);
    const parsed = parseCounts('node-test', output, code);
    assert.deepEqual(
      countsOf(parsed),
      counts(
        3,
        1,
        4,
        2,
        [
          { test: 'no tool', reason: 'systemd-analyze is not installed' },
          { test: 'not root', reason: 'needs root' },
        ],
        [
          { test: 'no tool', reason: 'env: systemd-analyze is not installed' },
          { test: 'not root', reason: 'env: needs root' },
          { test: 'skipped on purpose', reason: 'flaky upstream' },
          { test: 'plain', reason: 'SKIP' },
          { test: 'to write', reason: 'todo' },
          { test: 'to write later', reason: 'todo: later' },
        ],
      ),
      `${reporter}:\n${output}`,
    );
    assert.deepEqual(
      parsed.names,
      [
        'fails',
        'group',
        'inner (x)',
        'no tool',
        'not root',
        'passes',
        'plain',
        'skipped on purpose',
        'to write',
        'to write later',
      ],
      reporter,
    );
  }
});

test('node:test summaries are summed over runs; cancelled tests count as failed', () => {
  const tapTwice = '# pass 3\n# fail 0\n# skipped 1\n...\n# pass 2\n# fail 2\n# cancelled 1\n';
  assert.deepEqual(parseCounts('node-test', tapTwice, 1), counts(5, 3, 1));
  assert.deepEqual(parseCounts('node-test', 'ℹ tests 0\nℹ pass 0\nℹ fail 0\n', 0), counts(0, 0));
  // The spec reporter repeats failing tests at the end: named once.
  const failing = '✖ boom (1ms)\nℹ pass 0\nℹ fail 1\n\n✖ failing tests:\n\n✖ boom (1ms)\n';
  assert.deepEqual(parseCounts('node-test', failing, 1).names, ['boom']);
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
  const named = [
    'test eq::tests::flat ... ok',
    'test slow ... ignored, needs an hour',
    'test plain ... ignored',
    'test multicast ... ENV-SKIP multicast: needs root',
    'test broken ... FAILED',
    'test result: FAILED. 2 passed; 1 failed; 2 ignored',
  ].join('\n');
  const parsed = parseCounts('cargo', named, 101);
  assert.deepEqual(parsed.names, ['broken', 'eq::tests::flat', 'multicast', 'plain', 'slow']);
  assert.deepEqual(parsed.skips, [
    { test: 'slow', reason: 'needs an hour' },
    { test: 'plain', reason: 'ignored' },
    { test: 'multicast', reason: 'needs root' },
  ]);
  assert.equal(parseCounts('cargo', 'error[E0425]: cannot find value', 101), null);
});

test('cargo: an ENV-SKIP line (even after progress dots) moves its test from passed to skipped', () => {
  const out = [
    '....ENV-SKIP multicast_in_a_private_network_namespace: creating a network namespace needs root',
    '.',
    'test result: ok. 2 passed; 0 failed; 0 ignored',
  ].join('\n');
  assert.deepEqual(
    countsOf(parseCounts('cargo', out, 0)),
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

const suite = { name: 'daemon' };
/** A judged result's fields: the counts without the names. */
const shown = (c) => {
  const { names: _, ...rest } = c;
  return rest;
};

test('judge: a clean suite passes; outside CI its skips and todo are shown, not failed', () => {
  const skip = { test: 'slow', reason: 'takes an hour' };
  const r = judge(suite, counts(10, 0, 1, 1, [], [skip]), 0, { ci: false });
  assert.deepEqual(r, { name: 'daemon', ...shown(counts(10, 0, 1, 1, [], [skip])), problems: [] });
});

test('judge: zero tests, or zero passed, is a failure (broken discovery)', () => {
  const none = judge(suite, counts(0, 0), 0, { ci: false });
  assert.equal(none.failed, 1);
  assert.match(none.problems.join(), /no test passed: is test discovery broken/);
  const allSkipped = judge({ name: 'x' }, counts(0, 0, 5), 0, { ci: false });
  assert.equal(allSkipped.failed, 1);
});

test('judge: fewer tests than the inventory records is a failure naming the missing tests', () => {
  const expected = { tests: 4, names: ['a', 'b', 'gone', 'lost'] };
  const ran = { ...counts(3, 0), names: ['a', 'b', 'new'] };
  const r = judge(suite, ran, 0, { ci: false, expected });
  assert.equal(r.failed, 1);
  assert.match(
    r.problems[0],
    /^3 tests, fewer than the 4 scripts\/run-tests\/test-inventory.json lists/,
  );
  assert.match(r.problems[0], /npm test -- --record daemon\); missing: gone; lost$/);
  // Skipped and failed tests are still there: only tests that vanished count.
  const skipped = judge(suite, { ...counts(2, 1, 1), names: [] }, 1, { ci: false, expected });
  assert.equal(skipped.problems.length, 0);
  // More tests than recorded is fine (recorded with the next --record).
  assert.equal(judge(suite, counts(9, 0), 0, { ci: false, expected }).failed, 0);
});

test('judge: under CI every skip and todo fails unless allowed by name; unnamed ones fail too', () => {
  const env = { test: 'systemd-analyze verify', reason: 'systemd-analyze is not installed' };
  const skips = [
    { ...env, reason: `env: ${env.reason}` },
    { test: 'flaky', reason: 'flaky upstream' },
    { test: 'later', reason: 'todo: write it' },
  ];
  const c = counts(12, 0, 2, 1, [env], skips);
  const local = judge(suite, c, 0, { ci: false });
  assert.deepEqual([local.failed, local.skipped, local.todo, local.problems], [0, 2, 1, []]);
  const ci = judge(suite, c, 0, { ci: true });
  assert.deepEqual([ci.failed, ci.skipped, ci.todo], [3, 0, 0]);
  assert.match(
    ci.problems[0],
    /^3 skipped or todo test\(s\) not in scripts\/run-tests\/allowed-skips.json/,
  );
  assert.match(ci.problems[0], /flaky \(flaky upstream\); later \(todo: write it\)$/);
  const allowed = [{ suite: 'daemon', test: 'flaky', reason: 'upstream bug #12' }];
  const some = judge(suite, c, 0, { ci: true, allowed });
  assert.deepEqual([some.failed, some.skipped, some.todo], [2, 1, 0]);
  // Two skips the runner counted but did not name (jest): neither can be allowed.
  const unnamed = judge(suite, counts(5, 0, 2), 0, { ci: true, allowed });
  assert.equal(unnamed.failed, 2);
  assert.match(unnamed.problems[0], /2 the runner does not name$/);
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
    { ...judge({ name: 'scripts' }, counts(7, 0, 0, 2), 0, { ci: false }), seconds: '0.4' },
    judge(suite, counts(11, 0, 1, 0, [skip]), 0, { ci: true }),
    judge({ name: 'site' }, counts(0, 0), 0, { ci: true }),
  ];
  assert.deepEqual(summaryLines(results), [
    '=== summary',
    'ok   scripts: 7 passed, 0 failed, 0 skipped, 2 todo, 0.4 s',
    'FAIL daemon: 11 passed, 1 failed, 0 skipped',
    '       1 skipped or todo test(s) not in scripts/run-tests/allowed-skips.json (CI=true): verify (systemd-analyze is not installed)',
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

test('every suite has a format; the allowed skips are empty today', () => {
  for (const s of suites) {
    assert.ok(['check', 'node-test', 'cargo', 'jest'].includes(s.format), s.name);
  }
  assert.deepEqual(readAllowedSkips(), []);
});

test('a suite the inventory does not list fails, asking for it to be recorded', () => {
  const r = judge(suite, counts(3, 0), 0, { ci: false, expected: null });
  assert.equal(r.failed, 1);
  assert.deepEqual(r.problems, [
    'not in scripts/run-tests/test-inventory.json: record it with npm test -- --record daemon',
  ]);
});

test('an allowed skip without a reason is refused', (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'allowed-skips-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const path = join(dir, 'allowed-skips.json');
  writeFileSync(path, JSON.stringify([{ suite: 'daemon', test: 'x', reason: ' ' }]));
  assert.throws(() => readAllowedSkips(path), /every entry needs a non-empty reason/);
  writeFileSync(path, JSON.stringify([{ suite: 'daemon', test: 'x', reason: 'bug #1' }]));
  assert.equal(readAllowedSkips(path).length, 1);
});

test('recording keeps other suites and writes each run suite as it ran', () => {
  const before = { daemon: { tests: 5, names: ['a'] }, site: { tests: 9, names: [] } };
  const run = { ...counts(4, 0, 1, 1), names: ['a', 'b'] };
  assert.deepEqual(recorded(before, [{ name: 'daemon', counts: run }]), {
    daemon: { tests: 6, names: ['a', 'b'] },
    site: { tests: 9, names: [] },
  });
});

test('a failed run only adds to its record: a crash may have hidden tests', () => {
  const before = { daemon: { tests: 5, names: ['a', 'c'] } };
  const run = { ...counts(2, 1, 0, 0), names: ['a', 'b', 'x'] };
  assert.deepEqual(recorded(before, [{ name: 'daemon', counts: run, failed: true }]), {
    daemon: { tests: 5, names: ['a', 'c', 'b', 'x'] },
  });
  // Never recorded before: recorded as it ran.
  assert.deepEqual(recorded({}, [{ name: 'daemon', counts: run, failed: true }]), {
    daemon: { tests: 3, names: ['a', 'b', 'x'] },
  });
});
