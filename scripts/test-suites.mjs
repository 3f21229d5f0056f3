// The suites `npm test` runs, in order. Each entry names the command and how to read its
// result: `check` (exit code only, counts as one test), `node-test` (node:test summary),
// `cargo` (every "test result:" line summed), `jest` (the "Tests:" line).
// A suite can be run alone: `npm test -- daemon` (any suite whose name contains the word).
export const suites = [
  { name: 'build', cmd: 'npm', args: ['run', 'build'], format: 'check' },
  { name: 'lint', cmd: 'npm', args: ['run', 'lint'], format: 'check' },
  {
    name: 'scripts',
    cmd: 'node',
    args: ['--test', '--test-reporter=spec', 'scripts/test/'],
    format: 'node-test',
  },
  { name: 'typecheck', cmd: 'npm', args: ['run', 'typecheck'], format: 'check' },
  {
    name: 'native: cargo test',
    cmd: 'cargo',
    args: ['test', '--workspace', '--quiet'],
    format: 'cargo',
  },
  {
    name: 'native: napi binding (JS)',
    cmd: 'npm',
    args: ['test', '-w', 'native/napi'],
    format: 'node-test',
  },
  { name: 'daemon', cmd: 'npm', args: ['test', '-w', 'daemon'], format: 'node-test' },
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
  // The real esptool-js against the simulated ESP32-S3 (ROM + stub loader protocol), in Node.
  {
    name: 'site: flasher protocol',
    cmd: 'node',
    args: [
      '--import',
      'tsx',
      '--test',
      '--test-reporter=spec',
      'site/test/flasher/protocol/simulated-board.spec.ts',
      'site/test/flasher/protocol/flash-device.spec.ts',
    ],
    format: 'node-test',
  },
  // Headless Chromium over the exported site/out (written by the build suite).
  { name: 'site: e2e', cmd: 'npm', args: ['run', 'e2e', '-w', 'site'], format: 'node-test' },
];
