// The suites `npm test` runs, in order. Each entry names the command and how to read its
// result: `check` (exit code only, counts as one test), `node-test` (node:test summary),
// `cargo` (every "test result:" line summed), `jest` (the "Tests:" line).
// `min` is the number of passed tests a run must reach, set a little below the count when it was
// last raised: losing more tests than that (test discovery broken, a file no longer compiled in)
// fails the run; deleting tests on purpose means lowering it here in the same commit.
// A suite can be run alone: `npm test -- daemon` (any suite whose name contains the word).
export const suites = [
  { name: 'build', min: 1, cmd: 'npm', args: ['run', 'build'], format: 'check' },
  { name: 'lint', min: 1, cmd: 'npm', args: ['run', 'lint'], format: 'check' },
  // No import circle (Rust crates, TypeScript programs), no hand-written source file over 450
  // lines (scripts/check-structure.mjs; its own tests are in the scripts suite).
  {
    name: 'structure',
    min: 1,
    cmd: 'node',
    args: ['scripts/check-structure.mjs'],
    format: 'check',
  },
  {
    name: 'scripts',
    min: 32,
    cmd: 'node',
    args: ['--test', '--test-reporter=spec', 'scripts/test/'],
    format: 'node-test',
  },
  { name: 'typecheck', min: 1, cmd: 'npm', args: ['run', 'typecheck'], format: 'check' },
  // With the engine's fault injection (test builds only) for its supervision tests.
  {
    name: 'native: cargo test',
    min: 136,
    cmd: 'cargo',
    args: [
      'test',
      '--workspace',
      '--quiet',
      '--no-fail-fast',
      '--features',
      'tributary-engine/fault-injection',
    ],
    format: 'cargo',
  },
  // The DSP and engine tests again with the CPU's best instruction set masked (TRIBUTARY_SIMD:
  // AVX-512 -> avx2, AVX2 -> sse2), so a machine with it proves the suite passes without it.
  {
    name: 'native: masked SIMD',
    min: 205,
    cmd: 'node',
    args: ['scripts/test-masked-simd.mjs'],
    format: 'cargo',
  },
  // The ESP32-S3 firmware's portable C core, built with CMake and run under ASan/UBSan (cmocka).
  {
    name: 'firmware: host tests (C)',
    min: 47,
    cmd: 'node',
    args: ['firmware/test/run-host-tests.mjs'],
    format: 'node-test',
  },
  {
    name: 'native: napi binding (JS)',
    min: 17,
    cmd: 'npm',
    args: ['test', '-w', 'native/napi'],
    format: 'node-test',
  },
  // By package name: the path `daemon` would select the dashboard's workspace under it too.
  {
    name: 'daemon',
    min: 570,
    cmd: 'npm',
    args: ['test', '-w', '@tributary/daemon'],
    format: 'node-test',
  },
  {
    name: 'dashboard: unit',
    min: 25,
    cmd: 'npm',
    args: ['test', '-w', 'daemon/dashboard'],
    format: 'node-test',
  },
  // Headless Chromium against a real daemon (engine on, ephemeral ports) serving dashboard/dist.
  {
    name: 'dashboard: e2e',
    min: 26,
    cmd: 'npm',
    args: ['run', 'e2e', '-w', 'daemon/dashboard'],
    format: 'node-test',
  },
  { name: 'site: unit', min: 170, cmd: 'npm', args: ['test', '-w', 'site'], format: 'jest' },
  // The real esptool-js against the simulated ESP32-S3 (ROM + stub loader protocol), in Node;
  // the simulator against esptool sessions recorded with real ESP32-S3 boards.
  {
    name: 'site: flasher protocol',
    min: 25,
    cmd: 'node',
    args: [
      '--import',
      'tsx',
      '--test',
      '--test-reporter=spec',
      'site/test/flasher/protocol/simulated-board.spec.ts',
      'site/test/flasher/protocol/flash-device.spec.ts',
      'site/test/flasher/protocol/recorded-session.spec.ts',
    ],
    format: 'node-test',
  },
  // Headless Chromium over the exported site/out (written by the build suite).
  {
    name: 'site: e2e',
    min: 60,
    cmd: 'npm',
    args: ['run', 'e2e', '-w', 'site'],
    format: 'node-test',
  },
];
