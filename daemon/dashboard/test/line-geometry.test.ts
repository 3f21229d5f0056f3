import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Config } from '../src/api/schema';
import {
  anchor,
  curve,
  emphasisOf,
  FOCUS_LINES_ABOVE,
  lineGeometry,
  linesOf,
} from '../src/features/layout/line-geometry';

const box = (left: number, top: number, right: number, bottom: number) => ({
  left,
  top,
  right,
  bottom,
});
const origin = box(100, 50, 1100, 850);
const column = box(100, 100, 400, 800);

test('a line meets a card at the middle of its edge, relative to the panels', () => {
  const p = anchor({ card: box(110, 200, 390, 300), column }, origin, 'right');
  assert.deepEqual(p, { x: 290, y: 200, hidden: false });
  assert.deepEqual(anchor({ card: box(110, 200, 390, 300), column }, origin, 'left').x, 10);
});

test('a card partly scrolled away is met in the middle of what shows; one out of sight at the panel edge', () => {
  assert.equal(anchor({ card: box(110, 60, 390, 160), column }, origin, 'right').y, 130 - 50);
  assert.deepEqual(anchor({ card: box(110, 0, 390, 90), column }, origin, 'right'), {
    x: 290,
    y: 50,
    hidden: true,
  });
  assert.deepEqual(anchor({ card: box(110, 900, 390, 990), column }, origin, 'right'), {
    x: 290,
    y: 750,
    hidden: true,
  });
});

test('curves bend half the gap (at least 24 px); the route has two, hidden only when all its cards are', () => {
  assert.equal(
    curve({ x: 0, y: 0, hidden: false }, { x: 100, y: 50, hidden: false }),
    'M0,0 C50,0 50,50 100,50',
  );
  assert.equal(
    curve({ x: 0, y: 0, hidden: false }, { x: 20, y: 0, hidden: false }),
    'M0,0 C24,0 -4,0 20,0',
  );
  const placed = (top: number) => ({ card: box(110, top, 390, top + 100), column });
  const g = lineGeometry(origin, placed(200), placed(300), placed(400));
  assert.equal(g.d.split('M').length - 1, 2);
  assert.equal(g.hidden, false);
  assert.equal(lineGeometry(origin, placed(-500), placed(-400), placed(2000)).hidden, true);
});

test('lines of routes whose ends exist, off when disabled, else in their state', () => {
  const config = {
    sources: [{ name: 'PC', config_id: 's' }],
    sinks: [{ name: 'K', config_id: 'k' }],
    routes: [
      { name: 'a', source: 'PC', sink: 'K', enabled: true, config_id: 'r1' },
      { name: 'b', source: 'PC', sink: 'K', enabled: false, config_id: 'r2' },
      { name: 'c', source: 'Gone', sink: 'K', enabled: true, config_id: 'r3' },
    ],
  } as unknown as Config;
  const states = new Map([['r1', { chip: { state: 'playing' } }]]);
  assert.deepEqual(linesOf(config, states), [
    { id: 'r1', from: 's', to: 'k', state: 'playing' },
    { id: 'r2', from: 's', to: 'k', state: 'off' },
  ]);
});

test("above 16 routes every line is faint but the focused entity's (its source, sink or itself)", () => {
  const line = { id: 'r1', from: 's1', to: 'k1', state: 'playing' };
  const many = FOCUS_LINES_ABOVE + 1;
  assert.equal(emphasisOf(line, '', many), 'faint');
  assert.equal(emphasisOf(line, 's2', many), 'faint');
  assert.equal(emphasisOf(line, 's1', many), 'full');
  assert.equal(emphasisOf(line, 'k1', many), 'full');
  assert.equal(emphasisOf(line, 'r1', many), 'full');
  // A small house keeps every line in its state's style; the focused one still in full.
  assert.equal(emphasisOf(line, '', FOCUS_LINES_ABOVE), 'normal');
  assert.equal(emphasisOf(line, 'k2', FOCUS_LINES_ABOVE), 'normal');
  assert.equal(emphasisOf(line, 'k1', FOCUS_LINES_ABOVE), 'full');
});
