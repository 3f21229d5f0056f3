#!/usr/bin/env node
// Instruction counts of the DSP kernels and of one path of the engine (as `tributary render`
// runs it) under `valgrind --tool=callgrind`: exact and repeatable on a shared machine, so the
// fair way to compare a change with the code before it (wall-clock figures come from
// bench-native.mjs). Runs every case of native/dsp/benches/instructions.rs and
// native/engine/benches/instructions.rs (or those named on the command line) and prints
// instructions per input frame.
// Usage: node scripts/bench/bench-native-callgrind.mjs [CASE...]; bench-native.mjs calls
// `instructionCounts` and records the counts.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { sh } from './bench-native-common.mjs';

/** Whether valgrind can run here. */
export const hasValgrind = () =>
  spawnSync('valgrind', ['--version'], { stdio: 'ignore' }).status === 0;

/** The `instructions` bench of `crate`, built: its executable. */
function instructionsBench(crate) {
  const build = sh(
    'cargo',
    ['bench', '-p', crate, '--bench', 'instructions', '--no-run', '--message-format=json'],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  const exe = build.stdout
    .split('\n')
    .filter((l) => l.startsWith('{'))
    .map((l) => JSON.parse(l))
    .find((m) => m.reason === 'compiler-artifact' && m.target?.name === 'instructions')?.executable;
  if (!exe) throw new Error(`cargo did not report the instructions bench executable of ${crate}`);
  return exe;
}

/** Cases counted a second time with the kernels masked to SSE2 (`TRIBUTARY_SIMD=sse2`, what a
 * CPU without AVX2 and FMA runs, and the code Arm's NEON builds share), named `CASE-sse2`. */
const MASKED = new Set(['eq-2ch', 'resample-44k1-48k-exact', 'resample-44k1-48k-nudged']);

/**
 * Prints and returns the instructions per input frame of each case of the DSP's and the
 * engine's `instructions` benches (all when `wanted` is empty), with the crate it belongs to;
 * the cases in MASKED also with the kernels masked to SSE2.
 */
export function instructionCounts(wanted = []) {
  const dir = mkdtempSync(join(tmpdir(), 'tributary-callgrind-'));
  const counts = [];
  try {
    for (const crate of ['tributary-dsp', 'tributary-engine']) {
      const exe = instructionsBench(crate);
      const listing = sh(exe, ['list']).stdout.trim().split('\n');
      const frames = Number(listing.pop().split(' ')[1]);
      const cases = wanted.length ? listing.filter((c) => wanted.includes(c)) : listing;
      if (cases.length === 0) continue;
      console.log(`${crate}: instructions per input frame (callgrind, ${frames} frames per case)`);
      const runs = cases.flatMap((name) => [
        { name, label: name, simd: undefined },
        ...(MASKED.has(name) ? [{ name, label: `${name}-sse2`, simd: 'sse2' }] : []),
      ]);
      for (const { name, label, simd } of runs) {
        const out = join(dir, `${label}.out`);
        const env = simd ? { ...process.env, TRIBUTARY_SIMD: simd } : process.env;
        sh(
          'valgrind',
          [
            '--tool=callgrind',
            `--callgrind-out-file=${out}`,
            '--toggle-collect=*measured*',
            exe,
            name,
          ],
          { env },
        );
        const summary = /^summary:\s+(\d+)/m.exec(readFileSync(out, 'utf8'));
        const ir = Number(summary?.[1] ?? Number.NaN);
        console.log(`${label.padEnd(32)} ${(ir / frames).toFixed(1).padStart(9)}`);
        counts.push({ crate, name: label, perFrame: ir / frames, frames });
      }
    }
  } finally {
    for (const f of readdirSync(dir)) rmSync(join(dir, f));
    rmSync(dir, { recursive: true, force: true });
  }
  return counts;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  if (!hasValgrind()) {
    console.error('valgrind is not installed (apt-get install valgrind)');
    process.exit(2);
  }
  instructionCounts(process.argv.slice(2));
}
