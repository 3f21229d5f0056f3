// The shared layout in a real browser: mobile menu, colour mode across reloads, no flash.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { openPage, waitForHydration } from './harness/browser';
import { type RunningSite, startSite } from './harness/site';

let site: RunningSite;
before(async () => {
  site = await startSite();
});
after(() => site?.close());

describe('layout', () => {
  test('on a phone the menu collapses behind a button and opens on demand', async () => {
    const { page, errors } = await openPage(site.browser, {
      viewport: { width: 390, height: 844 },
      isMobile: true,
      hasTouch: true,
    });
    await page.goto(site.url('/'));
    await waitForHydration(page);
    const docsLink = page.getByRole('banner').getByRole('link', { name: 'Docs' });
    const menu = page.getByRole('button', { name: 'Menu', exact: true });
    assert.equal(await docsLink.isVisible(), false);
    assert.equal(await menu.getAttribute('aria-expanded'), 'false');

    await menu.click();
    assert.equal(await menu.getAttribute('aria-expanded'), 'true');
    assert.equal(await docsLink.isVisible(), true);

    await docsLink.click();
    await page.waitForURL('**/docs/');
    assert.equal(await menu.getAttribute('aria-expanded'), 'false', 'navigating closes the menu');
    assert.equal(await docsLink.isVisible(), false);
    assert.deepEqual(errors, []);
    await page.context().close();
  });

  test('on a phone the docs navigation folds behind its own button', async () => {
    const { page, errors } = await openPage(site.browser, {
      viewport: { width: 390, height: 844 },
    });
    await page.goto(site.url('/docs/configuration/'));
    await waitForHydration(page);
    const toggle = page.getByRole('button', { name: 'Documentation menu' });
    const sap = page
      .getByRole('navigation', { name: 'Documentation' })
      .getByRole('link', { name: 'SAP discovery' });
    assert.equal(await sap.isVisible(), false);
    await toggle.click();
    assert.equal(await toggle.getAttribute('aria-expanded'), 'true');
    await sap.click();
    await page.waitForURL('**/docs/sap/');
    assert.equal(await toggle.getAttribute('aria-expanded'), 'false');
    assert.equal(await sap.isVisible(), false);
    assert.deepEqual(errors, []);
    await page.context().close();
  });

  test('on a wide screen the links show without a menu button', async () => {
    const { page } = await openPage(site.browser, { viewport: { width: 1280, height: 800 } });
    await page.goto(site.url('/'));
    await waitForHydration(page);
    assert.equal(await page.getByRole('button', { name: 'Menu', exact: true }).isVisible(), false);
    assert.equal(
      await page.getByRole('banner').getByRole('link', { name: 'Downloads' }).isVisible(),
      true,
    );
    await page.context().close();
  });

  test('at 1280 px and wider the home page grids fill whole rows (no empty columns)', async () => {
    for (const width of [1280, 1600, 1920]) {
      const { page } = await openPage(site.browser, { viewport: { width, height: 900 } });
      await page.goto(site.url('/'));
      const grids = await page.locator('main .cards').evaluateAll((elements) =>
        elements.map((grid) => ({
          section: grid.closest('section')?.querySelector('h2')?.textContent ?? '?',
          columns: getComputedStyle(grid).gridTemplateColumns.split(' ').length,
          items: grid.children.length,
        })),
      );
      assert.deepEqual(
        grids.map((g) => g.section),
        ['Features', 'Supported Platforms'],
      );
      for (const grid of grids) {
        assert.ok(
          grid.columns <= grid.items && grid.items % grid.columns === 0,
          `${width} px, ${grid.section}: ${grid.items} cards in ${grid.columns} columns`,
        );
      }
      await page.context().close();
    }
  });

  test('light first; dark persists across reloads and pages, from the first paint', async () => {
    const { page, errors } = await openPage(site.browser, { colorScheme: 'dark' });
    await page.goto(site.url('/'));
    await waitForHydration(page);
    const theme = () => page.evaluate(() => document.documentElement.dataset.theme);
    assert.equal(await theme(), 'light', 'the system dark setting is ignored');

    await page.getByRole('button', { name: 'Dark mode' }).click();
    assert.equal(await theme(), 'dark');

    // The theme must be applied before any paint: record it at DOMContentLoaded, before React.
    await page.addInitScript(() => {
      document.addEventListener('DOMContentLoaded', () => {
        (window as unknown as { firstTheme?: string }).firstTheme =
          document.documentElement.dataset.theme;
      });
    });
    await page.reload();
    assert.equal(await page.evaluate(() => (window as { firstTheme?: string }).firstTheme), 'dark');
    assert.equal(await theme(), 'dark');
    const background = await page.evaluate(() => getComputedStyle(document.body).backgroundColor);
    assert.equal(background, 'rgb(15, 20, 23)');

    await page.goto(site.url('/downloads/'));
    await waitForHydration(page);
    assert.equal(await page.evaluate(() => (window as { firstTheme?: string }).firstTheme), 'dark');
    await page.getByRole('button', { name: 'Dark mode' }).click();
    await page.reload();
    assert.equal(await theme(), 'light');
    assert.deepEqual(errors, []);
    await page.context().close();
  });
});
