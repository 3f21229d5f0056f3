#!/usr/bin/env node
// Run by `npm start` before it builds: when the audio engine's binding has never been built here
// (no native/napi/*.node), says up front that the first start compiles the Rust engine and
// roughly how long that takes, so a first start is not a silent wait. Later starts print nothing
// (cargo then only checks that nothing changed).
import { readdirSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';

/**
 * The release build of the binding (LTO, codegen-units=1) measured on a fresh clone of this
 * repository on a 2-core machine that was also running other work: 22 minutes (issue 32; the
 * whole first `npm start` took 24 min 26 s to listening).
 */
export const MEASURED = { minutes: 22, cores: 2 };
/** The crates cargo compiles for the binding (`cargo tree -p tributary-napi -e normal,build`). */
export const CRATES = 118;

/** The notice, or null when a binding is already built in `napiDir`. */
export function notice(napiDir, cores = availableParallelism(), terminal = false) {
  const built = readdirSync(napiDir).some((name) => name.endsWith('.node'));
  if (built) return null;
  return [
    `First start: compiling Tributary's audio engine (Rust, release build with link-time`,
    `optimisation, about ${CRATES} crates). This happens once: it took ${MEASURED.minutes} minutes on a`,
    `busy ${MEASURED.cores}-core machine (this one has ${cores}); later starts reuse it.`,
    terminal
      ? `Cargo's progress bar below counts the crates.`
      : `Cargo prints a 'Compiling <crate>' line per crate, then the daemon and dashboard builds follow.`,
    '',
  ].join('\n');
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const dir = process.argv[2] ?? fileURLToPath(new URL('../../native/napi/', import.meta.url));
  const text = notice(dir, availableParallelism(), process.stderr.isTTY === true);
  if (text) process.stderr.write(`${text}\n`);
}
