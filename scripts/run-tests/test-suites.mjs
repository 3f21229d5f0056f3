// The suites `npm test` runs, in order. Each entry names the command and how to read its
// result: `check` (exit code only, counts as one test), `node-test` (node:test summary),
// `cargo` (every "test result:" line summed, and the "test NAME ... ok" lines: no --quiet), `jest`
// (the "Tests:" line). How many tests each suite holds, and their names, are recorded in
// test-inventory.json: a run with fewer (test discovery broken, a file no longer compiled in, a
// feature lost) fails and names what went missing; `npm test -- --record NAME` records it again
// when tests are removed on purpose, in the same commit.
// A suite can be run alone: `npm test -- daemon` (any suite whose name contains the word).
import { readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { SCRIPTS_TEST_FOLDERS } from '../structure/test-files.mjs';

const root = fileURLToPath(new URL('../..', import.meta.url));

/** The files of `dir` (from the repository root) whose names match `pattern`, sorted. */
function filesIn(dir, pattern) {
  return readdirSync(`${root}/${dir}`)
    .filter((name) => pattern.test(name))
    .sort()
    .map((name) => `${dir}/${name}`);
}

/** The daemon's test files the Node 24 suite runs (from daemon/), and why: see that suite. */
export const NODE_24_FILES = [
  'test/cli.test.ts',
  'test/config/store.test.ts',
  'test/engine/serve.test.ts',
  'test/files/atomic-file.test.ts',
  'test/http/certificate.test.ts',
  'test/http/refused-upgrades.test.ts',
  'test/robustness/http-edges.test.ts',
  'test/routes/dashboard.test.ts',
  'test/streams/mp3.test.ts',
];

export const suites = [
  { name: 'build', cmd: 'npm', args: ['run', 'build'], format: 'check' },
  { name: 'lint', cmd: 'npm', args: ['run', 'lint'], format: 'check' },
  // No import circle (Rust crates, TypeScript programs), no hand-written source file over 450
  // lines (scripts/structure/check-structure.mjs; its own tests are in the scripts suite).
  {
    name: 'structure',
    cmd: 'node',
    args: ['scripts/structure/check-structure.mjs'],
    format: 'check',
  },
  {
    name: 'scripts',
    cmd: 'node',
    // Each role's tests beside it (SCRIPTS_TEST_FOLDERS); the structure suite fails on a test
    // file anywhere else under scripts/ that no suite runs.
    args: [
      '--test',
      '--test-reporter=spec',
      ...SCRIPTS_TEST_FOLDERS.flatMap((dir) => filesIn(dir, /\.test\.mjs$/)),
    ],
    format: 'node-test',
  },
  { name: 'typecheck', cmd: 'npm', args: ['run', 'typecheck'], format: 'check' },
  // `cargo test` of the workspace (with the engine's fault injection, test builds only, for its
  // supervision tests), its programs run in two lanes (run-tests/cargo-tests.mjs).
  {
    name: 'native: cargo test',
    cmd: 'node',
    args: ['scripts/run-tests/cargo-tests.mjs'],
    format: 'cargo',
  },
  // The tests that compute audio again with the CPU's best instruction set masked (TRIBUTARY_SIMD:
  // AVX-512 -> avx2, AVX2 -> sse2), so a machine with it proves the suite passes without it: the
  // programs the suite above built, so it must run after it (which files: the script's lists).
  {
    name: 'native: masked SIMD',
    cmd: 'node',
    args: ['scripts/run-tests/test-masked-simd.mjs'],
    format: 'cargo',
  },
  // The ESP32-S3 firmware's portable C core, built with CMake and run under ASan/UBSan (cmocka).
  {
    name: 'firmware: host tests (C)',
    cmd: 'node',
    args: ['firmware/test/run-host-tests.mjs'],
    format: 'node-test',
  },
  {
    name: 'native: napi binding (JS)',
    cmd: 'npm',
    args: ['test', '-w', 'native/napi'],
    format: 'node-test',
  },
  // By package name: the path `daemon` would select the dashboard's workspace under it too.
  {
    name: 'daemon',
    cmd: 'npm',
    args: ['test', '-w', '@tributary/daemon'],
    format: 'node-test',
  },
  // The daemon again on the current LTS line, Node.js 24 (the npm registry's node@24 package, run
  // by test-on-node.mjs in the daemon's folder), kept under 3 minutes by running the files that lean most
  // on Node.js's own APIs rather than on our logic: HTTP parsing and TLS (http-edges,
  // certificate, refused-upgrades), streams and static files (mp3, dashboard), the file system
  // (atomic-file, store: fsync, rename, watching), child processes and signals (cli: the real
  // program, its launcher and SIGHUP/SIGTERM), and the napi addon loaded by a newer Node-API host
  // (engine/serve). The full daemon suite runs on 24 in the GitHub workflow's matrix.
  {
    name: 'node 24: daemon subset',
    cmd: 'node',
    args: [
      'scripts/run-tests/test-on-node.mjs',
      '24',
      'daemon',
      '--import',
      'tsx',
      '--test',
      '--test-concurrency=2',
      '--test-reporter=spec',
      ...NODE_24_FILES,
    ],
    format: 'node-test',
  },
  // The Debian package and the container image's build steps (scripts/release/package/): built from
  // this checkout, installed in a throwaway copy of the machine's root, run as their user. The
  // files run side by side (each in its own temporary folders and mount namespace): they wait
  // mostly on npm, dpkg and lintian.
  {
    name: 'packaging',
    cmd: 'node',
    args: [
      '--test',
      '--test-concurrency=2',
      '--test-reporter=spec',
      ...filesIn('scripts/release/package/test', /\.test\.mjs$/),
    ],
    format: 'node-test',
  },
  {
    name: 'dashboard: unit',
    cmd: 'npm',
    args: ['test', '-w', 'daemon/dashboard'],
    format: 'node-test',
  },
  // Headless Chromium against a real daemon (engine on, ephemeral ports) serving dashboard/dist.
  {
    name: 'dashboard: e2e',
    cmd: 'npm',
    args: ['run', 'e2e', '-w', 'daemon/dashboard'],
    format: 'node-test',
  },
  { name: 'site: unit', cmd: 'npm', args: ['test', '-w', 'site'], format: 'jest' },
  // The real esptool-js against the simulated ESP32-S3 (ROM + stub loader protocol), in Node;
  // the simulator against esptool sessions recorded with real ESP32-S3 boards.
  {
    name: 'site: flasher protocol',
    cmd: 'node',
    args: [
      '--import',
      'tsx',
      '--test',
      '--test-reporter=spec',
      ...filesIn('site/test/flasher/protocol', /\.spec\.ts$/),
    ],
    format: 'node-test',
  },
  // Headless Chromium over the exported site/out (written by the build suite).
  {
    name: 'site: e2e',
    cmd: 'npm',
    args: ['run', 'e2e', '-w', 'site'],
    format: 'node-test',
  },
];
