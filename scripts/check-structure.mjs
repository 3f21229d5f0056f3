#!/usr/bin/env node
// The repository's structure rules, checked (`node scripts/check-structure.mjs`, run by the `lint`
// suite of `npm test`):
//   - no import circles between the modules of a Rust crate (`native/*/src`: `use crate::...`,
//     `super::...`, `self::...` and child-module paths, resolved to the file that holds the module)
//     nor between the files of `daemon/src` (static and dynamic `import`/`export ... from`);
//   - no source file in `native/` or `daemon/` longer than 450 lines, except generated files and the
//     exceptions listed below with their reason.
// Code under `#[cfg(test)]` (inline test modules and test-only module files) is left out of the
// Rust graph: tests may use whatever they test.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

export const MAX_LINES = 450;

/** Files not written by hand (never counted). */
export const GENERATED = new Set(['native/napi/index.d.ts', 'native/napi/index.js']);

/** Hand-written files allowed over the limit, each with its reason. Empty: none is. */
export const LONG_FILE_EXCEPTIONS = new Map();

const SOURCE_EXTENSIONS = /\.(rs|ts|tsx|mts|cts|js|mjs|cjs|jsx)$/;
const SKIP_DIRS = new Set(['node_modules', 'target', 'dist', '.git', 'out', '.next']);

/** Every file under `dir` (skipping build output and dependencies), as absolute paths. */
export function walk(dir) {
  const out = [];
  for (const name of readdirSync(dir).sort()) {
    if (SKIP_DIRS.has(name)) continue;
    const path = join(dir, name);
    if (statSync(path).isDirectory()) out.push(...walk(path));
    else out.push(path);
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// Cycles

/**
 * The strongly connected components of a graph (Map<node, Set<node>>) with more than one node:
 * their members, and one cycle through them (a readable example of the circle).
 */
export function findCycles(edges) {
  let index = 0;
  const indices = new Map();
  const low = new Map();
  const stack = [];
  const onStack = new Set();
  const components = [];
  const nodes = [...new Set([...edges.keys(), ...[...edges.values()].flatMap((s) => [...s])])];
  const connect = (v) => {
    // Iterative Tarjan (deep module chains must not overflow the call stack).
    const work = [[v, [...(edges.get(v) ?? [])], 0]];
    indices.set(v, index);
    low.set(v, index);
    index++;
    stack.push(v);
    onStack.add(v);
    while (work.length > 0) {
      const frame = work[work.length - 1];
      const [node, next] = frame;
      if (frame[2] < next.length) {
        const w = next[frame[2]++];
        if (!indices.has(w)) {
          indices.set(w, index);
          low.set(w, index);
          index++;
          stack.push(w);
          onStack.add(w);
          work.push([w, [...(edges.get(w) ?? [])], 0]);
        } else if (onStack.has(w)) {
          low.set(node, Math.min(low.get(node), indices.get(w)));
        }
        continue;
      }
      work.pop();
      if (work.length > 0) {
        const parent = work[work.length - 1][0];
        low.set(parent, Math.min(low.get(parent), low.get(node)));
      }
      if (low.get(node) === indices.get(node)) {
        const component = [];
        let w;
        do {
          w = stack.pop();
          onStack.delete(w);
          component.push(w);
        } while (w !== node);
        if (component.length > 1) components.push(component);
      }
    }
  };
  for (const v of nodes) if (!indices.has(v)) connect(v);
  return components.map((component) => ({
    members: [...component].sort(),
    cycle: cycleThrough(edges, new Set(component)),
  }));
}

/** A shortest cycle inside `members`, starting from its smallest node (for stable output). */
function cycleThrough(edges, members) {
  const start = [...members].sort()[0];
  const previous = new Map([[start, null]]);
  const queue = [start];
  while (queue.length > 0) {
    const v = queue.shift();
    for (const w of edges.get(v) ?? []) {
      if (!members.has(w)) continue;
      if (w === start) {
        const path = [v];
        for (let p = previous.get(v); p !== null; p = previous.get(p)) path.unshift(p);
        return [...path, start];
      }
      if (!previous.has(w)) {
        previous.set(w, v);
        queue.push(w);
      }
    }
  }
  return [...members, start];
}

// ---------------------------------------------------------------------------------------------
// Rust

/** Rust source without comments, string and char literals (lifetimes kept). */
export function stripRust(text) {
  let out = '';
  let i = 0;
  const n = text.length;
  while (i < n) {
    const c = text[i];
    const next = text[i + 1];
    if (c === '/' && next === '/') {
      while (i < n && text[i] !== '\n') i++;
      continue;
    }
    if (c === '/' && next === '*') {
      let depth = 0;
      do {
        if (text[i] === '/' && text[i + 1] === '*') {
          depth++;
          i += 2;
        } else if (text[i] === '*' && text[i + 1] === '/') {
          depth--;
          i += 2;
        } else {
          if (text[i] === '\n') out += '\n';
          i++;
        }
      } while (i < n && depth > 0);
      out += ' ';
      continue;
    }
    const raw = /^b?r(#*)"/.exec(text.slice(i, i + 260));
    if (raw && (i === 0 || !/\w/.test(text[i - 1]))) {
      const end = text.indexOf(`"${raw[1]}`, i + raw[0].length);
      const stop = end < 0 ? n : end + 1 + raw[1].length;
      out += `""${'\n'.repeat(text.slice(i, stop).split('\n').length - 1)}`;
      i = stop;
      continue;
    }
    if (c === '"') {
      i++;
      let lines = 0;
      while (i < n && text[i] !== '"') {
        if (text[i] === '\\') i++;
        else if (text[i] === '\n') lines++;
        i++;
      }
      i++;
      out += `""${'\n'.repeat(lines)}`;
      continue;
    }
    if (c === "'") {
      if (next === '\\') {
        i += 2;
        while (i < n && text[i] !== "'") i++;
        i++;
        out += "' '";
        continue;
      }
      if (text[i + 2] === "'") {
        i += 3;
        out += "' '";
        continue;
      }
    }
    out += c;
    i++;
  }
  return out;
}

/** `text` (stripped) without the items under `#[cfg(test)]`; also the names of test-only module files. */
function withoutTestCode(text) {
  const testFiles = [];
  let out = text;
  for (;;) {
    const m =
      /#\s*\[\s*cfg\s*\(\s*test\s*\)\s*\]\s*((?:#\s*\[[^\]]*\]\s*)*)(pub(?:\([^)]*\))?\s+)?mod\s+(\w+)\s*([;{])/.exec(
        out,
      );
    if (!m) break;
    if (m[4] === ';') {
      testFiles.push(m[3]);
      out = out.slice(0, m.index) + out.slice(m.index + m[0].length);
      continue;
    }
    let depth = 0;
    let j = m.index + m[0].length - 1;
    for (; j < out.length; j++) {
      if (out[j] === '{') depth++;
      else if (out[j] === '}' && --depth === 0) break;
    }
    out = out.slice(0, m.index) + out.slice(j + 1);
  }
  // Other `#[cfg(test)]` items (a function, a use) are left in: their paths still count.
  return { code: out, testFiles };
}

/** The module path of a file under `src` (`[]` for the crate root). */
function modulePathOf(src, file) {
  const parts = relative(src, file).split(sep);
  const last = parts.pop().replace(/\.rs$/, '');
  if (parts.length === 0 && (last === 'lib' || last === 'main')) return [];
  if (last !== 'mod') parts.push(last);
  return parts;
}

/** Expands a `use` tree (`a::{b::C, d as e, f::*}`) into its paths, as segment lists. */
export function expandUseTree(tree) {
  const tokens = tree.match(/\w+|::|\{|\}|,|\*/g) ?? [];
  let i = 0;
  const parse = (prefix) => {
    const segments = [...prefix];
    while (i < tokens.length) {
      const token = tokens[i];
      if (token === '{') {
        i++;
        const paths = [];
        while (i < tokens.length && tokens[i] !== '}') {
          paths.push(...parse(segments));
          if (tokens[i] === ',') i++;
        }
        i++;
        return paths;
      }
      if (token === ',' || token === '}') break;
      i++;
      if (token === '::') continue;
      if (token === 'as') {
        i++; // the alias
        continue;
      }
      if (token !== '*' && (token !== 'self' || segments.length === 0)) segments.push(token);
    }
    return [segments];
  };
  return parse([]);
}

/** The module graph of the crate whose sources are in `src`: Map<file, Set<file>> (relative paths). */
export function rustGraph(src) {
  const files = walk(src).filter((f) => f.endsWith('.rs'));
  const modules = new Map();
  for (const file of files) modules.set(modulePathOf(src, file).join('::'), file);
  const testOnly = new Set();
  const codeOf = new Map();
  for (const file of files) {
    const { code, testFiles } = withoutTestCode(stripRust(readFileSync(file, 'utf8')));
    codeOf.set(file, code);
    const here = modulePathOf(src, file);
    for (const name of testFiles) testOnly.add([...here, name].join('::'));
  }
  const isTestOnly = (path) => {
    for (let k = path.length; k > 0; k--)
      if (testOnly.has(path.slice(0, k).join('::'))) return true;
    return false;
  };
  const edges = new Map();
  const target = (segments) => {
    for (let k = segments.length; k >= 0; k--) {
      const file = modules.get(segments.slice(0, k).join('::'));
      if (file !== undefined) return file;
    }
    return undefined;
  };
  for (const file of files) {
    const here = modulePathOf(src, file);
    if (isTestOnly(here)) continue;
    const from = relative(src, file);
    const out = new Set();
    const absolute = (segments) => {
      let base;
      let rest = segments;
      if (rest[0] === 'crate') {
        base = [];
        rest = rest.slice(1);
      } else if (rest[0] === 'self') {
        base = [...here];
        rest = rest.slice(1);
      } else if (rest[0] === 'super') {
        base = [...here];
        while (rest[0] === 'super') {
          base.pop();
          rest = rest.slice(1);
        }
      } else if (modules.has([...here, rest[0]].join('::'))) {
        base = [...here];
      } else {
        return null; // another crate, std, or an item in scope
      }
      return [...base, ...rest];
    };
    const add = (segments) => {
      const path = absolute(segments);
      if (!path || isTestOnly(path)) return;
      const to = target(path);
      if (to !== undefined && to !== file) out.add(relative(src, to));
    };
    let code = codeOf.get(file);
    code = code.replace(/\buse\s+([^;]+);/g, (_, tree) => {
      for (const segments of expandUseTree(tree)) add(segments);
      return ' ';
    });
    for (const m of code.matchAll(/(?<![\w:])(\w+)((?:\s*::\s*\w+)+)/g)) {
      const first = m[1];
      // crate::, super::, self::, or a child module of this one (`mod x;` then `x::Y`).
      const ours =
        ['crate', 'super', 'self'].includes(first) || modules.has([...here, first].join('::'));
      if (ours)
        add([
          first,
          ...m[2]
            .split('::')
            .map((s) => s.trim())
            .filter(Boolean),
        ]);
    }
    edges.set(from, out);
  }
  return edges;
}

// ---------------------------------------------------------------------------------------------
// TypeScript

/** The import graph of the TypeScript/JavaScript files under `dir`: Map<file, Set<file>>. */
export function tsGraph(dir) {
  const files = walk(dir).filter((f) => /\.(ts|tsx|mts|mjs|js)$/.test(f) && !f.endsWith('.d.ts'));
  const edges = new Map();
  const resolveSpecifier = (from, spec) => {
    if (!spec.startsWith('.')) return undefined;
    const base = resolve(dirname(from), spec);
    const candidates = [
      base,
      base.replace(/\.(m?js|jsx)$/, '.ts'),
      base.replace(/\.(m?js|jsx)$/, '.tsx'),
      base.replace(/\.mjs$/, '.mts'),
      `${base}.ts`,
      join(base, 'index.ts'),
    ];
    return candidates.find((c) => existsSync(c) && statSync(c).isFile());
  };
  for (const file of files) {
    const text = readFileSync(file, 'utf8')
      .replace(/\/\*[\s\S]*?\*\//g, ' ')
      .replace(/(^|[^:'"`\\])\/\/.*$/gm, '$1');
    const out = new Set();
    const specifiers = [
      ...text.matchAll(/\b(?:import|export)\s[^'"`;]*?\bfrom\s*['"]([^'"]+)['"]/g),
      ...text.matchAll(/\bimport\s*['"]([^'"]+)['"]/g),
      ...text.matchAll(/\bimport\s*\(\s*['"]([^'"]+)['"]\s*\)/g),
    ].map((m) => m[1]);
    for (const spec of specifiers) {
      const to = resolveSpecifier(file, spec);
      if (to && to !== file) out.add(relative(dir, to));
    }
    edges.set(relative(dir, file), out);
  }
  return edges;
}

// ---------------------------------------------------------------------------------------------
// Long files

/** Source files under `roots` (paths relative to `repo`) longer than `limit` lines. */
export function longFiles(repo, roots, { limit = MAX_LINES, generated = GENERATED } = {}) {
  const out = [];
  for (const root of roots) {
    const dir = join(repo, root);
    if (!existsSync(dir)) continue;
    for (const file of walk(dir)) {
      const rel = relative(repo, file).split(sep).join('/');
      if (!SOURCE_EXTENSIONS.test(file) || generated.has(rel)) continue;
      const text = readFileSync(file, 'utf8');
      const lines = text.length === 0 ? 0 : text.split('\n').length - (text.endsWith('\n') ? 1 : 0);
      if (lines > limit) out.push({ file: rel, lines });
    }
  }
  return out;
}

// ---------------------------------------------------------------------------------------------

/** Every structure problem of the repository at `repo`, as lines of text (none: all is well). */
export function check(repo, { exceptions = LONG_FILE_EXCEPTIONS } = {}) {
  const problems = [];
  const report = [];
  const native = join(repo, 'native');
  const crates = existsSync(native)
    ? readdirSync(native)
        .sort()
        .map((name) => join('native', name, 'src'))
        .filter((src) => existsSync(join(repo, src)))
    : [];
  const graphs = [
    ...crates.map((src) => ({ root: src, edges: rustGraph(join(repo, src)) })),
    ...(existsSync(join(repo, 'daemon/src'))
      ? [{ root: 'daemon/src', edges: tsGraph(join(repo, 'daemon/src')) }]
      : []),
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
  const long = longFiles(repo, ['native', 'daemon']);
  for (const { file, lines } of long) {
    const reason = exceptions.get(file);
    if (reason) report.push(`${file}: ${lines} lines, allowed: ${reason}`);
    else problems.push(`${file}: ${lines} lines (at most ${MAX_LINES}; split it by concept)`);
  }
  report.push(
    `files over ${MAX_LINES} lines in native/ and daemon/: ${long.length}` +
      ` (generated, not counted: ${[...GENERATED].join(', ')})`,
  );
  return { problems, report };
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const repo = fileURLToPath(new URL('..', import.meta.url));
  const { problems, report } = check(repo);
  for (const line of report) console.log(line);
  for (const line of problems) console.error(`FAIL ${line}`);
  console.log(problems.length === 0 ? 'structure: ok' : `structure: ${problems.length} problems`);
  process.exit(problems.length === 0 ? 0 : 1);
}
