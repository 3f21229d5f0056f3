// Route lines that stay readable in a large house (issue 31): with 32 sources, 16 sinks and 64
// routes the lines between the panels are drawn faint but those of the entity under the pointer
// or holding the focus, which are drawn in full; and the matrix view (sources x sinks, one tab
// stop, arrow keys, Space toggles a route through the API), switched to and remembered per
// browser. The canvas records what it drew (data-lines, data-focus, data-full: the ids it stroked
// at full opacity). The cards view of this house neither scrolls nor sticks out sideways at
// 1440x900 and 1280x800, nor on phones (390x844, 375x812), and axe finds nothing on it (light
// and dark).
import assert from 'node:assert/strict';
import type { Socket } from 'node:dgram';
import { after, before, describe, test } from 'node:test';
import type { Page } from 'playwright-core';
import { receivers, sendScream } from './harness/audio';
import { axe } from './harness/axe';
import { cardsViewFitsInBothSizesAndThemes } from './harness/cards-view';
import { config, eventually, openDetails, type Running, ready, start } from './harness/dashboard';
import { HOUSE, populate } from './harness/house';
import { noOverflow } from './harness/overflow';

let run: Running;
let sockets: Socket[] = [];
before(async () => {
  run = await start();
  sockets = await receivers(HOUSE.sinks);
  await populate(run, sockets);
});
after(async () => {
  for (const socket of sockets) socket.close();
  await run?.close();
});

/** What the route lines' canvas last drew. */
const drawn = (page: Page) =>
  page.locator('canvas.route-lines').evaluate((c) => ({
    lines: Number(c.getAttribute('data-lines')),
    focus: c.getAttribute('data-focus') ?? '',
    full: (c.getAttribute('data-full') ?? '').split(' ').filter(Boolean).sort(),
  }));

/** The config_ids of the routes whose source or sink is `name`, and `name`'s own config_id. */
async function routesOf(name: string) {
  const c = await config(run);
  const entity = [...c.sources, ...c.sinks].find((e) => e.name === name)!;
  const ids = c.routes
    .filter((r) => r.source === name || r.sink === name)
    .map((r) => r.config_id)
    .sort();
  return { id: entity.config_id, ids };
}

describe('route lines with 64 routes', () => {
  test("only the hovered or focused card's routes are drawn in full, the others faint; no overflow at 1440 and 1280 px; axe clean", async () => {
    const { page, errors } = await run.open('/', { width: 1440, height: 900 });
    await ready(page);
    await page.waitForFunction(
      () => Number(document.querySelector('canvas.route-lines')?.getAttribute('data-lines')) > 0,
    );
    const idle = await drawn(page);
    assert.deepEqual(idle.full, [], 'nothing focused: every line faint');

    const source = await routesOf('Source 1');
    assert.equal(source.ids.length, 2);
    await page.getByRole('article', { name: 'Source 1', exact: true }).hover();
    await eventually(async () => (await drawn(page)).focus, source.id);
    const hovered = await drawn(page);
    assert.deepEqual(hovered.full, source.ids, "Source 1's two routes in full");
    assert.ok(hovered.lines > 20, `the other lines are still drawn (${hovered.lines}), faint`);

    // The keyboard's path: focus in a sink's card draws its routes in full.
    await page.mouse.move(720, 5);
    const sink = await routesOf('Room 3');
    await page
      .getByRole('article', { name: 'Room 3', exact: true })
      .getByRole('button', { name: /^Mute Room 3$/ })
      .focus();
    await eventually(async () => (await drawn(page)).focus, sink.id);
    assert.deepEqual((await drawn(page)).full, sink.ids, "Room 3's four routes in full");
    assert.equal(sink.ids.length, 4);

    // The cards view of 32 sources, 16 sinks and 64 routes, at 1440x900 and then 1280x800.
    await cardsViewFitsInBothSizesAndThemes(run, page, errors, '.card-head .chip');
  });
});

describe('route lines: the cost of a frame (npm run bench -- dashboard)', () => {
  test('lines painted by a worker; stats that change no route state redraw no line and no closed Details', async () => {
    // Source 1 plays: its routes' counters move with every stats message, their state stays.
    const engine = (await run.api('GET', '/api/stats')).body as {
      engine: { ports: { scream: number[] } };
    };
    const stop = await sendScream(engine.engine.ports.scream[0]!, ['127.0.1.1']);
    after(stop);
    const { page, errors } = await run.open('about:blank', { width: 1440, height: 900 });
    let stats = 0;
    page.on('websocket', (ws) => {
      if (ws.url().endsWith('/ws/stats')) ws.on('framereceived', () => stats++);
    });
    await page.goto('/');
    await ready(page);
    await page.waitForFunction(
      () => Number(document.querySelector('canvas.route-lines')?.getAttribute('data-lines')) > 0,
    );
    await page.waitForFunction(() =>
      Array.from(document.querySelectorAll('.card-route .chip')).some((c) =>
        c.textContent?.startsWith('playing'),
      ),
    );
    assert.ok(
      page.workers().some((w) => w.url().includes('lines-worker')),
      'the canvas went to the lines worker',
    );
    const draws = () =>
      page.locator('canvas.route-lines').evaluate((c: HTMLElement) => Number(c.dataset.draws));
    // Settled: no draw for a second (the first stats, levels and fonts have arrived).
    let last = await draws();
    for (let quiet = Date.now(); Date.now() - quiet < 1000; ) {
      await page.waitForTimeout(200);
      const now = await draws();
      if (now !== last) [last, quiet] = [now, Date.now()];
    }
    // Every route keeps its state while /ws/stats sends its messages (1 a second); the cards'
    // counters (in their closed Details) are not rendered meanwhile either.
    await page.evaluate(() => {
      const w = window as unknown as { closedDetailsChanges: number };
      w.closedDetailsChanges = 0;
      new MutationObserver((records) => {
        for (const r of records) {
          const at = r.target instanceof Element ? r.target : r.target.parentElement;
          if (at?.closest('.card-details[hidden]')) w.closedDetailsChanges++;
        }
      }).observe(document.querySelector('.columns')!, {
        subtree: true,
        childList: true,
        characterData: true,
      });
    });
    const from = stats;
    while (stats < from + 3) await page.waitForTimeout(100);
    assert.equal(await draws(), last, `no redraw over ${stats - from} stats messages`);
    assert.equal(
      await page.evaluate(
        () => (window as unknown as { closedDetailsChanges: number }).closedDetailsChanges,
      ),
      0,
      'closed Details are not rendered again',
    );
    // Opened, Source 1's Details show its counters, moving with the stats.
    await openDetails(page, 'Source 1');
    const counters = page
      .getByRole('article', { name: 'Source 1', exact: true })
      .locator('.card-stats');
    await counters.waitFor();
    const shown = await counters.textContent();
    await page.waitForFunction(
      (text) =>
        Array.from(document.querySelectorAll('.card-stats')).some(
          (p) => p.textContent && p.textContent !== text,
        ),
      shown,
    );
    assert.deepEqual(errors, []);
  });
});

describe('route matrix', () => {
  test('a grid of 32 x 16 cells, 64 of them routes; remembered on reload; axe clean', async () => {
    const { page, errors } = await run.open('/', { width: 1440, height: 900 });
    await ready(page);
    await page.getByRole('button', { name: 'Matrix' }).click();
    const grid = page.getByRole('grid', { name: 'Routes: sources by sinks' });
    await grid.waitFor();
    assert.equal(await grid.getByRole('columnheader').count(), HOUSE.sinks);
    assert.equal(await grid.getByRole('rowheader').count(), HOUSE.sources);
    assert.equal(await grid.getByRole('button').count(), HOUSE.sources * HOUSE.sinks);
    assert.equal(await grid.locator('button[aria-pressed="true"]').count(), HOUSE.routes);
    assert.equal(await grid.locator('button[tabindex="0"]').count(), 1, 'one tab stop');
    assert.equal(await page.locator('canvas.route-lines').count(), 0, 'no lines under a matrix');

    await page.reload();
    await grid.waitFor();
    assert.equal(
      await page.getByRole('button', { name: 'Matrix' }).getAttribute('aria-pressed'),
      'true',
    );
    const violations = [...(await axe(page, 'matrix light'))];
    const dark = await run.open('/', { width: 1440, height: 900, theme: 'dark' });
    await dark.page.getByRole('button', { name: 'Matrix' }).click();
    await dark.page.getByRole('grid').waitFor();
    violations.push(...(await axe(dark.page, 'matrix dark')));
    assert.deepEqual(violations, []);

    await page.getByRole('button', { name: 'Cards' }).click();
    await page.locator('canvas.route-lines').waitFor({ state: 'attached' });
    assert.equal(await grid.count(), 0);
    assert.deepEqual([...errors, ...dark.errors], []);
    await dark.context.close();
  });

  test('by keyboard: the arrows move, Space creates a route and deletes it again, each announced', async () => {
    const { page, errors } = await run.open('/', { width: 1440, height: 900 });
    await ready(page);
    await page.getByRole('button', { name: 'Matrix' }).click();
    const grid = page.getByRole('grid', { name: 'Routes: sources by sinks' });
    const focusedLabel = () =>
      page.evaluate(() => document.activeElement?.getAttribute('aria-label') ?? '');
    /** Waits (30 s) until the focused cell's label matches `re`. */
    const focusedLabelMatches = (re: RegExp) =>
      page.waitForFunction(
        (source) =>
          new RegExp(source).test(document.activeElement?.getAttribute('aria-label') ?? ''),
        re.source,
      );
    await grid.waitFor();
    // The grid's one tab stop: the first cell.
    await grid.locator('button[tabindex="0"]').focus();
    assert.match(await focusedLabel(), /^Source 1 to Room 1: /);
    await page.keyboard.press('ArrowRight');
    assert.equal(await focusedLabel(), 'Source 1 to Room 2: no route');
    await page.keyboard.press('ArrowDown');
    // A cell with a route says its state; before the engine's first statistics reach the page
    // (a loaded machine) that state is "waiting", so the test waits for the statistics.
    await focusedLabelMatches(/^Source 2 to Room 2: (playing|silent)/);
    await page.keyboard.press('ArrowUp');

    const pair = async () =>
      (await config(run)).routes
        .filter((r) => r.source === 'Source 1' && r.sink === 'Room 2')
        .map((r) => r.name);
    await page.keyboard.press('Space');
    await eventually(pair, ['Source 1 to Room 2']);
    // Announced: the toast's live region says it.
    await page
      .getByRole('status')
      .filter({ hasText: 'Route created: Source 1 → Room 2' })
      .waitFor();
    const cell = grid.getByRole('button', { name: /^Source 1 to Room 2: / });
    await eventually(() => cell.getAttribute('aria-pressed'), 'true');
    assert.equal(await grid.locator('button[aria-pressed="true"]').count(), HOUSE.routes + 1);
    await focusedLabelMatches(/^Source 1 to Room 2: (playing|silent)/); // focus stays

    await page.keyboard.press('Space');
    await eventually(pair, []);
    await page
      .getByRole('status')
      .filter({ hasText: 'Deleted route Source 1 to Room 2' })
      .waitFor();
    await eventually(() => cell.getAttribute('aria-pressed'), 'false');
    assert.equal((await config(run)).routes.length, HOUSE.routes);
    assert.deepEqual(errors, []);
  });
});

for (const size of [
  { width: 390, height: 844 },
  { width: 375, height: 812 },
]) {
  test(`phone ${size.width}x${size.height}: the 32 sources, 16 sinks and 64 routes fit the width`, async () => {
    const { page, context, errors } = await run.open('/', size);
    await ready(page);
    assert.equal(await page.locator('.card').count(), HOUSE.sources + HOUSE.sinks + HOUSE.routes);
    await noOverflow(page, `cards at ${size.width} px`);
    // The matrix is a desktop view: a phone gets the list and no switch.
    assert.equal(await page.getByRole('button', { name: 'Matrix' }).count(), 0);
    await page.mouse.wheel(0, 100_000);
    await page.waitForFunction(() => window.scrollY > 5000);
    await noOverflow(page, `cards at ${size.width} px, scrolled to the end`);
    assert.deepEqual(errors, []);
    await context.close();
  });
}
