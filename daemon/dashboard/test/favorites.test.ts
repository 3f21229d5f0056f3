import assert from 'node:assert/strict';
import { test } from 'node:test';
import { reorderFavorites, restoreFavorite, toggleFavorite } from '../src/lib/favorites';

test('star and unstar', () => {
  assert.deepEqual(toggleFavorite(['a'], 'b'), ['a', 'b']);
  assert.deepEqual(toggleFavorite(['a', 'b'], 'a'), ['b']);
});

test("reordering one panel leaves the other kinds' stars where they are", () => {
  // s = sources, k = sinks, interleaved as starred.
  const list = ['s1', 'k1', 's2', 'k2', 's3'];
  const sources = new Set(['s1', 's2', 's3', 's4']);
  assert.deepEqual(reorderFavorites(list, sources, 's3', 's1'), ['s3', 'k1', 's1', 'k2', 's2']);
  assert.deepEqual(reorderFavorites(list, sources, 's1', 's2'), ['s2', 'k1', 's1', 'k2', 's3']);
  assert.deepEqual(reorderFavorites(list, new Set(['k1', 'k2']), 'k2', 'k1'), [
    's1',
    'k2',
    's2',
    'k1',
    's3',
  ]);
  // Unknown ids or no move: unchanged.
  assert.deepEqual(reorderFavorites(list, sources, 's1', 'zz'), list);
  assert.deepEqual(reorderFavorites(list, sources, 's2', 's2'), list);
});

test('an undone delete puts the star back where it was', () => {
  assert.deepEqual(restoreFavorite(['a', 'c'], 'b', 1), ['a', 'b', 'c']);
  assert.deepEqual(restoreFavorite(['a'], 'b', 5), ['a', 'b']);
  assert.deepEqual(restoreFavorite(['a', 'b'], 'b', 0), ['a', 'b']);
});
