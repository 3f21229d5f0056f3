// The napi binding built with the cargo feature `fault-injection` (test builds only: the
// binding `npm run build` makes cannot fail on purpose), for tests of the engine's
// supervision. Built with cargo on first use, copied to a temporary .node file, loaded, and the
// copy removed. It is built as the whole workspace's tests are (`npm test`'s native suite: every
// library and test, the engine's fault injection on), so cargo resolves the dependencies' features
// alike and reuses what that suite built: only the binding itself compiles (about 10 s, where
// `-p tributary-napi` alone resolved features differently and rebuilt some 30 crates in a minute).
import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Engine } from '@tributary/native';

/** The Engine class with `injectFault(kind, sourceId?, times?)`. */
export type FaultEngine = typeof Engine & {
  prototype: Engine & { injectFault(kind: string, sourceId?: string, times?: number): boolean };
};

let loaded: FaultEngine | null = null;

export function faultInjectingEngine(): FaultEngine {
  if (loaded) return loaded;
  const root = fileURLToPath(new URL('../../../', import.meta.url));
  const output = execFileSync(
    'cargo',
    [
      'build',
      '--workspace',
      '--lib',
      '--tests',
      '--features',
      'tributary-engine/fault-injection,tributary-napi/fault-injection',
      '--message-format=json',
    ],
    {
      cwd: root,
      encoding: 'utf8',
      maxBuffer: 64 * 1024 * 1024,
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  const library = output
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map(
      (line) =>
        JSON.parse(line) as { reason?: string; target?: { name: string }; filenames?: string[] },
    )
    .filter((m) => m.reason === 'compiler-artifact' && m.target?.name === 'tributary_napi')
    .flatMap((m) => m.filenames ?? [])
    .find((f) => f.endsWith('.so'));
  if (!library) throw new Error('cargo built no tributary_napi library');
  const dir = mkdtempSync(join(tmpdir(), 'tributary-faults-'));
  const copy = join(dir, 'tributary-native.node');
  copyFileSync(library, copy);
  try {
    loaded = (createRequire(import.meta.url)(copy) as { Engine: FaultEngine }).Engine;
  } finally {
    // Loaded, the library stays mapped; the 140 MB copy need not outlive the process (every
    // test run used to leave one behind).
    rmSync(dir, { recursive: true, force: true });
  }
  return loaded;
}
