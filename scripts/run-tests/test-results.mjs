// How `npm test` reads and judges a suite's output: its passed, failed, skipped and todo counts,
// the names of its tests and of the ones it skipped (where the runner prints them), the skips the
// machine caused (a missing tool, not root, no git checkout), and the rules that make a run red
// even when no test reported a failure: nothing passed, fewer tests than the committed inventory
// (scripts/run-tests/test-inventory.json) lists for the suite, or, with CI=true (everything
// installed, run as root), any skip or todo that scripts/run-tests/allowed-skips.json does not list
// with its reason.
//
// How a test says "skipped because of this machine":
// - node:test: `t.skip('env: <why>')` or `test(name, { skip: 'env: <why>' }, ...)`; the spec
//   reporter prints `﹣ <name> (1ms) # env: <why>`, the TAP reporter `# SKIP env: <why>`.
// - cargo and jest, which have no skip with a reason: the test writes the line
//   `ENV-SKIP <name>: <why>` (cargo: straight to stderr, past the harness's capture) and returns,
//   so its runner counts it as passed; it is counted here as skipped instead. Under CI the test
//   fails (panics, throws) rather than skipping.

// biome-ignore lint/suspicious/noControlCharactersInRegex: ANSI escape sequences
const ansi = /\u001b\[[0-9;]*[A-Za-z]/g;

/** True when the environment says this is a CI run (CI=true, as .ci/run sets it). */
export function isCi(env = process.env) {
  return /^(1|true|yes)$/i.test(env.CI ?? '');
}

/** A suite's parsed output with nothing in it. */
const NONE = { passed: 0, failed: 0, skipped: 0, todo: 0, envSkips: [], skips: [], names: [] };

const sumOf = (text, re) => [...text.matchAll(re)].reduce((n, m) => n + Number(m[1]), 0);

/** The environment skips a node:test run reported (spec and TAP reporters). */
function nodeEnvSkips(text) {
  return nodeSkips(text)
    .filter((s) => s.reason.startsWith('env: '))
    .map(({ test, reason }) => ({ test, reason: reason.slice(5).trim() }));
}

/**
 * Every skipped and todo test a node:test run named, with its reason. Spec: `﹣ name (1ms) # why`
 * is a skip, `✔ name (1ms) # why` (a comment after a result) a todo; TAP: `# SKIP`, `# TODO`.
 */
function nodeSkips(text) {
  const spec = [...text.matchAll(/^\s*([﹣✔✖]) (.+?) \([\d.]+m?s\) # (.*)$/gm)].map(
    ([, mark, test, why]) => ({ test, reason: mark === '﹣' ? why.trim() : todo(why) }),
  );
  const tap = [...text.matchAll(/^\s*(?:not )?ok \d+ - (.+?) # (SKIP|TODO)\b ?(.*)$/gm)].map(
    ([, test, kind, why]) => ({ test, reason: kind === 'TODO' ? todo(why) : why.trim() || 'SKIP' }),
  );
  return dedupe([...spec, ...tap]);
}

/** A todo's reason: `todo`, or `todo: why` when it gave one. */
const todo = (why) => (why.trim() && why.trim() !== 'TODO' ? `todo: ${why.trim()}` : 'todo');

/** Whether a skip's reason says it is a todo. */
const isTodo = (reason) => /^todo(:|$)/.test(reason);

/** The names of every test (and suite) a node:test run reported, spec and TAP reporters. */
function nodeNames(text) {
  const spec = [...text.matchAll(/^\s*[✔✖﹣] (.+?) \([\d.]+m?s\)(?: # .*)?$/gm)];
  const tap = [...text.matchAll(/^\s*(?:not )?ok \d+ - (.+?)(?: # (?:SKIP|TODO)\b.*)?$/gm)];
  return [...new Set([...spec, ...tap].map((m) => m[1]))].sort();
}

/** Cargo's `test NAME ... ok|FAILED|ignored` lines (without --quiet): names, and ignored ones. */
function cargoNames(text) {
  return [...new Set([...text.matchAll(/^test (\S+) \.\.\. /gm)].map((m) => m[1]))].sort();
}

function cargoIgnored(text) {
  return [...text.matchAll(/^test (\S+) \.\.\. ignored(?:, (.*))?$/gm)].map(([, test, why]) => ({
    test,
    reason: why?.trim() || 'ignored',
  }));
}

/** `ENV-SKIP <name>: <why>` lines, anywhere on a line (cargo's progress dots may precede one). */
function markerEnvSkips(text) {
  return [...text.matchAll(/ENV-SKIP (\S+): (.*)$/gm)].map(([, test, reason]) => ({
    test,
    reason: reason.trim(),
  }));
}

/** A list of skips without repeats (the spec reporter prints failing tests twice). */
function dedupe(skips) {
  const seen = new Set();
  return skips.filter(({ test, reason }) => {
    const key = `${test}\u0000${reason}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/**
 * The counts a suite's output reports, or null when it has no summary to read.
 * `names`: the tests the runner named (none for jest and checks); `skips`: the skipped and todo
 * tests it named, with their reasons; `envSkips`: those the machine caused.
 * @returns {{passed:number, failed:number, skipped:number, todo:number,
 *   envSkips:{test:string, reason:string}[], skips:{test:string, reason:string}[],
 *   names:string[]} | null}
 */
export function parseCounts(format, output, exitCode) {
  const text = output.replace(ansi, '');
  switch (format) {
    case 'check': {
      const ok = exitCode === 0;
      return { ...NONE, passed: ok ? 1 : 0, failed: ok ? 0 : 1 };
    }
    case 'node-test': {
      const line = (word) => new RegExp(`^(?:# |ℹ )${word} (\\d+)\\s*$`, 'gm');
      if (text.match(line('pass')) === null) return null;
      return {
        passed: sumOf(text, line('pass')),
        // A cancelled test (its file crashed, or it timed out) did not pass either.
        failed: sumOf(text, line('fail')) + sumOf(text, line('cancelled')),
        skipped: sumOf(text, line('skipped')),
        todo: sumOf(text, line('todo')),
        envSkips: nodeEnvSkips(text),
        skips: nodeSkips(text),
        names: nodeNames(text),
      };
    }
    case 'cargo': {
      const lines = [
        ...text.matchAll(/^test result: \w+\. (\d+) passed; (\d+) failed; (\d+) ignored/gm),
      ];
      if (lines.length === 0) return null;
      const total = (i) => lines.reduce((n, m) => n + Number(m[i]), 0);
      const envSkips = markerEnvSkips(text);
      return {
        passed: total(1) - envSkips.length,
        failed: total(2),
        skipped: total(3) + envSkips.length,
        todo: 0,
        envSkips,
        skips: dedupe([...cargoIgnored(text), ...envSkips]),
        names: cargoNames(text),
      };
    }
    case 'jest': {
      const lines = [...text.matchAll(/^Tests:\s+(.*)$/gm)].map((m) => m[1]);
      if (lines.length === 0) return null;
      const total = (word) =>
        lines.reduce((n, l) => n + Number(new RegExp(`(\\d+) ${word}`).exec(l)?.[1] ?? 0), 0);
      const envSkips = markerEnvSkips(text);
      return {
        passed: total('passed') - envSkips.length,
        failed: total('failed'),
        skipped: total('skipped') + envSkips.length,
        todo: total('todo'),
        envSkips,
        skips: envSkips,
        names: [],
      };
    }
    default:
      throw new Error(`unknown result format ${format}`);
  }
}

/** How many tests a run had at all: run, failed, skipped or left to do. */
export const present = (c) => c.passed + c.failed + c.skipped + c.todo;

/** At most `n` items of a list, and how many more. */
function some(list, n = 10) {
  return list.length > n
    ? `${list.slice(0, n).join('; ')} (and ${list.length - n} more)`
    : list.join('; ');
}

/**
 * A suite's result: its counts with the run's rules applied. Every rule broken adds to `failed`
 * and says why in `problems`.
 * - `expected`: the suite's entry in scripts/run-tests/test-inventory.json (`{tests, names}`):
 *   fewer tests than it lists is a failure naming the tests that went missing (where the runner
 *   names them); null (the suite has no entry) is a failure too; undefined (recording) checks
 *   nothing.
 * - under CI, a skip or todo that `allowed` (scripts/run-tests/allowed-skips.json's entries for the
 *   suite) does not list by name is a failure; so is one the runner cannot name.
 */
export function judge(suite, counts, exitCode, { ci = isCi(), expected, allowed = [] } = {}) {
  const problems = [];
  if (!counts) {
    return {
      name: suite.name,
      ...NONE,
      failed: 1,
      problems: ['no test summary found in its output'],
    };
  }
  const { names, ...shown } = counts;
  const result = { name: suite.name, ...shown, envSkips: [...counts.envSkips] };
  if (exitCode !== 0 && result.failed === 0) {
    result.failed = 1;
    problems.push(`exit code ${exitCode} with no failed test reported`);
  }
  if (result.passed === 0) {
    result.failed += 1;
    problems.push('no test passed: is test discovery broken?');
  }
  const ran = present(counts);
  if (expected === null) {
    result.failed += 1;
    problems.push(
      'not in scripts/run-tests/test-inventory.json: ' +
        `record it with npm test -- --record ${suite.name}`,
    );
  } else if (expected && ran < expected.tests) {
    result.failed += 1;
    const here = new Set(names);
    const missing = expected.names.filter((n) => !here.has(n));
    problems.push(
      `${ran} tests, fewer than the ${expected.tests} scripts/run-tests/test-inventory.json ` +
        'lists (tests lost? ' +
        `if on purpose, record it again: npm test -- --record ${suite.name})` +
        (missing.length ? `; missing: ${some(missing)}` : ''),
    );
  }
  if (ci) {
    const listed = new Set(allowed.map((a) => a.test));
    const unlisted = counts.skips.filter((s) => !listed.has(s.test));
    const unnamed = Math.max(0, counts.skipped + counts.todo - counts.skips.length);
    if (unlisted.length + unnamed > 0) {
      const todos = unlisted.filter((s) => isTodo(s.reason)).length;
      result.todo = Math.max(0, result.todo - todos);
      result.skipped = Math.max(0, result.skipped - (unlisted.length - todos) - unnamed);
      result.failed += unlisted.length + unnamed;
      const what = unlisted.map((s) => `${s.test} (${s.reason})`);
      if (unnamed) what.push(`${unnamed} the runner does not name`);
      problems.push(
        `${unlisted.length + unnamed} skipped or todo test(s) not in ` +
          'scripts/run-tests/allowed-skips.json ' +
          `(CI=true): ${some(what)}`,
      );
    }
  }
  return { ...result, problems };
}

/** "N passed, N failed, N skipped" and ", N todo" when there are any. */
export function countsText({ passed, failed, skipped, todo }) {
  return `${passed} passed, ${failed} failed, ${skipped} skipped${todo ? `, ${todo} todo` : ''}`;
}

/** The summary printed after every suite ran; its last line is the whole run's counts. */
export function summaryLines(results) {
  const lines = ['=== summary'];
  for (const r of results) {
    const time = r.seconds === undefined ? '' : `, ${r.seconds} s`;
    lines.push(`${r.failed ? 'FAIL' : 'ok  '} ${r.name}: ${countsText(r)}${time}`);
    for (const problem of r.problems) lines.push(`       ${problem}`);
    for (const skip of r.envSkips) lines.push(`       env skip: ${skip.test}: ${skip.reason}`);
  }
  const total = (key) => results.reduce((n, r) => n + r[key], 0);
  lines.push(
    countsText({
      passed: total('passed'),
      failed: total('failed'),
      skipped: total('skipped'),
      todo: total('todo'),
    }),
  );
  return lines;
}
