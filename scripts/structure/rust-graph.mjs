// The module graph of a Rust crate, read from its sources: `use crate::...`, `super::...`,
// `self::...` and child-module paths, resolved to the file that holds the module. Code under
// `#[cfg(test)]` is left out: tests may use whatever they test.
import { readFileSync } from 'node:fs';
import { relative, sep } from 'node:path';
import { walk } from './files.mjs';

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
