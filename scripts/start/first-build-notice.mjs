#!/usr/bin/env node
// Run by `npm start` before it builds: when the audio engine's binding has never been built here
// (no native/napi/*.node), says up front that the first start compiles the Rust engine and
// roughly how long that takes, so a first start is not a silent wait. Later starts print nothing
// (cargo then only checks that nothing changed).
import { readdirSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';

/**
 * A clean build of the binding with the `start` profile (no LTO, 16 codegen units), measured on a
 * fresh clone on an idle 2-core machine: 109 s wall, 210 s of CPU (issue 32; the `release`
 * profile's thin LTO in one codegen unit took 135 s). A first start on a busy machine took 22
 * minutes with the old profile: the estimate scales with the cores, not with the load.
 */
export const MEASURED = { seconds: 109, cpuSeconds: 210, cores: 2 };
/** The crates cargo compiles for the binding (`cargo tree -p tributary-napi -e normal,build`). */
export const CRATES = 118;

/** "about 2 minutes" for `cores` cores: the CPU time spread over them, never under the 2-core wall. */
export function estimate(cores) {
  const seconds = Math.max(MEASURED.cpuSeconds / Math.max(cores, 1), MEASURED.seconds / 2);
  const minutes = Math.max(1, Math.round(seconds / 60));
  return minutes === 1 ? 'about a minute' : `about ${minutes} minutes`;
}

/** The notice, or null when a binding is already built in `napiDir`. */
export function notice(napiDir, cores = availableParallelism(), terminal = false) {
  const built = readdirSync(napiDir).some((name) => name.endsWith('.node'));
  if (built) return null;
  return [
    `First start: compiling Tributary's audio engine (Rust, about ${CRATES} crates), once:`,
    `${estimate(cores)} on this ${cores}-core machine if nothing else is running (${MEASURED.seconds} s on an`,
    `idle ${MEASURED.cores}-core machine; other work makes it longer). Later starts reuse it.`,
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
