// The dependency graph of C code (the firmware), for scripts/structure/check-structure.mjs. A file
// depends on the headers it includes (`#include "..."` naming a file under the root, found by its
// name) and, for a .c file, on the .c files that define the functions it calls: the second rule
// sees what includes alone cannot, two .c files calling each other through one shared header.
import { readFileSync } from 'node:fs';
import { basename, relative, sep } from 'node:path';
import { walk } from './files.mjs';

/** C source without comments, string and character literals (line breaks kept). */
export function stripC(text) {
  // One pass, left to right: whichever starts first wins, so quotes inside a comment and comment
  // marks inside a string are what they are.
  const token = /\/\/[^\n]*|\/\*[\s\S]*?(?:\*\/|$)|"(?:\\.|[^"\\\n])*"?|'(?:\\.|[^'\\\n])*'?/g;
  return text.replace(token, (m) => {
    if (m.startsWith('//')) return '';
    if (m.startsWith('/*')) return ` ${'\n'.repeat(m.split('\n').length - 1)}`;
    return `${m[0]}${m[0]}`;
  });
}

/** The functions a stripped C source defines with external linkage (not `static`). */
export function definedFunctions(stripped) {
  const names = new Set();
  // A definition starts a line (the style of the firmware: return type and name on one line),
  // and its parameter list is followed by the body's brace.
  const definition =
    /^(?!static\b|typedef\b|extern\b|return\b|else\b)[A-Za-z_][\w \t*]*?\b([A-Za-z_]\w*)\s*\(([^;{}()]|\([^()]*\))*\)\s*\{/gm;
  for (const m of stripped.matchAll(definition)) names.add(m[1]);
  return names;
}

/**
 * The dependency graph of the C files under `dir` (skipping the folders named in `skip`, relative
 * to `dir`): Map<file, Set<file>>, paths relative to `dir`.
 */
export function cGraph(dir, { skip = [] } = {}) {
  const skipped = skip.map((s) => `${s.split('/').join(sep)}${sep}`);
  const files = walk(dir).filter((f) => {
    const rel = relative(dir, f);
    return /\.[ch]$/.test(f) && !skipped.some((s) => rel.startsWith(s));
  });
  const name = (f) => relative(dir, f).split(sep).join('/');
  const headers = new Map(files.filter((f) => f.endsWith('.h')).map((f) => [basename(f), name(f)]));
  const sources = files.map((f) => {
    const text = readFileSync(f, 'utf8');
    const includes = [...text.matchAll(/^\s*#\s*include\s*"([^"]+)"/gm)].map((m) => basename(m[1]));
    const code = stripC(text).replace(/^\s*#.*$/gm, '');
    const source = f.endsWith('.c');
    return { file: name(f), includes, code, source, defines: source ? definedFunctions(code) : [] };
  });
  const definedIn = new Map(); // function -> file
  for (const { file, defines } of sources) for (const fn of defines) definedIn.set(fn, file);
  const edges = new Map();
  for (const { file, includes, code, source } of sources) {
    const out = new Set();
    for (const header of includes) {
      const to = headers.get(header);
      if (to && to !== file) out.add(to);
    }
    // Calls in .c files only: a header's prototypes name what others implement.
    for (const [, fn] of source ? code.matchAll(/\b([A-Za-z_]\w*)\s*\(/g) : []) {
      const to = definedIn.get(fn);
      if (to && to !== file) out.add(to);
    }
    edges.set(file, out);
  }
  return edges;
}
