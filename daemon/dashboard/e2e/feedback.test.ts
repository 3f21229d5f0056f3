// Every save gives visible feedback and brings its card into view (issue 31, finding 6): Add Sink
// and Add Route saved silently and the new card landed off-screen, at the end of a long column.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Page } from 'playwright-core';
import { type Running, ready, start } from './harness/dashboard';

let run: Running;
before(async () => {
  run = await start();
  for (let i = 1; i <= 24; i++) {
    await run.api('POST', '/sinks', { name: `Room ${i}`, ip: '127.0.0.1', port: 4900 + i });
  }
  for (let i = 1; i <= 12; i++) {
    await run.api('POST', '/sources', { name: `PC ${i}`, ip: `127.0.0.${i + 1}` });
  }
  for (let i = 1; i <= 24; i++) {
    await run.api('POST', '/routes', {
      name: `R${i}`,
      source: `PC ${((i - 1) % 12) + 1}`,
      sink: `Room ${i}`,
    });
  }
});
after(() => run?.close());

/** Whether the card is wholly in the window and in its column's visible part. */
function inView(page: Page, name: string) {
  return page.getByRole('article', { name, exact: true }).evaluate((card) => {
    const r = card.getBoundingClientRect();
    let visible = r.top >= 0 && r.bottom <= window.innerHeight;
    for (let a = card.parentElement; a; a = a.parentElement) {
      if (getComputedStyle(a).overflowY === 'visible') continue;
      const box = a.getBoundingClientRect();
      visible &&= r.top >= box.top - 1 && r.bottom <= box.bottom + 1;
    }
    const chain: string[] = [];
    for (let a = card.parentElement; a; a = a.parentElement) {
      const st = getComputedStyle(a);
      if (st.overflowY !== 'visible')
        chain.push(
          `${a.className}:${Math.round(a.getBoundingClientRect().top)}-${Math.round(a.getBoundingClientRect().bottom)} st=${a.scrollTop}`,
        );
    }
    return {
      visible,
      where: `${Math.round(r.top)}-${Math.round(r.bottom)} of ${window.innerHeight}; ${chain.join(' | ')}`,
    };
  });
}

/** inView once the smooth scroll has had up to 3 s to finish. */
async function settled(page: Page, name: string) {
  const end = Date.now() + 3000;
  let last = await inView(page, name);
  while (!last.visible && Date.now() < end) {
    await page.waitForTimeout(100);
    last = await inView(page, name);
  }
  return last;
}

describe('feedback on save', () => {
  test('Add Sink and Add Route say they saved and bring the new card into view', async () => {
    const { page, context, errors } = await run.open('/', { width: 1440, height: 900 });
    await ready(page);

    await page.getByRole('button', { name: 'Add Sink' }).click();
    const sink = page.getByRole('dialog', { name: 'Add Sink' });
    await sink.getByLabel('Name').fill('Porch');
    await sink.getByLabel('IP', { exact: true }).fill('127.0.0.1');
    await sink.getByRole('button', { name: 'Add sink' }).click();
    await sink.waitFor({ state: 'detached' });
    await page.getByText('Added sink Porch').first().waitFor();
    await page.waitForFunction(
      () => document.querySelector('[data-revealed]') !== null,
      undefined,
      { timeout: 5000 },
    );
    const porch = await settled(page, 'Porch');
    assert.ok(porch.visible, `the new sink card is in view: ${porch.where}`);

    await page.getByRole('button', { name: 'Add Route' }).click();
    const route = page.getByRole('dialog', { name: 'Add Route' });
    await route.getByLabel('Source').selectOption('PC 3');
    await route.getByLabel('Sink').selectOption('Porch');
    await route.getByRole('button', { name: 'Add route' }).click();
    await route.waitFor({ state: 'detached' });
    await page.getByText('Added route PC 3 to Porch').first().waitFor();
    const added = await settled(page, 'PC 3 to Porch');
    assert.ok(added.visible, `the new route card is in view: ${added.where}`);
    assert.deepEqual(errors, []);
    await context.close();
  });
});
