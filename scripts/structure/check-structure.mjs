#!/usr/bin/env node
// The repository's structure rules, checked (`node scripts/structure/check-structure.mjs`, the
// `structure` suite of `npm test`, so CI runs it):
//   - no import circles between the modules of a Rust crate (`native/*/src`: `use crate::...`,
//     `super::...`, `self::...` and child-module paths, resolved to the file that holds the module)
//     nor between the files of a TypeScript program (`TS_ROOTS`: static and dynamic
//     `import`/`export ... from`) nor between the modules of C code (`C_ROOTS`: a .c file and its
//     header, depending on the headers it includes and on the files defining what it calls);
//   - a README.md in every folder of `README_FOLDERS`;
//   - no source file (Rust, TypeScript, JavaScript, C) under `LENGTH_ROOTS` longer than 450 lines,
//     except generated files and the exceptions listed in files.mjs with their reason;
//   - every file under a test folder that declares node:test tests has the name its suite's runner
//     picks, and every file so named declares tests, and no test file under `TEST_TREES`
//     (scripts/) lies outside the folders its suites run (test-files.mjs).
// Code under `#[cfg(test)]` (inline test modules and test-only module files) is left out of the
// Rust graph: tests may use whatever they test. The parts live beside this file.
import { existsSync, readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { cGraph } from './c-graph.mjs';
import { findCycles } from './cycles.mjs';
import { GENERATED, LONG_FILE_EXCEPTIONS, longFiles, MAX_LINES } from './files.mjs';
import { rustGraph } from './rust-graph.mjs';
import { strayTestFiles, TEST_FOLDERS, TEST_TREES, testFileProblems } from './test-files.mjs';
import { tsGraph } from './ts-graph.mjs';

export { cGraph, definedFunctions, stripC } from './c-graph.mjs';
export { findCycles } from './cycles.mjs';
export { GENERATED, LONG_FILE_EXCEPTIONS, longFiles, MAX_LINES, walk } from './files.mjs';
export { expandUseTree, rustGraph, stripRust } from './rust-graph.mjs';
export {
  declaresTests,
  SCRIPTS_TEST_FOLDERS,
  strayTestFiles,
  TEST_FOLDERS,
  TEST_TREES,
  testFileProblems,
} from './test-files.mjs';
export { tsGraph } from './ts-graph.mjs';

/** The TypeScript programs whose files must not import each other in a circle. */
export const TS_ROOTS = [
  { root: 'daemon/src' },
  { root: 'daemon/dashboard/src' },
  { root: 'site', aliases: { '@/': '.' } },
  { root: 'scripts' },
];

/** The C code whose modules must not depend on each other in a circle (tests aside). */
export const C_ROOTS = [{ root: 'firmware', skip: ['test'] }];

/** Where every hand-written source file is at most `MAX_LINES` long. */
export const LENGTH_ROOTS = ['native', 'daemon', 'scripts', 'site', 'firmware'];

/** Folders that must say, in a README.md, what lives there and what must not. */
export const README_FOLDERS = [
  'content',
  'daemon',
  'daemon/dashboard',
  'daemon/src/http',
  'daemon/src/product-plugins',
  'daemon/src/services',
  'daemon/src/streams',
  'firmware',
  'native',
  'native/decode',
  'native/engine/src/graph',
  'native/engine/src/runtime',
  'native/engine/src/sink',
  'native/engine/src/sink/output',
  'native/engine/src/source',
  'native/engine/src/wire',
  'native/napi',
  'scripts',
  'site',
  'testdata',
];

/** Every structure problem of the repository at `repo`, as lines of text (none: all is well). */
export function check(
  repo,
  {
    exceptions = LONG_FILE_EXCEPTIONS,
    readmes = README_FOLDERS,
    testFolders = TEST_FOLDERS,
    testTrees = TEST_TREES,
  } = {},
) {
  const problems = [];
  const report = [];
  for (const folder of readmes) {
    if (!existsSync(join(repo, folder, 'README.md'))) {
      problems.push(`${folder}/README.md is missing: say what lives there and what must not`);
    }
  }
  const native = join(repo, 'native');
  const crates = existsSync(native)
    ? readdirSync(native)
        .sort()
        .map((name) => join('native', name, 'src'))
        .filter((src) => existsSync(join(repo, src)))
    : [];
  const graphs = [
    ...crates.map((src) => ({ root: src, edges: rustGraph(join(repo, src)) })),
    ...TS_ROOTS.filter(({ root }) => existsSync(join(repo, root))).map(({ root, aliases }) => ({
      root,
      edges: tsGraph(join(repo, root), { aliases }),
    })),
    ...C_ROOTS.filter(({ root }) => existsSync(join(repo, root))).map(({ root, skip }) => ({
      root,
      edges: cGraph(join(repo, root), { skip }),
    })),
  ];
  for (const { root, edges } of graphs) {
    const cycles = findCycles(edges);
    const count = [...edges.values()].reduce((n, s) => n + s.size, 0);
    report.push(`${root}: ${edges.size} modules, ${count} imports, ${cycles.length} circles`);
    for (const { members, cycle } of cycles) {
      const among =
        members.length > 2 ? ` (${members.length} modules in one knot: ${members.join(', ')})` : '';
      problems.push(`import circle in ${root}: ${cycle.join(' -> ')}${among}`);
    }
  }
  const long = longFiles(repo, LENGTH_ROOTS);
  for (const { file, lines } of long) {
    const reason = exceptions.get(file);
    if (reason) report.push(`${file}: ${lines} lines, allowed: ${reason}`);
    else problems.push(`${file}: ${lines} lines (at most ${MAX_LINES}; split it by concept)`);
  }
  report.push(
    `files over ${MAX_LINES} lines in ${LENGTH_ROOTS.join('/, ')}/: ${long.length}` +
      ` (generated, not counted: ${[...GENERATED].join(', ')})`,
  );
  const tests = testFileProblems(repo, testFolders);
  problems.push(...tests);
  report.push(`test files outside their suite's pattern: ${tests.length}`);
  const strays = strayTestFiles(repo, testTrees, testFolders);
  problems.push(...strays);
  report.push(
    `test files in ${testTrees.join(', ')} outside every suite's folders: ${strays.length}`,
  );
  return { problems, report };
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const repo = fileURLToPath(new URL('../..', import.meta.url));
  const { problems, report } = check(repo);
  for (const line of report) console.log(line);
  for (const line of problems) console.error(`FAIL ${line}`);
  console.log(problems.length === 0 ? 'structure: ok' : `structure: ${problems.length} problems`);
  process.exit(problems.length === 0 ? 0 : 1);
}
