// Walking the repository's source files and measuring them (for
// scripts/structure/check-structure.mjs).
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, sep } from 'node:path';

export const MAX_LINES = 450;

/** Files not written by hand (never counted). */
export const GENERATED = new Set([
  'native/napi/index.d.ts',
  'native/napi/index.js',
  // From the engine's report declarations (npm run contract).
  'native/napi/src/engine_reports.rs',
  'daemon/src/schema/generated/engine-reports.ts',
]);

/** Hand-written files allowed over the limit, each with its reason. Empty: none is. */
export const LONG_FILE_EXCEPTIONS = new Map();

export const SOURCE_EXTENSIONS = /\.(rs|ts|tsx|mts|cts|js|mjs|cjs|jsx|c|h)$/;
// .bench: the site's bench builds (ignored by git), output like the rest.
export const SKIP_DIRS = new Set([
  'node_modules',
  'target',
  'dist',
  '.git',
  'out',
  '.next',
  '.bench',
]);

/** Every file under `dir` (skipping build output and dependencies), as absolute paths. */
export function walk(dir) {
  const out = [];
  for (const name of readdirSync(dir).sort()) {
    if (SKIP_DIRS.has(name)) continue;
    const path = join(dir, name);
    if (!statSync(path).isDirectory()) out.push(path);
    // A CMake build folder (ESP-IDF's firmware/build, the host tests' build) is output.
    else if (!existsSync(join(path, 'CMakeCache.txt'))) out.push(...walk(path));
  }
  return out;
}

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
