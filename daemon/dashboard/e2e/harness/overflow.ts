// Horizontal overflow: how far a page scrolls sideways and what sticks out past its right edge
// (phones and desktops alike, issue 31).
import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';

/** The boxes made to scroll sideways: a command, a table, the route matrix. */
const SIDEWAYS_SCROLLERS = 'pre, .table-scroll, .matrix-scroll';

/**
 * How far the page scrolls sideways, the elements that stick out past its right edge, the boxes
 * inside it that scroll sideways although they are not made to, and the cards cut off at a side.
 */
export function sideways(page: Page) {
  return page.evaluate((madeToScroll) => {
    const over = document.documentElement.scrollWidth - window.innerWidth;
    const out = [...document.querySelectorAll('body *')]
      .filter((e) => {
        const r = e.getBoundingClientRect();
        if (r.width === 0 || r.right <= window.innerWidth + 0.5) return false;
        // Inside a box that scrolls or clips it (a command in its own scroller) it is not out.
        for (let a = e.parentElement; a && a !== document.body; a = a.parentElement) {
          const clips = getComputedStyle(a).overflowX !== 'visible';
          if (clips && a.getBoundingClientRect().right <= window.innerWidth + 0.5) return false;
        }
        return true;
      })
      .slice(0, 5)
      .map(
        (e) =>
          `${e.tagName.toLowerCase()}.${e.className} (${Math.round(e.getBoundingClientRect().right)})`,
      );
    // A box that scrolls sideways although it is not made to (a column whose card is too wide).
    const inner = [...document.querySelectorAll('body *')]
      .filter((e) => ['auto', 'scroll'].includes(getComputedStyle(e).overflowX))
      .filter((e) => !e.matches(madeToScroll) && e.scrollWidth > e.clientWidth + 1)
      .slice(0, 5)
      .map(
        (e) => `${e.tagName.toLowerCase()}.${e.className} (${e.scrollWidth} > ${e.clientWidth})`,
      );
    // A card wider than the box that clips it (a column that hides its sideways overflow).
    const cut = [...document.querySelectorAll('article.card')]
      .filter((card) => {
        const r = card.getBoundingClientRect();
        for (let a = card.parentElement; a && a !== document.body; a = a.parentElement) {
          if (getComputedStyle(a).overflowX === 'visible') continue;
          const box = a.getBoundingClientRect();
          const right = box.left + a.clientLeft + a.clientWidth;
          if (r.left < box.left - 0.5 || r.right > right + 0.5) return true;
        }
        return false;
      })
      .slice(0, 5)
      .map((card) => {
        const name = document.getElementById(card.getAttribute('aria-labelledby') ?? '');
        const width = Math.round(card.getBoundingClientRect().width);
        return `${name?.textContent?.trim() ?? 'a card'} (${width} px)`;
      });
    return { over, out, inner, cut };
  }, SIDEWAYS_SCROLLERS);
}

/** Asserts that nothing scrolls sideways (the page or a box in it), sticks out or is cut off. */
export async function noOverflow(page: Page, where: string): Promise<void> {
  const { over, out, inner, cut } = await sideways(page);
  assert.ok(over <= 0, `${where}: the page scrolls sideways by ${over} px: ${out.join(', ')}`);
  assert.deepEqual(out, [], `${where}: sticks out on the right`);
  assert.deepEqual(inner, [], `${where}: a box scrolls sideways`);
  assert.deepEqual(cut, [], `${where}: cards cut off at the side`);
}
