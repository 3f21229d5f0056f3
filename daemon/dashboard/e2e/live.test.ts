// The dashboard stays current from /ws/config alone: a change made by a script shows within
// 200 ms, and the favorites (kept on the server) are the same after a reload and in another
// browser.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { config, type Running, ready, start } from './harness/dashboard';

let run: Running;
before(async () => {
  run = await start();
  for (const name of ['Living Room', 'Kitchen', 'Office']) {
    await run.api('POST', '/sinks', { name, ip: '127.0.0.1', port: 4990 });
  }
  await run.api('POST', '/sources', { name: 'PC', ip: '127.0.0.1' });
});
after(() => run?.close());

describe('live', () => {
  test('a change made with an HTTP request appears in the open dashboard within 200 ms', async () => {
    const { page, context } = await run.open();
    await ready(page);
    const delays: number[] = [];
    for (const volume of [0.5, 0.25, 0.125]) {
      // The page notes when the value shows; the test notes when the request leaves. Same clock.
      await page.evaluate((text) => {
        const w = window as unknown as { shownAt?: number };
        w.shownAt = undefined;
        const observer = new MutationObserver(() => {
          if (document.body.textContent.includes(text)) {
            w.shownAt = Date.now();
            observer.disconnect();
          }
        });
        observer.observe(document.body, { subtree: true, childList: true, characterData: true });
      }, `(gain ${volume})`);
      const sentAt = Date.now();
      const res = await run.api('PUT', '/sinks/Kitchen', { volume });
      assert.equal(res.status, 200);
      await page.waitForFunction(() => (window as unknown as { shownAt?: number }).shownAt);
      delays.push(
        (await page.evaluate(() => (window as unknown as { shownAt: number }).shownAt)) - sentAt,
      );
    }
    delays.sort((a, b) => a - b);
    assert.ok(delays[1]! < 200, `median delay ${delays[1]} ms (all: ${delays.join(', ')} ms)`);
    await context.close();
  });

  test('stars and their order are kept on the server: after a reload, and in a second browser', async () => {
    const first = await run.open();
    await ready(first.page);
    for (const name of ['Office', 'Living Room', 'PC']) {
      await first.page.getByRole('button', { name: `Favorite ${name}`, exact: true }).click();
      await first.page.getByRole('button', { name: `Favorite ${name}`, pressed: true }).waitFor();
    }
    const favoriteSinks = first.page.getByRole('list', { name: 'Favorite sinks' });
    const order = async (page = first.page) =>
      page.getByRole('list', { name: 'Favorite sinks' }).getByRole('heading').allInnerTexts();
    assert.deepEqual(await order(), ['Office', 'Living Room']);

    // Reorder with the keyboard (dnd-kit: Space picks up, arrows move, Space drops).
    await favoriteSinks.getByRole('button', { name: 'Reorder Living Room' }).focus();
    // Each key waits for what dnd-kit announces to screen readers (it moves one frame later).
    await first.page.keyboard.press('Space');
    await first.page.getByText('Over Living Room.').waitFor();
    // The sensor listens for the arrows once the drag has started; Office is first, so a second
    // press (on a slow machine) changes nothing.
    for (let attempt = 0; ; attempt++) {
      await first.page.keyboard.press('ArrowUp');
      try {
        await first.page.getByText('Over Office.').waitFor({ timeout: 1000 });
        break;
      } catch (error) {
        if (attempt === 10) throw error;
      }
    }
    await first.page.keyboard.press('Space');
    await first.page.waitForFunction(
      () =>
        Array.from(document.querySelectorAll('[aria-label="Favorite sinks"] h3')).map(
          (h) => h.textContent,
        )[0] === 'Living Room',
    );
    const ids = (await config(run)).favorites;
    const c = await config(run);
    const name = (id: string) => [...c.sinks, ...c.sources].find((e) => e.config_id === id)?.name;
    assert.deepEqual(ids.map(name), ['Living Room', 'Office', 'PC']);

    await first.page.reload();
    await ready(first.page);
    assert.deepEqual(await order(), ['Living Room', 'Office']);
    const second = await run.open();
    await ready(second.page);
    assert.deepEqual(await order(second.page), ['Living Room', 'Office']);
    assert.equal(
      await second.page
        .getByRole('button', { name: 'Favorite PC', exact: true })
        .getAttribute('aria-pressed'),
      'true',
    );
    // Unstarring in one shows in the other.
    await second.page.getByRole('button', { name: 'Favorite Office', exact: true }).click();
    await first.page.getByRole('button', { name: 'Favorite Office', pressed: false }).waitFor();
    assert.deepEqual(await order(), ['Living Room']);
    await first.context.close();
    await second.context.close();
  });
});
