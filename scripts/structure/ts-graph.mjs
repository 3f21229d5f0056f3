// The import graph of TypeScript/JavaScript files: static and dynamic `import`, `export ... from`
// with relative specifiers, resolved to the file they name (`.js` written for a `.ts` file).
import { existsSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { walk } from './files.mjs';

/**
 * The import graph of the TypeScript/JavaScript files under `dir`: Map<file, Set<file>>.
 * `aliases` maps a specifier prefix to a folder under `dir` (tsconfig `paths`, e.g. `@/` -> `.`).
 */
export function tsGraph(dir, { aliases = {} } = {}) {
  const files = walk(dir).filter((f) => /\.(ts|tsx|mts|mjs|js)$/.test(f) && !f.endsWith('.d.ts'));
  const edges = new Map();
  const resolveSpecifier = (from, spec) => {
    const alias = Object.keys(aliases).find((prefix) => spec.startsWith(prefix));
    if (!spec.startsWith('.') && alias === undefined) return undefined;
    const base = alias
      ? resolve(dir, aliases[alias], spec.slice(alias.length))
      : resolve(dirname(from), spec);
    const candidates = [
      base,
      base.replace(/\.(m?js|jsx)$/, '.ts'),
      base.replace(/\.(m?js|jsx)$/, '.tsx'),
      base.replace(/\.mjs$/, '.mts'),
      `${base}.ts`,
      `${base}.tsx`,
      join(base, 'index.ts'),
      join(base, 'index.tsx'),
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
