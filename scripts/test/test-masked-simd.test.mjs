// Which instruction set the masked native run asks for: one below the CPU's best, never below the
// baseline, and a name the DSP crate does not know is an error rather than a silent full run.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { maskedBelow } from '../test-masked-simd.mjs';

test('the masked run asks for the instruction set below the best', () => {
  assert.equal(maskedBelow('avx512'), 'avx2');
  assert.equal(maskedBelow('avx2'), 'sse2');
  assert.equal(maskedBelow('sse2'), 'sse2');
});

test('an instruction set the script does not know is refused', () => {
  assert.throws(() => maskedBelow('scalar'), /unknown instruction set "scalar"/);
});
