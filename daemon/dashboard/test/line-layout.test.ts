import assert from 'node:assert/strict';
import { test } from 'node:test';
import { LineLayout, shifted } from '../src/features/layout/line-layout';

/** A panel that scrolls, and cards in it, counting how often each is measured. */
function house() {
  let measured = 0;
  const rect = (left: number, top: number, width: number, height: number) =>
    ({ left, top, right: left + width, bottom: top + height, width, height }) as DOMRect;
  const panel = {
    scrollTop: 0,
    scrollLeft: 0,
    getBoundingClientRect: () => rect(100, 50, 300, 600),
  };
  const card = (top: number, hidden = false) => ({
    closest: (selector: string) => (selector === '[hidden]' ? (hidden ? {} : null) : panel),
    // Where the card is on screen now: its place in the panel less the panel's scroll.
    getBoundingClientRect: () => {
      measured++;
      return rect(110, top - panel.scrollTop, 280, 80);
    },
  });
  const at = { boxTop: 0, panelTop: 50 };
  panel.getBoundingClientRect = () => rect(100, at.panelTop, 300, 600);
  const box = { getBoundingClientRect: () => rect(0, at.boxTop, 1440, 900) };
  return {
    panel,
    card,
    at,
    box: box as unknown as HTMLElement,
    measured: () => measured,
  };
}

test('a scroll of a measured panel moves its cards without measuring them again', () => {
  const h = house();
  const kitchen = h.card(300) as unknown as HTMLElement;
  const layout = new LineLayout();
  layout.frame(h.box);
  const first = layout.place('kitchen', kitchen);
  assert.deepEqual(first?.card, { left: 110, right: 390, top: 300, bottom: 380 });
  assert.equal(first?.column?.top, 50);
  assert.equal(first?.column?.bottom, 650);
  assert.equal(h.measured(), 1);
  assert.equal(layout.follows(h.panel as unknown as Element), true);
  assert.equal(layout.follows({} as Element), false, 'a scroll of anything else is not followed');

  h.panel.scrollTop = 120;
  layout.frame(h.box);
  const scrolled = layout.place('kitchen', kitchen);
  assert.deepEqual(scrolled?.card, { left: 110, right: 390, top: 180, bottom: 260 });
  assert.equal(h.measured(), 1, 'followed, not measured');
  assert.equal(layout.measures, 1);

  layout.forget();
  layout.frame(h.box);
  const again = layout.place('kitchen', kitchen);
  assert.deepEqual(again?.card, scrolled?.card, 'measuring again finds where it was followed to');
  assert.equal(h.measured(), 2);
  assert.equal(layout.measures, 2);
});

test('the panels or their container moving (a banner above them) makes every card measured again', () => {
  const h = house();
  const kitchen = h.card(300) as unknown as HTMLElement;
  const layout = new LineLayout();
  layout.frame(h.box);
  layout.place('kitchen', kitchen);
  layout.frame(h.box);
  layout.place('kitchen', kitchen);
  assert.equal(layout.measures, 1, 'nothing moved: followed');
  h.at.panelTop = 90;
  layout.frame(h.box);
  layout.place('kitchen', kitchen);
  assert.equal(layout.measures, 2, 'the panel moved');
  assert.equal(h.measured(), 2);
  h.at.boxTop = 40;
  layout.frame(h.box);
  assert.equal(layout.measures, 3, 'the container moved');
});

test('a card the search hides, or one not on the page, has no place', () => {
  const h = house();
  const layout = new LineLayout();
  layout.frame(h.box);
  assert.equal(layout.place('hidden', h.card(300, true) as unknown as HTMLElement), undefined);
  assert.equal(layout.place('gone', undefined), undefined);
  assert.equal(h.measured(), 0);
});

test('shifted moves a box', () => {
  assert.deepEqual(shifted({ left: 1, right: 2, top: 3, bottom: 4 }, 10, -3), {
    left: 11,
    right: 12,
    top: 0,
    bottom: 1,
  });
});
