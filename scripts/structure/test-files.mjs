// Test files that their runner would not pick up (for scripts/structure/check-structure.mjs): each
// node:test suite of `npm test` picks its files by name (`find test -name '*.test.ts'` and the
// like), so a file that declares tests under another name (a rename to `.spec.ts`, `.tests.ts`)
// would silently leave the suite. Every file under a test folder that declares tests must match
// the folder's pattern, and every file matching it must declare tests.
import { existsSync, readFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { walk } from './files.mjs';

/** The folders of the `scripts` suite: the tests of each role of scripts/, beside it. */
export const SCRIPTS_TEST_FOLDERS = [
  'scripts/bench/test',
  'scripts/release/test',
  'scripts/run-tests/test',
  'scripts/start/test',
  'scripts/structure/test',
];

/** Test folders, the file names their suite's runner picks, and which suite that is. */
export const TEST_FOLDERS = [
  { dir: 'daemon/test', pattern: /\.test\.ts$/, suite: 'daemon' },
  { dir: 'daemon/dashboard/test', pattern: /\.test\.ts$/, suite: 'dashboard: unit' },
  { dir: 'daemon/dashboard/e2e', pattern: /\.test\.ts$/, suite: 'dashboard: e2e' },
  { dir: 'site/e2e', pattern: /\.test\.ts$/, suite: 'site: e2e' },
  { dir: 'site/test/flasher/protocol', pattern: /\.spec\.ts$/, suite: 'site: flasher protocol' },
  ...SCRIPTS_TEST_FOLDERS.map((dir) => ({ dir, pattern: /\.test\.mjs$/, suite: 'scripts' })),
  { dir: 'scripts/release/package/test', pattern: /\.test\.mjs$/, suite: 'packaging' },
  { dir: 'native/napi/__test__', pattern: /\.test\.mjs$/, suite: 'native: napi binding (JS)' },
];

/** Trees whose every test file must lie in one of `TEST_FOLDERS`: a moved one cannot drop out. */
export const TEST_TREES = ['scripts'];

const SCRIPT = /\.(ts|tsx|mts|mjs|js)$/;

/** Whether a file's source declares node:test tests (imports test, it, describe or suite). */
export function declaresTests(source) {
  if (/import\s+\w+\s*(?:,\s*\{[^}]*\})?\s*from\s*['"]node:test['"]/.test(source)) return true;
  for (const [, names] of source.matchAll(/import\s*\{([^}]*)\}\s*from\s*['"]node:test['"]/g)) {
    const values = names.split(',').map((n) => n.trim().split(/\s+as\s+/)[0]);
    if (values.some((n) => ['test', 'it', 'describe', 'suite'].includes(n))) return true;
  }
  return false;
}

/** Problems with the test files under `folders` of the repository at `repo`. */
export function testFileProblems(repo, folders = TEST_FOLDERS) {
  const problems = [];
  for (const { dir, pattern, suite } of folders) {
    const root = join(repo, dir);
    if (!existsSync(root)) continue;
    for (const path of walk(root).filter((p) => SCRIPT.test(p))) {
      const file = relative(repo, path).split(sep).join('/');
      const picked = pattern.test(file);
      const declares = declaresTests(readFileSync(path, 'utf8'));
      if (declares && !picked) {
        problems.push(
          `${file} declares tests the '${suite}' suite never runs (it runs ${pattern})`,
        );
      } else if (picked && !declares) {
        problems.push(`${file} is run by the '${suite}' suite but declares no node:test test`);
      }
    }
  }
  return problems;
}

/**
 * Test files under `trees` of the repository at `repo` that lie in none of `folders` (a test moved
 * beside its script, or a new folder no suite lists): no suite would run them.
 */
export function strayTestFiles(repo, trees = TEST_TREES, folders = TEST_FOLDERS) {
  const problems = [];
  for (const tree of trees) {
    const root = join(repo, tree);
    if (!existsSync(root)) continue;
    const inTree = folders.filter(({ dir }) => `${dir}/`.startsWith(`${tree}/`));
    for (const path of walk(root).filter((p) => SCRIPT.test(p))) {
      const file = relative(repo, path).split(sep).join('/');
      if (inTree.some(({ dir }) => file.startsWith(`${dir}/`))) continue;
      if (/\.(test|spec)\.[cm]?[jt]sx?$/.test(file) || declaresTests(readFileSync(path, 'utf8'))) {
        const where = inTree.map(({ dir }) => dir).join(', ');
        problems.push(`${file} holds tests outside the folders the suites run (${where})`);
      }
    }
  }
  return problems;
}
