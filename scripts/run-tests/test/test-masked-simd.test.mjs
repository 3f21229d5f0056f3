// Which instruction set the masked native run asks for: one below the CPU's best, never below the
// baseline, and a name the DSP crate does not know is an error rather than a silent full run.
import assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
import { test } from 'node:test';
import {
  chooseTargets,
  MASKED,
  maskedBelow,
  UNMASKED,
  unclassified,
} from '../test-masked-simd.mjs';

test('the masked run asks for the instruction set below the best', () => {
  assert.equal(maskedBelow('avx512'), 'avx2');
  assert.equal(maskedBelow('avx2'), 'sse2');
  assert.equal(maskedBelow('sse2'), 'sse2');
});

test('an instruction set the script does not know is refused', () => {
  assert.throws(() => maskedBelow('scalar'), /unknown instruction set "scalar"/);
});

/** A cargo `compiler-artifact` message as `--message-format=json` prints it. */
function artifact(crate, kind, name, test, executable = `/t/${name}-${kind}`) {
  return {
    reason: 'compiler-artifact',
    manifest_path: `/repo/${crate}/Cargo.toml`,
    target: { kind: [kind], name, src_path: `/repo/${crate}/src/${name}.rs` },
    profile: { test },
    executable,
  };
}

test('the masked run takes every DSP test program and the listed engine ones, nothing else', () => {
  const messages = [
    artifact('native/dsp', 'lib', 'tributary_dsp', true),
    artifact('native/dsp', 'test', 'never_panics', true),
    artifact('native/dsp', 'example', 'simd', false, '/t/simd'),
    artifact('native/engine', 'lib', 'tributary_engine', true),
    artifact('native/engine', 'test', 'golden_packets', true),
    artifact('native/engine', 'test', 'fidelity', true),
    artifact('native/engine', 'lib', 'tributary_engine', false, null), // the library itself
    artifact('native/codec', 'lib', 'tributary_codec', true),
    { reason: 'build-finished', success: true },
  ];
  const { tests, example } = chooseTargets(messages, '/repo');
  assert.equal(example, '/t/simd');
  assert.deepEqual(
    tests.map((t) => `${t.crate} ${t.target}`),
    [
      'native/dsp lib',
      'native/dsp never_panics',
      'native/engine lib',
      'native/engine golden_packets',
    ],
  );
});

test('an engine test file in neither list is named, so a new file cannot slip out of the masked run', () => {
  assert.deepEqual(unclassified(['channels', 'fidelity', 'brand_new']), ['brand_new']);
});

test('every file in native/engine/tests is classified, and no name in the lists is stale', () => {
  const files = readdirSync(new URL('../../../native/engine/tests/', import.meta.url))
    .filter((name) => name.endsWith('.rs'))
    .map((name) => name.slice(0, -3));
  assert.deepEqual(unclassified(files), []);
  const listed = [...MASKED['native/engine'].filter((n) => n !== 'lib'), ...Object.keys(UNMASKED)];
  assert.deepEqual(
    listed.filter((name) => !files.includes(name)),
    [],
  );
});
