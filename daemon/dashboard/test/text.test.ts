import assert from 'node:assert/strict';
import { test } from 'node:test';
import { formatHz, gainDb } from '../src/lib/frequency';
import { routeName, uniqueName } from '../src/lib/names';
import { matchesQuery } from '../src/lib/search';
import { throttle } from '../src/lib/throttle';

test('search: every word, any field, case and accents ignored', () => {
  assert.ok(matchesQuery('', ['x']));
  assert.ok(matchesQuery('living', ['Living Room', '192.168.1.50']));
  assert.ok(matchesQuery('room 192.168', ['Living Room', '192.168.1.50']));
  assert.ok(matchesQuery('cafe', ['Café']));
  assert.ok(!matchesQuery('kitchen', ['Living Room', null]));
});

test('names: unique suffixes, route names from their ends', () => {
  assert.equal(uniqueName('PC', ['PC', 'PC 2']), 'PC 3');
  assert.equal(uniqueName('TV', ['PC']), 'TV');
  assert.equal(routeName('PC', 'Kitchen'), 'PC to Kitchen');
});

test('band labels and gains', () => {
  assert.equal(formatHz(65.406), '65 Hz');
  assert.equal(formatHz(1046.5), '1.0 kHz');
  assert.equal(formatHz(20000), '20 kHz');
  assert.equal(gainDb(2), '+6.0 dB');
  assert.equal(gainDb(0.5), '−6.0 dB');
  assert.equal(gainDb(1), '0.0 dB');
});

test('throttle: first at once, then the latest at most every interval, flush sends now', (t) => {
  // The clock is node:test's (setTimeout and Date): a loaded machine cannot stretch the waits.
  t.mock.timers.enable({ apis: ['setTimeout', 'Date'] });
  const sent: number[] = [];
  const th = throttle((v: number) => sent.push(v), 50);
  th(1);
  th(2);
  th(3);
  assert.deepEqual(sent, [1]);
  t.mock.timers.tick(80);
  assert.deepEqual(sent, [1, 3]);
  th(4);
  th.flush(5);
  assert.deepEqual(sent, [1, 3, 5]);
  t.mock.timers.tick(80);
  assert.deepEqual(sent, [1, 3, 5]);
});
