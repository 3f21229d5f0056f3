#!/usr/bin/env node
// The DSP and engine tests once more as a lesser CPU would run them: TRIBUTARY_SIMD masks the
// best instruction set this machine has (AVX-512 -> avx2, AVX2 -> sse2), so a machine with
// AVX-512 proves the suite also passes without it. The crate itself says what the CPU has
// (native/dsp/examples/simd.rs) and, in the masked run, a test proves the override was followed
// (simd::tests::the_override_in_this_process_is_followed_exactly). Prints cargo's own output.
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
/** From the least capable; the names TRIBUTARY_SIMD takes. */
export const LEVELS = ['sse2', 'avx2', 'avx512'];

/** The instruction set to run as when the CPU's best is `best` (the baseline cannot go lower). */
export function maskedBelow(best) {
  const i = LEVELS.indexOf(best);
  if (i < 0) throw new Error(`unknown instruction set ${JSON.stringify(best)}`);
  return LEVELS[Math.max(0, i - 1)];
}

/** Runs cargo in the repository with `env` (TRIBUTARY_SIMD removed unless given). */
function cargo(args, env, stdout) {
  const base = { ...process.env };
  delete base.TRIBUTARY_SIMD;
  const r = spawnSync('cargo', args, {
    cwd: root,
    env: { ...base, ...env },
    stdio: ['ignore', stdout, 'inherit'],
    encoding: 'utf8',
  });
  if (r.error) throw r.error;
  return r;
}

function main() {
  const probe = cargo(['run', '-q', '-p', 'tributary-dsp', '--example', 'simd'], {}, 'pipe');
  if (probe.status !== 0) {
    console.error('cannot ask the DSP crate which instruction sets this CPU has');
    process.exit(probe.status ?? 1);
  }
  const { best } = JSON.parse(probe.stdout.trim().split('\n').at(-1));
  const masked = maskedBelow(best);
  console.log(
    masked === best
      ? `this CPU's best is the baseline (${best}): nothing to mask, the tests run as before`
      : `this CPU's best is ${best}: the DSP and engine tests again with TRIBUTARY_SIMD=${masked}`,
  );
  const args = ['test', '-p', 'tributary-dsp', '-p', 'tributary-engine'];
  args.push('--no-fail-fast', '--features', 'tributary-engine/fault-injection');
  process.exit(cargo(args, { TRIBUTARY_SIMD: masked }, 'inherit').status ?? 1);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) main();
