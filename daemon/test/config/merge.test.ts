import assert from 'node:assert/strict';
import { test } from 'node:test';
import { type MergeConflict, mergeLists } from '../../src/config/merge.js';

interface E {
  id: string;
  name: string;
  volume: number;
  eq?: { b1: number; b2: number };
}
const key = (e: E) => e.id;
const a: E = { id: 'a', name: 'A', volume: 1, eq: { b1: 1, b2: 1 } };
const b: E = { id: 'b', name: 'B', volume: 1 };

test('a hand edit and an API change to different fields are both kept', () => {
  const ours = [{ ...a, volume: 0.5 }, b];
  const theirs = [{ ...a, name: 'Renamed' }, b];
  assert.deepEqual(mergeLists([a, b], ours, theirs, key), [
    { ...a, name: 'Renamed', volume: 0.5 },
    b,
  ]);
});

test('equalizer bands merge one by one', () => {
  const ours = [{ ...a, eq: { b1: 1.5, b2: 1 } }];
  const theirs = [{ ...a, eq: { b1: 1, b2: 0.5 } }];
  assert.deepEqual(mergeLists([a], ours, theirs, key), [{ ...a, eq: { b1: 1.5, b2: 0.5 } }]);
});

test('the same field changed on both sides keeps the API value and reports the conflict', () => {
  const conflicts: MergeConflict[] = [];
  const merged = mergeLists([a], [{ ...a, volume: 0.2 }], [{ ...a, volume: 0.9 }], key, conflicts);
  assert.equal(merged[0]!.volume, 0.2);
  assert.deepEqual(conflicts, [{ key: 'a', field: 'volume' }]);
});

test('additions on both sides are kept, theirs in file order then ours', () => {
  const c: E = { id: 'c', name: 'C', volume: 1 };
  const d: E = { id: 'd', name: 'D', volume: 1 };
  assert.deepEqual(mergeLists([a], [a, d], [c, a], key), [c, a, d]);
});

test('deletions: unchanged entries go, changed ones stay', () => {
  assert.deepEqual(mergeLists([a, b], [a], [a, b], key), [a], 'deleted through the API');
  assert.deepEqual(mergeLists([a, b], [a, b], [a], key), [a], 'deleted by hand');
  const changed = { ...b, volume: 0.3 };
  assert.deepEqual(
    mergeLists([a, b], [a, changed], [a], key),
    [a, changed],
    'changed through the API, deleted by hand',
  );
  const edited = { ...b, volume: 0.7 };
  assert.deepEqual(
    mergeLists([a, b], [a], [a, edited], key),
    [a, edited],
    'deleted through the API, edited by hand',
  );
});
