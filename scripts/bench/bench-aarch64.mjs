#!/usr/bin/env node
// The DSP on 64-bit Arm (a Raspberry Pi's) without one (issue 33): cross-compiles tributary-dsp
// for aarch64-unknown-linux-gnu, runs its tests under qemu-user, then counts the instructions per
// input frame of each case of native/dsp/benches/instructions.rs with qemu's per-instruction
// trace (`-singlestep -d nochain,exec`: one line per instruction run), as the difference between a
// run that measures one second of audio and one that measures none (INSTRUCTIONS_REPEAT,
// native/dsp/benches/common/callgrind.rs), so start-up cancels out. Counts, not times: qemu's
// speed says nothing of a Pi's. Each count is set beside the same case on x86-64 under callgrind
// (bench/results/native.json). The scalar reference cases are left out (tens of times slower to
// trace; the tests run them). Run by name only: `npm run bench -- aarch64 [--json]`.
// Needs `rustup target add aarch64-unknown-linux-gnu` and
// `apt-get install qemu-user gcc-aarch64-linux-gnu libc6-dev-arm64-cross`.
import { spawnSync } from 'node:child_process';
import { readResult, root, startBench } from './bench-results.mjs';

const TARGET = 'aarch64-unknown-linux-gnu';
const SYSROOT = '/usr/aarch64-linux-gnu';
const QEMU = ['qemu-aarch64', '-L', SYSROOT];
const env = {
  ...process.env,
  CARGO_TARGET_AARCH64_UNKNOWN_LINUX_GNU_LINKER: 'aarch64-linux-gnu-gcc',
  CARGO_TARGET_AARCH64_UNKNOWN_LINUX_GNU_RUNNER: QEMU.join(' '),
};

const missing = [
  [
    ['rustup', 'target', 'list', '--installed'],
    (out) => out.includes(TARGET),
    `rustup target add ${TARGET}`,
  ],
  [
    ['aarch64-linux-gnu-gcc', '--version'],
    () => true,
    'apt-get install gcc-aarch64-linux-gnu libc6-dev-arm64-cross',
  ],
  [['qemu-aarch64', '--version'], () => true, 'apt-get install qemu-user'],
].filter(([[cmd, ...args], ok]) => {
  const r = spawnSync(cmd, args, { encoding: 'utf8' });
  return r.status !== 0 || !ok(r.stdout);
});
if (missing.length) {
  console.error(`cannot cross-compile for ${TARGET} here; install with:`);
  for (const [, , how] of missing) console.error(`  ${how}`);
  process.exit(2);
}

const bench = startBench('aarch64', {
  what: 'the DSP cross-compiled for 64-bit Arm: its tests under qemu-user, and instructions per frame of its kernels (qemu trace) beside x86-64 (callgrind)',
});

/** Runs cargo for the Arm target on tributary-dsp; its result, with stdout captured. */
const cargo = (args) =>
  spawnSync('cargo', [...args, '-p', 'tributary-dsp', '--target', TARGET], {
    cwd: root,
    env,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'inherit'],
    maxBuffer: 64 * 1024 * 1024,
  });

console.log(`tributary-dsp's tests, release build, for ${TARGET} under qemu-user:`);
const tests = cargo(['test', '--release']);
const sum = (re) => [...tests.stdout.matchAll(re)].reduce((total, m) => total + Number(m[1]), 0);
const passed = sum(/test result: \w+\. (\d+) passed/g);
const failed = sum(/(\d+) failed;/g);
console.log(`  ${passed} passed, ${failed} failed (exit ${tests.status})`);
bench.figure('tests.passed', passed, 'count', {
  digits: 0,
  label: 'DSP tests passed under qemu-user',
});
bench.figure('tests.failed', tests.status === 0 ? failed : Math.max(failed, 1), 'count', {
  digits: 0,
  label: 'DSP tests failed (or the run failed)',
});
bench.target('tests.failed', '==', 0, { stated: 'scripts/bench/bench-aarch64.mjs (issue 33)' });

const build = cargo(['bench', '--bench', 'instructions', '--no-run', '--message-format=json']);
if (build.status !== 0) throw new Error(`cargo bench --no-run failed (${build.status})`);
const exe = build.stdout
  .split('\n')
  .filter((l) => l.startsWith('{'))
  .map((l) => JSON.parse(l))
  .find((m) => m.reason === 'compiler-artifact' && m.target?.name === 'instructions')?.executable;
if (!exe) throw new Error('cargo did not report the instructions bench executable');
const listing = spawnSync(QEMU[0], [...QEMU.slice(1), exe, 'list'], { encoding: 'utf8' })
  .stdout.trim()
  .split('\n');
const frames = Number(listing.pop().split(' ')[1]);
const cases = listing.filter((c) => !c.endsWith('-reference'));
const x86 = (() => {
  try {
    return readResult('native').figures;
  } catch {
    return {};
  }
})();

/** Instructions qemu traces for `name` measuring `repeat` seconds. */
function traced(name, repeat) {
  const cmd = `${QEMU.join(' ')} -singlestep -d nochain,exec -D /dev/stdout '${exe}' ${name} | grep -c '^Trace'`;
  const r = spawnSync('sh', ['-c', cmd], {
    encoding: 'utf8',
    env: { ...process.env, INSTRUCTIONS_REPEAT: String(repeat) },
  });
  const n = Number(r.stdout.trim());
  if (!Number.isFinite(n) || n === 0) throw new Error(`qemu traced nothing for ${name}`);
  return n;
}

console.log(
  `\ninstructions per input frame (${frames} frames per case): aarch64 (qemu), x86-64 (callgrind)`,
);
for (const name of cases) {
  const perFrame = (traced(name, 1) - traced(name, 0)) / frames;
  const onX86 = x86[`instructions.${name}`]?.value ?? null;
  const ratio = onX86 ? perFrame / onX86 : null;
  console.log(
    `${name.padEnd(28)} ${perFrame.toFixed(1).padStart(9)} ${onX86 === null ? '         -' : onX86.toFixed(1).padStart(9)}${ratio ? `  x${ratio.toFixed(2)}` : ''}`,
  );
  bench.figure(`instructions.${name}`, perFrame, 'instructions/frame', {
    label: `${name}: instructions per input frame on aarch64 (qemu trace)`,
    ...(onX86 !== null && {
      reference: {
        tool: 'the same case on x86-64 under callgrind (bench/results/native.json)',
        value: onX86,
        ratio,
        ratio_is: 'aarch64 / x86-64 instructions',
      },
    }),
  });
}
bench.finish();
