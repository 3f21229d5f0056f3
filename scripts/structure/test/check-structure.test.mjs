import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { test } from 'node:test';
import {
  cGraph,
  check,
  declaresTests,
  expandUseTree,
  findCycles,
  longFiles,
  rustGraph,
  strayTestFiles,
  stripRust,
  testFileProblems,
  tsGraph,
} from '../check-structure.mjs';

/** A temporary tree with `files` ({path: text}), removed after the test. */
function tree(t, files) {
  const root = mkdtempSync(join(tmpdir(), 'structure-'));
  t.after(() => rmSync(root, { recursive: true, force: true }));
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  }
  return root;
}

const edgesOf = (graph) => Object.fromEntries([...graph].map(([k, v]) => [k, [...v].sort()]));

test('a circle of Rust modules through use, super:: and a path in code is found', (t) => {
  const root = tree(t, {
    'src/lib.rs': 'pub mod a;\npub mod b;\npub mod c;\n',
    'src/a.rs': 'use crate::b::{Thing, other::More as M};\npub struct A;\n',
    'src/b.rs': 'pub mod other;\npub fn f() -> u32 { crate::c::VALUE }\npub struct Thing;\n',
    'src/b/other.rs': 'use super::super::a::A;\npub struct More;\n',
    'src/c.rs': '// use crate::a; (a comment, not an import)\npub const VALUE: u32 = 1;\n',
  });
  const graph = rustGraph(join(root, 'src'));
  assert.deepEqual(edgesOf(graph), {
    'a.rs': ['b.rs', 'b/other.rs'],
    'b.rs': ['c.rs'],
    'b/other.rs': ['a.rs'],
    'c.rs': [],
    'lib.rs': [],
  });
  const cycles = findCycles(graph);
  assert.equal(cycles.length, 1);
  assert.deepEqual(cycles[0].members, ['a.rs', 'b/other.rs']);
  assert.deepEqual(cycles[0].cycle, ['a.rs', 'b/other.rs', 'a.rs']);
});

test('test-only Rust code does not count; strings and comments are not paths', (t) => {
  const root = tree(t, {
    'src/lib.rs': 'pub mod a;\npub mod b;\n',
    'src/a.rs':
      'pub fn a() {}\n#[cfg(test)]\nmod tests {\n    use crate::b::B;\n    fn f() { let _ = "crate::b::B"; }\n}\n#[cfg(test)]\nmod more;\n',
    'src/a/more.rs': 'use crate::b::B;\n',
    'src/b.rs': "use crate::a::a;\npub struct B<'x>(&'x str);\nconst C: char = '{';\n",
  });
  const graph = rustGraph(join(root, 'src'));
  assert.deepEqual(graph.get('a.rs'), new Set());
  assert.equal(graph.has('a/more.rs'), false, 'test-only module files are left out');
  assert.deepEqual(findCycles(graph), []);
});

test('use trees expand to every path they name', () => {
  assert.deepEqual(expandUseTree('crate::x::{self, y::{Z, W as V}, *}'), [
    ['crate', 'x'],
    ['crate', 'x', 'y', 'Z'],
    ['crate', 'x', 'y', 'W'],
    ['crate', 'x'],
  ]);
  assert.equal(stripRust('let s = r#"use crate::x;"#; // crate::y\n'), 'let s = ""; \n');
});

test('a circle of TypeScript imports (static, type-only, re-export, dynamic) is found', (t) => {
  const root = tree(t, {
    'src/a.ts': "import { b } from './b.js';\nexport const a = b;\n",
    'src/b.ts': "export type { C } from './c/index.js';\nexport const b = 1;\n",
    'src/c/index.ts': "import type { A } from '../d.js';\nexport interface C { a: A }\n",
    'src/d.ts':
      "// import './a.js'\nexport type A = number;\nconst later = () => import('./a.js');\n",
  });
  const graph = tsGraph(join(root, 'src'));
  assert.deepEqual(edgesOf(graph), {
    'a.ts': ['b.ts'],
    'b.ts': ['c/index.ts'],
    'c/index.ts': ['d.ts'],
    'd.ts': ['a.ts'],
  });
  const [cycle] = findCycles(graph);
  assert.deepEqual(cycle.cycle, ['a.ts', 'b.ts', 'c/index.ts', 'd.ts', 'a.ts']);
});

test('path aliases (tsconfig paths) and .tsx files are followed', (t) => {
  const root = tree(t, {
    'site/app/page.tsx': "import { Card } from '@/components/card';\nexport default Card;\n",
    'site/components/card.tsx': "import { page } from '@/app/page';\nexport const Card = page;\n",
    'site/lib/x.ts': "import 'react';\n",
  });
  const graph = tsGraph(join(root, 'site'), { aliases: { '@/': '.' } });
  assert.deepEqual(edgesOf(graph), {
    'app/page.tsx': ['components/card.tsx'],
    'components/card.tsx': ['app/page.tsx'],
    'lib/x.ts': [],
  });
  const { problems } = check(root, { readmes: ['site', 'site/lib'] });
  assert.deepEqual(problems, [
    'site/README.md is missing: say what lives there and what must not',
    'site/lib/README.md is missing: say what lives there and what must not',
    'import circle in site: app/page.tsx -> components/card.tsx -> app/page.tsx',
  ]);
});

test('two C files calling each other through one shared header are a circle', (t) => {
  const root = tree(t, {
    'firmware/jb/include/jb.h': '#pragma once\n#include <stdint.h>\nvoid jb_read(int *out);\n',
    'firmware/jb/core/jb_shared.h':
      '#pragma once\n#include "jb.h"\nvoid jb_forget(int n);\nvoid jb_confirm(int n);\n',
    'firmware/jb/core/jb_read.c':
      '#include "jb_shared.h"\nvoid jb_confirm(int n)\n{\n}\n\nvoid jb_read(int *out)\n{\n    jb_forget(*out);\n}\n',
    'firmware/jb/core/jb_write.c':
      '#include "jb_shared.h"\n\nvoid jb_forget(int n,\n               int unused)\n{\n    jb_confirm(n); // jb_read(0)\n}\n',
    'firmware/test/test_jb.c': '#include "jb.h"\nvoid jb_forget(int n)\n{\n    jb_read(&n);\n}\n',
  });
  const graph = cGraph(join(root, 'firmware'), { skip: ['test'] });
  assert.deepEqual(edgesOf(graph), {
    'jb/core/jb_read.c': ['jb/core/jb_shared.h', 'jb/core/jb_write.c'],
    'jb/core/jb_shared.h': ['jb/include/jb.h'],
    'jb/core/jb_write.c': ['jb/core/jb_read.c', 'jb/core/jb_shared.h'],
    'jb/include/jb.h': [],
  });
  assert.deepEqual(check(root, { readmes: [] }).problems, [
    'import circle in firmware: jb/core/jb_read.c -> jb/core/jb_write.c -> jb/core/jb_read.c',
  ]);
});

test('C: static functions, prototypes, comments and strings make no dependency', (t) => {
  const root = tree(t, {
    'firmware/a.h': '#pragma once\n#include "b.h"\nint a_get(void);\n',
    'firmware/b.h': '#pragma once\nint b_get(void);\n',
    'firmware/a.c':
      '#include "a.h"\nstatic int b_helper(void)\n{\n    return 1;\n}\n\nint a_get(void)\n{\n    return b_get() + b_helper();\n}\n',
    'firmware/b.c':
      '#include "b.h"\n/* a_get() */\nstatic int b_helper(void)\n{\n    return 2;\n}\n\nconst char *b_name(void)\n{\n    return "a_get()";\n}\n\nint b_get(void)\n{\n    return b_helper();\n}\n',
  });
  assert.deepEqual(edgesOf(cGraph(join(root, 'firmware'))), {
    'a.c': ['a.h', 'b.c'],
    'a.h': ['b.h'],
    'b.c': ['b.h'],
    'b.h': [],
  });
});

test('every source folder is measured, C included, build output not', (t) => {
  const lines = (n) => `${Array.from({ length: n }, (_, i) => `// ${i}`).join('\n')}\n`;
  const root = tree(t, {
    'firmware/main/big.c': lines(451),
    'firmware/build/CMakeCache.txt': '',
    'firmware/build/generated.c': lines(900),
    'scripts/long.mjs': lines(460),
    'site/out/bundle.js': lines(5000),
    'site/lib/short.ts': lines(10),
  });
  assert.deepEqual(check(root, { readmes: [] }).problems, [
    'scripts/long.mjs: 460 lines (at most 450; split it by concept)',
    'firmware/main/big.c: 451 lines (at most 450; split it by concept)',
  ]);
});

test('a file over the limit is reported unless generated or excepted with a reason', (t) => {
  const lines = (n) => `${Array.from({ length: n }, (_, i) => `// ${i}`).join('\n')}\n`;
  const root = tree(t, {
    'native/x/src/lib.rs': lines(451),
    'native/x/src/ok.rs': lines(450),
    'native/napi/index.d.ts': lines(900),
    'daemon/src/long.ts': lines(500),
    'daemon/README.md': lines(900),
  });
  assert.deepEqual(longFiles(root, ['native', 'daemon']), [
    { file: 'native/x/src/lib.rs', lines: 451 },
    { file: 'daemon/src/long.ts', lines: 500 },
  ]);
  const exceptions = new Map([['daemon/src/long.ts', 'a reason']]);
  const { problems, report } = check(root, { exceptions, readmes: [] });
  assert.deepEqual(problems, ['native/x/src/lib.rs: 451 lines (at most 450; split it by concept)']);
  assert.ok(report.includes('daemon/src/long.ts: 500 lines, allowed: a reason'));
});

test('a file declaring tests under a name its runner does not pick is found, and the reverse', (t) => {
  const declares = "import { test } from 'node:test';\ntest('x', () => {});\n";
  const root = tree(t, {
    'daemon/test/a.test.ts': declares,
    'daemon/test/sub/renamed.spec.ts': declares,
    'daemon/test/helpers.ts': "import type { TestContext } from 'node:test';\n",
    'daemon/test/empty.test.ts': 'export const x = 1;\n',
  });
  const folders = [{ dir: 'daemon/test', pattern: /\.test\.ts$/, suite: 'daemon' }];
  assert.deepEqual(testFileProblems(root, folders), [
    "daemon/test/empty.test.ts is run by the 'daemon' suite but declares no node:test test",
    "daemon/test/sub/renamed.spec.ts declares tests the 'daemon' suite never runs (it runs /\\.test\\.ts$/)",
  ]);
  assert.equal(declaresTests("import { describe, it } from 'node:test';"), true);
  assert.equal(declaresTests("import test from 'node:test';"), true);
  assert.equal(declaresTests("import { type TestContext, mock } from 'node:test';"), false);
});

test('a test file outside the folders its suites run is found, wherever it was moved', (t) => {
  const declares = "import { test } from 'node:test';\ntest('x', () => {});\n";
  const root = tree(t, {
    'scripts/bench/test/a.test.mjs': declares,
    'scripts/bench/bench.mjs': 'export const b = 1;\n',
    'scripts/bench/b.test.mjs': declares,
    'scripts/new-role/test/c.test.mjs': declares,
    'scripts/new-role/checks.mjs': declares,
    'scripts/release/package/test/d.test.mjs': declares,
  });
  const folders = [
    { dir: 'scripts/bench/test', pattern: /\.test\.mjs$/, suite: 'scripts' },
    { dir: 'scripts/release/package/test', pattern: /\.test\.mjs$/, suite: 'packaging' },
  ];
  const where = 'scripts/bench/test, scripts/release/package/test';
  assert.deepEqual(strayTestFiles(root, ['scripts'], folders), [
    `scripts/bench/b.test.mjs holds tests outside the folders the suites run (${where})`,
    `scripts/new-role/checks.mjs holds tests outside the folders the suites run (${where})`,
    `scripts/new-role/test/c.test.mjs holds tests outside the folders the suites run (${where})`,
  ]);
  const { problems } = check(root, { readmes: [], testFolders: folders });
  assert.equal(problems.length, 3);
});

test('this repository has no circle and no long file', () => {
  const { problems } = check(join(import.meta.dirname, '..', '..', '..'));
  assert.deepEqual(problems, []);
});
