import assert from 'node:assert/strict';
import { test } from 'node:test';
import { moveCell, pairKey, routesByPair } from '../src/lib/matrix';

test('routes are grouped by the source and sink they join, two routes of one pair together', () => {
  const routes = [
    { name: 'a', source: 'TV', sink: 'Kitchen' },
    { name: 'b', source: 'TV', sink: 'Den' },
    { name: 'c', source: 'TV', sink: 'Kitchen' },
  ];
  const pairs = routesByPair(routes);
  assert.deepEqual(
    pairs.get(pairKey('TV', 'Kitchen'))?.map((r) => r.name),
    ['a', 'c'],
  );
  assert.deepEqual(
    pairs.get(pairKey('TV', 'Den'))?.map((r) => r.name),
    ['b'],
  );
  assert.equal(pairs.get(pairKey('Den', 'TV')), undefined);
  // A name holding the separator's neighbours cannot collide with another pair.
  assert.notEqual(pairKey('A B', 'C'), pairKey('A', 'B C'));
});

test('the arrow keys move one cell and stop at the edges; Home/End, Ctrl+Home/End and pages', () => {
  const at = { row: 2, column: 3 };
  assert.deepEqual(moveCell('ArrowRight', false, at, 32, 16), { row: 2, column: 4 });
  assert.deepEqual(moveCell('ArrowLeft', false, at, 32, 16), { row: 2, column: 2 });
  assert.deepEqual(moveCell('ArrowDown', false, at, 32, 16), { row: 3, column: 3 });
  assert.deepEqual(moveCell('ArrowUp', false, at, 32, 16), { row: 1, column: 3 });
  assert.deepEqual(moveCell('ArrowUp', false, { row: 0, column: 0 }, 32, 16), {
    row: 0,
    column: 0,
  });
  assert.deepEqual(moveCell('ArrowRight', false, { row: 0, column: 15 }, 32, 16), {
    row: 0,
    column: 15,
  });
  assert.deepEqual(moveCell('Home', false, at, 32, 16), { row: 2, column: 0 });
  assert.deepEqual(moveCell('End', false, at, 32, 16), { row: 2, column: 15 });
  assert.deepEqual(moveCell('Home', true, at, 32, 16), { row: 0, column: 0 });
  assert.deepEqual(moveCell('End', true, at, 32, 16), { row: 31, column: 15 });
  assert.deepEqual(moveCell('PageDown', false, at, 32, 16), { row: 10, column: 3 });
  assert.deepEqual(moveCell('PageUp', false, at, 32, 16), { row: 0, column: 3 });
  assert.equal(moveCell('Enter', false, at, 32, 16), null);
});
