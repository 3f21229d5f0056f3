// The phone layout with a realistic house (issue 31, finding 1): 8 sources, 10 sinks, 8 routes and
// two groups, tones playing. At 390x844 and 375x812 (and the main view at 320 and 430 px wide):
// no horizontal overflow in the main view, the first-run view or any dialog; the stuck area at the
// top stays small and never covers the Active Source strip; every control is a 44 px target.
import assert from 'node:assert/strict';
import type { Socket } from 'node:dgram';
import { after, before, describe, test } from 'node:test';
import type { Page } from 'playwright-core';
import { receivers, sendScream } from './harness/audio';
import { type Running, ready, start } from './harness/dashboard';
import { noOverflow } from './harness/overflow';

let run: Running;
let empty: Running;
let sockets: Socket[] = [];
let stop = () => {};
before(async () => {
  run = await start();
  sockets = await receivers(10);
  const rooms = ['Living Room', 'Kitchen', 'Bedroom', 'Office', 'Bathroom', 'Garage'];
  const extra = ['Dining Room', 'Kids Room', 'Terrace', 'Hallway'];
  for (const [i, name] of [...rooms, ...extra].entries()) {
    await run.api('POST', '/sinks', {
      name,
      ip: '127.0.0.1',
      port: (sockets[i]!.address() as { port: number }).port,
    });
  }
  await run.api('POST', '/sinks', {
    name: 'Downstairs',
    is_group: true,
    group_members: ['Living Room', 'Kitchen', 'Dining Room'],
  });
  const pcs = ['Gaming PC', 'Work Laptop', 'Media Center', 'Living Room TV', 'Kitchen Tablet'];
  for (const [i, name] of pcs.entries()) {
    await run.api('POST', '/sources', {
      name,
      ip: `127.0.0.${i + 1}`,
      vnc_ip: i === 0 ? '127.0.0.1' : null,
    });
  }
  await run.api('POST', '/sources', { name: 'Turntable', rtp: { port: 40002 } });
  await run.api('POST', '/sources', { name: 'Spotify on the Laptop', tag: '127.0.0.2/spotify' });
  await run.api('POST', '/sources', {
    name: 'All PCs',
    is_group: true,
    group_members: ['Gaming PC', 'Work Laptop'],
  });
  const pairs = [
    ['Gaming PC', 'Office'],
    ['Gaming PC', 'Downstairs'],
    ['Work Laptop', 'Office'],
    ['Media Center', 'Living Room'],
    ['Living Room TV', 'Living Room'],
    ['Kitchen Tablet', 'Kitchen'],
    ['Turntable', 'Downstairs'],
    ['Spotify on the Laptop', 'Bedroom'],
  ];
  for (const [source, sink] of pairs) {
    await run.api('POST', '/routes', { name: `${source} to ${sink}`, source, sink });
  }
  const stats = await run.api('GET', '/api/stats');
  const port = (stats.body as { engine: { ports: { scream: number[] } } }).engine.ports.scream[0]!;
  stop = await sendScream(port, ['127.0.0.1', '127.0.0.3']);
  empty = await start();
});
after(async () => {
  stop();
  for (const s of sockets) s.close();
  await run?.close();
  await empty?.close();
});

const PHONES = [
  { width: 390, height: 844 },
  { width: 375, height: 812 },
];

/** Controls smaller than 44 x 44 px (a slider, switch or box in a label counts by its hit area). */
function smallTargets(page: Page) {
  return page.evaluate(() =>
    [
      ...document.querySelectorAll(
        'button, [role="switch"], [role="slider"], input, select, a, summary',
      ),
    ]
      .filter((el) => (el as HTMLElement).offsetParent !== null || el.tagName === 'SUMMARY')
      .filter((el) => el.getBoundingClientRect().width > 0)
      // Links inside sentences are text, not targets (WCAG 2.5.8 exempts inline links).
      .filter((el) => !(el.tagName === 'A' && el.closest('p, li') && !el.closest('.card')))
      .map((el) => {
        const r = el.getBoundingClientRect();
        const hit = (el.closest('.slider, .switch, label') ?? el).getBoundingClientRect();
        // A hit area drawn around it (::before) counts too.
        const before = getComputedStyle(el, '::before');
        const drawn = before.content !== 'none' && before.position === 'absolute';
        return {
          name: el.getAttribute('aria-label') ?? el.textContent?.trim().slice(0, 30) ?? el.tagName,
          h: Math.round(
            Math.max(r.height, hit.height, drawn ? Number.parseFloat(before.height) || 0 : 0),
          ),
          w: Math.round(
            Math.max(r.width, hit.width, drawn ? Number.parseFloat(before.width) || 0 : 0),
          ),
        };
      })
      .filter((t) => t.h < 44 || t.w < 44),
  );
}

for (const size of PHONES) {
  describe(`phone ${size.width}x${size.height}`, () => {
    test('main view: no sideways scroll, small stuck area, Active Source in view, 44 px targets', async (t) => {
      const { page, context, errors } = await run.open('/', size);
      await ready(page);
      await page.getByRole('button', { name: 'Gaming PC', exact: true }).first().click();
      // Live statistics and levels have arrived (chips say playing).
      await page.locator('.chip[data-state="playing"]').first().waitFor();
      await noOverflow(page, 'main view');
      assert.deepEqual(
        (await smallTargets(page)).map((t) => `${t.name} ${t.w}x${t.h}`),
        [],
        'controls under 44 px',
      );

      await page.mouse.wheel(0, 2500);
      await page.waitForFunction(() => window.scrollY > 2000);
      await page.waitForTimeout(200);
      const layout = await page.evaluate(() => {
        const strip = document
          .querySelector('[aria-label="Active source"]')!
          .getBoundingClientRect();
        // What covers the top of the screen: everything stuck there.
        const stuck = [...document.querySelectorAll('body *')]
          .filter((e) => ['sticky', 'fixed'].includes(getComputedStyle(e).position))
          .map((e) => e.getBoundingClientRect())
          .filter((r) => r.top < 10 && r.height > 0 && r.height < window.innerHeight);
        const bottom = Math.max(0, ...stuck.map((r) => r.bottom));
        const x = strip.left + strip.width / 2;
        const y = strip.top + Math.min(strip.height / 2, 20);
        const top = document.elementFromPoint(x, y);
        return {
          stripTop: strip.top,
          stripBottom: strip.bottom,
          stuckBottom: bottom,
          stripOnTop: !!top?.closest('[aria-label="Active source"]'),
        };
      });
      t.diagnostic(`after scrolling: ${JSON.stringify(layout)}`);
      assert.ok(
        layout.stripTop >= 0 && layout.stripBottom <= size.height,
        `Active Source in view: ${JSON.stringify(layout)}`,
      );
      assert.ok(layout.stripOnTop, `nothing covers the Active Source: ${JSON.stringify(layout)}`);
      assert.ok(
        layout.stuckBottom <= size.height * 0.22,
        `the stuck area takes ${layout.stuckBottom} of ${size.height} px`,
      );
      assert.deepEqual(errors, []);
      await context.close();
    });

    test('every dialog fits the width', async () => {
      const { page, context } = await run.open('/', size);
      await ready(page);
      const dialogs: [string, () => Promise<void>][] = [
        [
          'Add Scream Source',
          async () => {
            await page.getByRole('button', { name: 'Add Source' }).click();
            await page.getByRole('menuitem', { name: 'Scream Source' }).click();
          },
        ],
        [
          'Add RTP Source',
          async () => {
            await page.getByRole('button', { name: 'Add Source' }).click();
            await page.getByRole('menuitem', { name: 'RTP Source' }).click();
          },
        ],
        ['Add Sink', () => page.getByRole('button', { name: 'Add Sink' }).click()],
        ['Add Route', () => page.getByRole('button', { name: 'Add Route' }).click()],
        ['Edit sink Kitchen', () => menu(page, 'Kitchen', 'Edit')],
        ['Delay of Kitchen', () => menu(page, 'Kitchen', 'Delay')],
        [/Equalizer/, () => menu(page, 'Kitchen', 'Equalizer')],
        ['Keyboard shortcuts', () => page.keyboard.press('?')],
      ] as never;
      for (const [name, open] of dialogs) {
        await open();
        const dialog = page.getByRole('dialog', { name });
        await dialog.waitFor({ timeout: 10_000 }).catch(async (e) => {
          await page.screenshot({ path: `/tmp/dash-dialog-${size.width}.png` });
          throw e;
        });
        await page.waitForTimeout(150);
        await noOverflow(page, `dialog ${name}`);
        assert.deepEqual(
          (await smallTargets(page)).map((x) => `${x.name} ${x.w}x${x.h}`),
          [],
          `dialog ${name}: controls under 44 px`,
        );
        const box = (await dialog.boundingBox())!;
        assert.ok(
          box.x >= 0 && box.x + box.width <= size.width,
          `dialog ${name} fits: ${JSON.stringify(box)}`,
        );
        await page.keyboard.press('Escape');
        await dialog.waitFor({ state: 'detached' });
      }
      await context.close();
    });

    test('the first-run view fits the width', async () => {
      const { page, context } = await empty.open('/', size);
      await ready(page);
      await noOverflow(page, 'first run');
      await context.close();
    });
  });
}

test('the main view fits 320 and 430 px wide', async () => {
  for (const width of [320, 430]) {
    const { page, context } = await run.open('/', { width, height: 800 });
    await ready(page);
    await page.locator('.chip[data-state="playing"]').first().waitFor();
    await noOverflow(page, `${width} px`);
    await context.close();
  }
});

async function menu(page: Page, name: string, item: string) {
  await page.getByRole('button', { name: `Actions for ${name}`, exact: true }).click();
  await page.getByRole('menuitem', { name: item }).click();
}
