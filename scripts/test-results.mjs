// How `npm test` reads and judges a suite's output: its passed, failed, skipped and todo counts,
// the skips the machine caused (a missing tool, not root, no git checkout), and the rules that make
// a run red even when no test reported a failure: nothing passed, fewer tests than the suite's
// committed minimum, or (with CI=true, where everything is installed and tests run as root) any
// skip caused by the environment.
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

const sumOf = (text, re) => [...text.matchAll(re)].reduce((n, m) => n + Number(m[1]), 0);

/** The environment skips a node:test run reported (spec and TAP reporters). */
function nodeEnvSkips(text) {
  const spec = [...text.matchAll(/^\s*﹣ (.+?) \([\d.]+m?s\) # env: (.*)$/gm)];
  const tap = [...text.matchAll(/^\s*ok \d+ - (.+?) # SKIP env: (.*)$/gm)];
  return [...spec, ...tap].map(([, test, reason]) => ({ test, reason: reason.trim() }));
}

/** `ENV-SKIP <name>: <why>` lines, anywhere on a line (cargo's progress dots may precede one). */
function markerEnvSkips(text) {
  return [...text.matchAll(/ENV-SKIP (\S+): (.*)$/gm)].map(([, test, reason]) => ({
    test,
    reason: reason.trim(),
  }));
}

/**
 * The counts a suite's output reports, or null when it has no summary to read.
 * @returns {{passed:number, failed:number, skipped:number, todo:number,
 *   envSkips:{test:string, reason:string}[]} | null}
 */
export function parseCounts(format, output, exitCode) {
  const text = output.replace(ansi, '');
  switch (format) {
    case 'check': {
      const ok = exitCode === 0;
      return { passed: ok ? 1 : 0, failed: ok ? 0 : 1, skipped: 0, todo: 0, envSkips: [] };
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
      };
    }
    default:
      throw new Error(`unknown result format ${format}`);
  }
}

/**
 * A suite's result: its counts with the run's rules applied. Every rule broken adds to `failed`
 * and says why in `problems`; under CI each environment skip becomes a failure.
 */
export function judge(suite, counts, exitCode, { ci = isCi() } = {}) {
  const problems = [];
  if (!counts) {
    return {
      name: suite.name,
      passed: 0,
      failed: 1,
      skipped: 0,
      todo: 0,
      envSkips: [],
      problems: ['no test summary found in its output'],
    };
  }
  const result = { name: suite.name, ...counts, envSkips: [...counts.envSkips] };
  if (exitCode !== 0 && result.failed === 0) {
    result.failed = 1;
    problems.push(`exit code ${exitCode} with no failed test reported`);
  }
  if (result.passed === 0) {
    result.failed += 1;
    problems.push('no test passed: is test discovery broken?');
  } else if (result.passed < (suite.min ?? 1)) {
    result.failed += 1;
    problems.push(
      `${result.passed} passed, fewer than its minimum of ${suite.min} (tests lost? lower the minimum in scripts/test-suites.mjs if on purpose)`,
    );
  }
  if (ci && result.envSkips.length > 0) {
    result.skipped -= result.envSkips.length;
    result.failed += result.envSkips.length;
    problems.push(
      `${result.envSkips.length} test(s) skipped for want of something CI must have (CI=true)`,
    );
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
