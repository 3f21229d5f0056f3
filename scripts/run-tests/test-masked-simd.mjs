#!/usr/bin/env node
// The tests that compute audio, once more as a lesser CPU would run them: TRIBUTARY_SIMD masks the
// best instruction set this machine has (AVX-512 -> avx2, AVX2 -> sse2), so a machine with
// AVX-512 proves the suite also passes without it. The crate itself says what the CPU has
// (native/dsp/examples/simd.rs) and, in the masked run, a test proves the override was followed
// (simd::tests::the_override_in_this_process_is_followed_exactly).
//
// It runs the test programs the `native: cargo test` suite has just built (the same cargo command
// with --no-run: nothing is compiled again), each from its crate's folder as cargo would, and
// prints their own output. Which engine test files run is a list: every test file of the engine
// is in MASKED or in UNMASKED, so a new file fails this run until someone chooses.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { cargoMessages, testPrograms } from '../shared/cargo-artifacts.mjs';
import { CARGO_TEST_ARGS } from './cargo-tests.mjs';

const root = fileURLToPath(new URL('../..', import.meta.url));
/** From the least capable; the names TRIBUTARY_SIMD takes. */
export const LEVELS = ['sse2', 'avx2', 'avx512'];

/**
 * Test targets run masked, by crate folder: `*` every target (the DSP kernels and their scalar
 * references), else the target names (`lib`: the unit tests). The engine's listed files compute
 * audio through the kernels and check it sample by sample or by level and frequency.
 */
export const MASKED = {
  'native/dsp': '*',
  'native/engine': [
    'lib',
    'channels',
    'format_changes',
    'golden_packets',
    'memory_source',
    'mp3_stream',
    'no_alloc',
    'path_counters',
    'scream_loopback',
    'source_levels',
    'timeshift',
  ],
};

/**
 * The engine's test files not run masked, and why: what they check is a peer, a clock, a socket or
 * recovery, through the same kernels the files above check (and run unmasked in the native suite).
 */
export const UNMASKED = {
  fidelity: 'clock recovery against real senders for minutes of audio',
  flood: 'socket and cap behaviour under a packet flood',
  malloc_arenas: "the cap on glibc's malloc arenas, no audio",
  multicast: 'multicast membership in a private network namespace',
  pipewire: 'interoperation with a PipeWire daemon',
  pulseaudio: 'interoperation with a PulseAudio daemon',
  robustness: 'hostile packets dropped and counted',
  rtp_peers: 'interoperation with ffmpeg and GStreamer',
  rtp_ports: 'RTP ports opened, refused and closed as sources come and go',
  supervision: 'restart after an injected fault',
  two_senders: 'which of two ffmpeg senders a source plays',
};

/** The instruction set to run as when the CPU's best is `best` (the baseline cannot go lower). */
export function maskedBelow(best) {
  const i = LEVELS.indexOf(best);
  if (i < 0) throw new Error(`unknown instruction set ${JSON.stringify(best)}`);
  return LEVELS[Math.max(0, i - 1)];
}

/** The engine's test files (names without .rs) that are in neither list. */
export function unclassified(files, masked = MASKED['native/engine'], unmasked = UNMASKED) {
  return files.filter((name) => !masked.includes(name) && !(name in unmasked));
}

/**
 * From cargo's JSON messages: the test programs to run masked ({ crate, target, executable }, as
 * scripts/shared/cargo-artifacts.mjs names them) and the DSP crate's `simd` example. `root` is
 * the folder crate folders are named from.
 */
export function chooseTargets(messages, root) {
  const tests = testPrograms(messages, root)
    .filter(({ crate, target }) => MASKED[crate] === '*' || MASKED[crate]?.includes(target))
    .map(({ crate, target, executable }) => ({ crate, target, executable }));
  const example =
    messages.find(
      (m) =>
        m.reason === 'compiler-artifact' &&
        m.executable &&
        m.target.kind[0] === 'example' &&
        m.target.name === 'simd' &&
        relative(root, dirname(m.manifest_path)) === 'native/dsp',
    )?.executable ?? null;
  return { tests, example };
}

/** Runs `program` from `cwd` with `env` (TRIBUTARY_SIMD removed unless given). */
function run(program, args, cwd, env, stdout) {
  const base = { ...process.env };
  delete base.TRIBUTARY_SIMD;
  const r = spawnSync(program, args, {
    cwd,
    env: { ...base, ...env },
    stdio: ['ignore', stdout, 'inherit'],
    encoding: 'utf8',
  });
  if (r.error) throw r.error;
  return r;
}

function main() {
  const engineFiles = readdirSync(join(root, 'native/engine/tests'))
    .filter((name) => name.endsWith('.rs'))
    .map((name) => name.slice(0, -3));
  const missing = unclassified(engineFiles);
  if (missing.length > 0) {
    console.error(
      `native/engine/tests: ${missing.join(', ')} in neither MASKED nor UNMASKED of ` +
        'scripts/run-tests/test-masked-simd.mjs: ' +
        'say whether it runs masked',
    );
    process.exit(1);
  }
  const { tests, example } = chooseTargets(
    cargoMessages([...CARGO_TEST_ARGS, '--no-run'], root),
    root,
  );
  if (!example || !existsSync(example)) {
    console.error(
      "the DSP crate's simd example was not built: cannot ask which instruction sets this CPU has",
    );
    process.exit(1);
  }
  const probe = run(example, [], join(root, 'native/dsp'), {}, 'pipe');
  if (probe.status !== 0) {
    console.error('cannot ask the DSP crate which instruction sets this CPU has');
    process.exit(probe.status ?? 1);
  }
  const { best } = JSON.parse(probe.stdout.trim().split('\n').at(-1));
  const masked = maskedBelow(best);
  console.log(
    masked === best
      ? `this CPU's best is the baseline (${best}): nothing to mask, the tests run as before`
      : `this CPU's best is ${best}: ${tests.length} test programs again with TRIBUTARY_SIMD=${masked}`,
  );
  let failed = 0;
  for (const { crate, target, executable } of tests) {
    console.log(`     Running ${crate} ${target} (${relative(root, executable)})`);
    const env = { TRIBUTARY_SIMD: masked, CARGO_MANIFEST_DIR: join(root, crate) };
    if (run(executable, [], join(root, crate), env, 'inherit').status !== 0) failed += 1;
  }
  if (failed > 0)
    console.error(
      `${failed} of ${tests.length} test programs failed with TRIBUTARY_SIMD=${masked}`,
    );
  process.exit(failed > 0 ? 1 : 0);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) main();
