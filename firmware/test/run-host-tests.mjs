#!/usr/bin/env node
// Builds the firmware's portable core and its cmocka tests for this machine (CMake, with
// AddressSanitizer and UndefinedBehaviorSanitizer), runs every test program with cmocka's TAP
// output, and ends with node:test's summary lines (`# pass N`, `# fail N`) so that
// scripts/run-tests/test-all.mjs counts the C tests like any other suite. A test program that
// crashes counts as one failure on top of what it reported.
//
//   node firmware/test/run-host-tests.mjs [NAME...]   (only the test programs whose name contains NAME)
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const source = fileURLToPath(new URL('.', import.meta.url));
const build = process.env.TR_FIRMWARE_BUILD_DIR ?? `${source}build`;
const filters = process.argv.slice(2);

function step(cmd, args) {
  const result = spawnSync(cmd, args, { stdio: 'inherit' });
  if (result.error) {
    console.error(`${cmd}: ${result.error.message} (install cmake, gcc and libcmocka-dev)`);
  }
  return result.status === 0;
}

let passed = 0;
let failed = 0;
if (
  !step('cmake', ['-S', source, '-B', build, '-DCMAKE_BUILD_TYPE=Debug', '--log-level=WARNING']) ||
  !step('cmake', ['--build', build, '--parallel', '2'])
) {
  console.log('not ok - the firmware host tests did not build');
  failed = 1;
} else {
  const programs = readFileSync(`${build}/tests.txt`, 'utf8')
    .split('\n')
    .filter((name) => name && (filters.length === 0 || filters.some((f) => name.includes(f))));
  for (const name of programs) {
    const run = spawnSync(`${build}/${name}`, [], {
      env: { ...process.env, CMOCKA_MESSAGE_OUTPUT: 'TAP', ASAN_OPTIONS: 'detect_leaks=1' },
      encoding: 'utf8',
      maxBuffer: 64 * 1024 * 1024,
    });
    const out = `${run.stdout ?? ''}${run.stderr ?? ''}`;
    const ok = (out.match(/^ok \d+/gm) ?? []).length;
    const notOk = (out.match(/^not ok \d+/gm) ?? []).length;
    console.log(`# ${name}`);
    process.stdout.write(out.replace(/^(?!#)/gm, '    ').trimEnd());
    console.log('');
    passed += ok;
    failed += notOk;
    if (run.status !== 0 && notOk === 0) {
      console.log(`not ok - ${name} exited with ${run.status ?? run.signal}`);
      failed += 1;
    }
  }
}
console.log(`# tests ${passed + failed}`);
console.log(`# pass ${passed}`);
console.log(`# fail ${failed}`);
process.exit(failed ? 1 : 0);
