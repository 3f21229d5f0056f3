// The layouts: the connection view on a desktop (lines that follow the cards and select their
// route), the phone list (375 px, no horizontal scroll, collapsible sections, sticky Active
// Source, 44 px targets), and no axe-core violations in light and dark, dialogs open or not.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Page } from 'playwright-core';
import { axe } from './harness/axe';
import { type Running, ready, start } from './harness/dashboard';

let run: Running;
before(async () => {
  run = await start();
  for (let i = 1; i <= 8; i++) {
    await run.api('POST', '/sinks', { name: `Room ${i}`, ip: '127.0.0.1', port: 4900 + i });
  }
  await run.api('POST', '/sinks', {
    name: 'Upstairs',
    is_group: true,
    group_members: ['Room 1', 'Room 2'],
  });
  for (let i = 1; i <= 6; i++) {
    await run.api('POST', '/sources', {
      name: `Source ${i}`,
      ip: `127.0.0.${10 + i}`,
      vnc_ip: i === 1 ? '127.0.0.11' : null,
    });
  }
  for (let i = 1; i <= 6; i++) {
    await run.api('POST', '/routes', {
      name: `R${i}`,
      source: `Source ${i}`,
      sink: `Room ${i}`,
      enabled: i !== 3,
    });
  }
  await run.api('POST', '/routes', { name: 'R7', source: 'Source 1', sink: 'Upstairs' });
});
after(async () => {
  if (run && (run.daemon.child.exitCode !== null || run.daemon.child.signalCode !== null)) {
    console.log(run.daemon.child.signalCode, run.daemon.output().slice(-3000));
  }
  await run?.close();
});

/** How many times the route lines were drawn (RouteLines.tsx counts them). */
const draws = (page: Page) =>
  page.locator('canvas.route-lines').evaluate((c: HTMLElement) => Number(c.dataset.draws));

/** Whether the route lines are painted around (x, y): the page's pixels there with the lines and
 * without them differ (the canvas is painted by a worker, so it is read from screenshots). */
async function painted(page: Page, x: number, y: number): Promise<boolean> {
  const clip = { x: Math.round(x) - 3, y: Math.round(y) - 3, width: 7, height: 7 };
  const lines = page.locator('canvas.route-lines');
  const withLines = await page.screenshot({ clip });
  await lines.evaluate((c: HTMLElement) => {
    c.style.visibility = 'hidden';
  });
  const without = await page.screenshot({ clip });
  await lines.evaluate((c: HTMLElement) => {
    c.style.visibility = '';
  });
  return page.evaluate(
    async ([a, b]) => {
      const pixels = async (base64: string) => {
        const png = await fetch(`data:image/png;base64,${base64}`).then((r) => r.blob());
        const bitmap = await createImageBitmap(png);
        const canvas = new OffscreenCanvas(bitmap.width, bitmap.height);
        const context = canvas.getContext('2d')!;
        context.drawImage(bitmap, 0, 0);
        return context.getImageData(0, 0, bitmap.width, bitmap.height).data;
      };
      const [p, q] = [await pixels(a!), await pixels(b!)];
      return p.some((v, i) => Math.abs(v - q[i]!) > 8);
    },
    [withLines.toString('base64'), without.toString('base64')],
  );
}

/** The middle of a card's edge, in page coordinates. */
async function edge(page: Page, name: string, side: 'left' | 'right') {
  const box = (await page.getByRole('article', { name, exact: true }).boundingBox())!;
  return { x: side === 'right' ? box.x + box.width : box.x, y: box.y + box.height / 2 };
}

// Tall enough that every source and route card stays in view once live statistics and levels
// have grown the cards (a line is left out only when its three cards are all scrolled away).
const TALL = { width: 1280, height: 1600 };

describe('desktop: the connection view', () => {
  test('a line per route, drawn where the cards are, redrawn as a panel scrolls', async () => {
    const { page, context } = await run.open('/', TALL);
    await ready(page);
    await page.waitForFunction(
      () => document.querySelector('canvas.route-lines')?.getAttribute('data-lines') === '7',
    );
    // The line leaves the source card's right edge: the canvas is painted there, and not
    // half-way down an empty stretch of the gap.
    // Past the card's port (which stands 0.6rem out of its edge, over the line). Cards grow
    // when live statistics arrive and the worker paints a moment after the page has measured:
    // the edge is measured again until the picture shows the line there (5 s).
    const end = Date.now() + 5000;
    let from = await edge(page, 'Source 2', 'right');
    let found = await painted(page, from.x + 14, from.y);
    while (!found && Date.now() < end) {
      from = await edge(page, 'Source 2', 'right');
      found = await painted(page, from.x + 14, from.y);
    }
    assert.ok(found, `a line starts at the source card's right edge (${from.x}, ${from.y})`);
    await page.setViewportSize({ width: 1280, height: 600 });
    await page.waitForFunction(
      () => document.querySelector('canvas.route-lines')?.getAttribute('data-lines') !== null,
    );
    const before = await draws(page);
    const sinks = page.getByRole('region', { name: /^Sinks/ }).locator('.column-scroll');
    await sinks.evaluate((el) => el.scrollBy(0, 200));
    await page.waitForFunction(
      (old) =>
        Number(document.querySelector<HTMLElement>('canvas.route-lines')?.dataset.draws) > old,
      before,
    );
    // A scroll's frames follow the cards measured before (line-layout.ts): the line now arrives
    // at a sink card where the scroll put it, not where it was. The first routed sink card whole
    // in the scrolled panel; its line ends at its left edge (before its port, 14 px out).
    const target = await sinks.evaluate((panel) => {
      const view = panel.getBoundingClientRect();
      // Not Room 3: its route is off, its line dashed (a gap may fall on the point looked at).
      const routed = new Set(['Room 1', 'Room 2', 'Room 4', 'Room 5', 'Room 6']);
      for (const card of panel.querySelectorAll('article')) {
        if (!routed.has(card.querySelector('.card-name')?.textContent ?? '')) continue;
        const r = card.getBoundingClientRect();
        if (r.top >= view.top && r.bottom <= view.bottom)
          return { x: r.left - 14, y: (r.top + r.bottom) / 2 };
      }
      return null;
    });
    assert.ok(target, 'a routed sink card in view after the scroll');
    const until = Date.now() + 5000;
    let follows = await painted(page, target.x, target.y);
    while (!follows && Date.now() < until) follows = await painted(page, target.x, target.y);
    assert.ok(follows, `a line arrives at the scrolled sink card (${target.x}, ${target.y})`);
    await context.close();
  });

  test("clicking a line selects its route's card", async () => {
    const { page, context } = await run.open('/', TALL);
    await ready(page);
    await page.waitForFunction(
      () => document.querySelector('canvas.route-lines')?.getAttribute('data-lines') === '7',
    );
    // The first curve runs from the source card to the route card; its middle is half-way.
    const a = await edge(page, 'Source 2', 'right');
    const b = await edge(page, 'Source 2 to Room 2', 'left');
    await page.mouse.click((a.x + b.x) / 2, (a.y + b.y) / 2);
    const selected = page.getByRole('article', { name: 'Source 2 to Room 2', exact: true });
    await page.waitForFunction(() => document.querySelector('article[data-selected]') !== null);
    assert.equal(await selected.getAttribute('data-selected'), 'true');
    assert.ok(await selected.evaluate((el) => el === document.activeElement));
    await context.close();
  });
});

describe('phone (375 px)', () => {
  test('one column, no horizontal scroll, collapsible sections, sticky Active Source, 44 px targets', async () => {
    const { page, context } = await run.open('/', { width: 375, height: 740 });
    await ready(page);
    const overflow = await page.evaluate(
      () => document.documentElement.scrollWidth - window.innerWidth,
    );
    assert.ok(overflow <= 0, `the page scrolls sideways by ${overflow} px`);
    assert.equal(await page.locator('canvas.route-lines').count(), 0, 'no lines on a phone');

    const toggle = page.getByRole('button', { name: /^Sinks/ });
    assert.equal(await toggle.getAttribute('aria-expanded'), 'true');
    await toggle.click();
    assert.equal(await toggle.getAttribute('aria-expanded'), 'false');
    assert.equal(await page.getByRole('article', { name: 'Room 4', exact: true }).count(), 0);
    await toggle.click();
    await page.getByRole('article', { name: 'Room 4', exact: true }).waitFor();

    await page.mouse.wheel(0, 1500);
    await page.waitForFunction(() => window.scrollY > 1000);
    const strip = await page.getByRole('region', { name: 'Active source' }).boundingBox();
    assert.ok(strip && strip.y >= 0 && strip.y < 150, `Active Source at y=${strip?.y}`);

    const small = await page.evaluate(() =>
      Array.from(
        document.querySelectorAll('button, [role="switch"], [role="slider"], input, select, a'),
      )
        .filter((el) => (el as HTMLElement).offsetParent !== null)
        .map((el) => {
          // A control's target is its box or the larger box of what wraps it (slider track, switch hit area).
          const r = el.getBoundingClientRect();
          const hit = (el.closest('.slider, .switch') ?? el).getBoundingClientRect();
          const before = getComputedStyle(el, '::before');
          const extra = before.content !== 'none' ? Number.parseFloat(before.height) || 0 : 0;
          return {
            name: el.getAttribute('aria-label') ?? el.textContent?.trim() ?? el.tagName,
            h: Math.max(r.height, hit.height, extra),
            w: Math.max(r.width, hit.width),
          };
        })
        .filter((t) => t.h < 43.5 || t.w < 24),
    );
    // Links inside sentences are text, not targets (WCAG 2.5.8 exempts inline links).
    assert.deepEqual(
      small.filter(
        (t) => !/install one|add it as a sink|flash it|add a source by hand/.test(t.name),
      ),
      [],
    );
    await context.close();
  });
});

describe('accessibility', () => {
  test('no axe-core violations in light and dark: the dashboard, its dialogs, a phone, the desktop menu', async () => {
    // The two themes at once, each in its own pages: axe is CPU-bound in the renderer and this
    // machine has two cores.
    const themes = ['light', 'dark'] as const;
    const violations = (await Promise.all(themes.map((theme) => axeTheme(theme)))).flat();
    assert.deepEqual(violations, []);
  });

  /** axe over every view of the dashboard in one theme: what it finds, labelled by view. */
  async function axeTheme(theme: 'light' | 'dark'): Promise<string[]> {
    const violations: string[] = [];
    const { page, context } = await run.open('/', { theme });
    await ready(page);
    await page.waitForFunction(() => document.querySelectorAll('.chip').length > 10);
    violations.push(...(await axe(page, `dashboard ${theme}`)));
    await page.getByRole('button', { name: 'Actions for Room 1' }).click();
    violations.push(...(await axe(page, `menu ${theme}`)));
    await page.getByRole('menuitem', { name: 'Edit' }).click();
    await page.getByRole('dialog').waitFor();
    violations.push(...(await axe(page, `edit dialog ${theme}`)));
    await page.keyboard.press('Escape');
    await page.getByRole('button', { name: 'Actions for R1' }).click();
    await page.getByRole('menuitem', { name: 'Equalizer' }).click();
    await page.getByRole('dialog').waitFor();
    violations.push(...(await axe(page, `equalizer ${theme}`)));
    await page.keyboard.press('Escape');
    await page.getByRole('button', { name: 'Add Source' }).click();
    await page.getByRole('menuitem', { name: 'RTP Source' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Add source' }).click();
    await page.getByRole('dialog').getByRole('alert').waitFor();
    violations.push(...(await axe(page, `form with errors ${theme}`)));
    await page.keyboard.press('Escape');
    await page.getByRole('dialog').waitFor({ state: 'detached' });
    // A card's Details and a group's members opened, and Play a URL with the API's refusal.
    await page.getByRole('button', { name: 'Details of Room 1' }).click();
    await page.getByRole('button', { name: 'Members and details of Upstairs' }).click();
    await page.getByRole('list', { name: 'Members' }).waitFor();
    violations.push(...(await axe(page, `details open ${theme}`)));
    await page.getByRole('button', { name: 'Actions for Room 2' }).click();
    await page.getByRole('menuitem', { name: 'Play a URL…' }).click();
    const play = page.getByRole('dialog', { name: 'Play a URL on Room 2' });
    await play.getByRole('textbox', { name: 'URL' }).fill('ftp://127.0.0.1/a.mp3');
    await play.getByRole('button', { name: 'Play' }).click();
    await play.getByText(/scheme ftp: is not played/).waitFor();
    violations.push(...(await axe(page, `play a URL with its error ${theme}`)));
    await context.close();

    const phone = await run.open('/', { theme, width: 375, height: 740 });
    await ready(phone.page);
    violations.push(...(await axe(phone.page, `phone ${theme}`)));
    await phone.context.close();

    const menu = await run.open('/site/DesktopMenu', { theme, width: 360, height: 600 });
    await menu.page.getByRole('heading', { name: 'Sinks' }).waitFor();
    violations.push(...(await axe(menu.page, `desktop menu ${theme}`)));
    await menu.context.close();
    return violations;
  }

  test('the first-run page (nothing configured) has no violations either', async () => {
    const empty = await start();
    try {
      for (const theme of ['light', 'dark'] as const) {
        const { page, context } = await empty.open('/', { theme });
        await page.getByText('No sources yet.').waitFor();
        assert.deepEqual(await axe(page, `first run ${theme}`), []);
        await context.close();
      }
    } finally {
      await empty.close();
    }
  });
});
