import assert from 'node:assert/strict';
import { test } from 'node:test';
import { combineLevels, groupLeaves, loudestLevels } from '../src/lib/levels';

test("a group's level: the loudest member's peak, the power sum of the members' RMS", () => {
  const combined = combineLevels([
    { peak: [0.5, 0.1], rms: [0.3, 0.04] },
    { peak: [0.2, 0.4], rms: [0.4, 0.03] },
    { peak: [0.9], rms: [0] }, // mono: only the first channel
  ])!;
  assert.deepEqual(combined.peak, [0.9, 0.4]);
  assert.ok(Math.abs(combined.rms[0]! - 0.5) < 1e-12, `${combined.rms}`);
  assert.ok(Math.abs(combined.rms[1]! - 0.05) < 1e-12, `${combined.rms}`);
  // Two equal, independent members: +3 dB of RMS, the same peak.
  const two = combineLevels([
    { peak: [0.5], rms: [0.25] },
    { peak: [0.5], rms: [0.25] },
  ])!;
  assert.deepEqual(two.peak, [0.5]);
  assert.ok(Math.abs(20 * Math.log10(two.rms[0]! / 0.25) - 3.01) < 0.01);
  assert.equal(combineLevels([]), null);
});

test("a sink group's level: the loudest member's peak and RMS, the same signal not summed", () => {
  const loudest = loudestLevels([
    { peak: [0.5, 0.1], rms: [0.3, 0.04] },
    { peak: [0.2, 0.4], rms: [0.4, 0.03] },
    { peak: [0.9], rms: [0] }, // mono: only the first channel
  ])!;
  assert.deepEqual(loudest.peak, [0.9, 0.4]);
  assert.deepEqual(loudest.rms, [0.4, 0.04]);
  // Two members sending the same mix read as one, not +3 dB.
  const two = loudestLevels([
    { peak: [0.5], rms: [0.25] },
    { peak: [0.5], rms: [0.25] },
  ])!;
  assert.deepEqual(two, { peak: [0.5], rms: [0.25] });
  assert.equal(loudestLevels([]), null);
});

test("a group's leaves: nested groups opened, each leaf once, unknown names and cycles skipped", () => {
  const e = (name: string, members?: string[]) => ({
    name,
    config_id: `id-${name}`,
    is_group: members !== undefined,
    group_members: members ?? [],
  });
  const all = [
    e('PC'),
    e('Radio'),
    e('TV'),
    e('Inner', ['Radio', 'TV', 'Outer']),
    e('Outer', ['PC', 'Inner', 'Radio', 'Gone']),
  ];
  assert.deepEqual(groupLeaves(all[4]!, all), ['id-PC', 'id-Radio', 'id-TV']);
  assert.deepEqual(groupLeaves(all[0]!, all), ['id-PC']);
  assert.deepEqual(groupLeaves(e('Empty', []), all), []);
});
