import assert from 'node:assert/strict';
import { test } from 'node:test';
import { jsonEqual } from '../src/lib/json-equal';

test('equal JSON values are equal, field by field, whatever the order of the fields', () => {
  assert.ok(jsonEqual({ a: 1, b: [1, { c: 'x' }] }, { b: [1, { c: 'x' }], a: 1 }));
  assert.ok(jsonEqual(null, null));
  assert.ok(jsonEqual({ a: 1, gone: undefined }, { a: 1 }), 'undefined fields are left out');
  assert.ok(jsonEqual(new Map([['k', [1]]]), new Map([['k', [1]]])));
});

test('any difference is found: a value, a field, a length, a type, a nested entry', () => {
  assert.ok(!jsonEqual({ a: 1 }, { a: 2 }));
  assert.ok(!jsonEqual({ a: 1 }, { a: 1, b: 0 }));
  assert.ok(!jsonEqual([1, 2], [1, 2, 3]));
  assert.ok(!jsonEqual([1], { 0: 1 }));
  assert.ok(!jsonEqual({ a: null }, { a: 0 }));
  assert.ok(!jsonEqual({ p: [{ x: 1 }] }, { p: [{ x: 1, y: 1 }] }));
  assert.ok(!jsonEqual(new Map([['k', 1]]), new Map([['k', 2]])));
  assert.ok(!jsonEqual(new Map([['k', 1]]), { k: 1 }));
  assert.ok(!jsonEqual('1', 1));
});
