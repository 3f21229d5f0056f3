// Docs URLs the export has no file for, loaded the way a static host serves them (404.html with
// status 404): the last path segment chooses the page, the URL stays as asked, and the 404 text
// is never painted on the way.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Page } from 'playwright-core';
import { resolveDocPath } from '../lib/docs-nav';
import { openPage, type WatchedPage } from './harness/browser';
import { paintedTexts, watchPaintedTexts } from './harness/paint-watch';
import { type RunningSite, startSite } from './harness/site';

let site: RunningSite;
before(async () => {
  site = await startSite();
});
after(() => site?.close());

const NOT_FOUND_TEXT = "Sorry, the page you're looking for seems to have gone silent.";

/** A page that notes the visible <h1> before every frame it paints. */
async function watchedForFlash(): Promise<WatchedPage> {
  const watched = await openPage(site.browser);
  await watchPaintedTexts(watched.page, 'h1');
  return watched;
}

/** How many frames were watched, and whether one of them showed the 404 heading. */
async function flashWatch(page: Page) {
  const { frames, texts } = await paintedTexts(page);
  return { frames, notFoundShown: texts.includes(NOT_FOUND_TEXT) };
}

const currentInSidebar = (page: Page) =>
  page
    .getByRole('navigation', { name: 'Documentation' })
    .locator('[aria-current="page"]')
    .textContent();

/** Loads a URL the export lacks and waits until the chosen docs page is shown. */
async function loadUnknown(page: Page, sitePath: string, expectedTitle: string) {
  const response = await page.goto(site.url(sitePath));
  assert.equal(response?.status(), 404, `${sitePath}: the host answers 404.html`);
  await page
    .getByRole('navigation', { name: 'Documentation' })
    .locator('[aria-current="page"]')
    .filter({ hasText: expectedTitle })
    .waitFor();
  // The address bar goes back to the requested URL once the page has rendered.
  await page.waitForURL(site.url(sitePath));
  await page.waitForFunction(() => !document.documentElement.hasAttribute('data-docs-fallback'));
}

// The document's own 404 is expected; nothing else may fail.
const unexpected = (errors: string[]) => errors.filter((e) => !e.includes('status of 404'));

describe('docs URLs without a page of their own', () => {
  test('/docs/guides/api/ shows the API reference at that URL, without painting the 404 text', async () => {
    const { page, errors } = await watchedForFlash();
    const api = resolveDocPath(['api']);
    await loadUnknown(page, '/docs/guides/api/', api.page.title);
    assert.equal(page.url(), site.url('/docs/guides/api/'));
    assert.match((await page.getByRole('heading', { level: 1 }).textContent()) ?? '', /API/);
    assert.match(await page.title(), /API/);
    const watch = await flashWatch(page);
    assert.ok(watch.frames > 0, 'frames were watched');
    assert.equal(watch.notFoundShown, false, 'the 404 heading was painted');
    assert.equal(await page.getByText(NOT_FOUND_TEXT).count(), 0);
    assert.deepEqual(unexpected(errors), []);
    await page.context().close();
  });

  test('an unknown last segment shows the overview and keeps its URL', async () => {
    const { page, errors } = await watchedForFlash();
    await loadUnknown(page, '/docs/no-such-page/', 'Overview');
    assert.equal(page.url(), site.url('/docs/no-such-page/'));
    assert.equal((await flashWatch(page)).notFoundShown, false);
    assert.deepEqual(unexpected(errors), []);
    await page.context().close();
  });

  test('an alias, a query and an anchor survive: /docs/setup/raspberry-pi/?from=x#add-it-as-a-sink', async () => {
    const { page, errors } = await watchedForFlash();
    const pi = resolveDocPath(['raspberry-pi']);
    const sitePath = '/docs/setup/raspberry-pi/?from=x#add-it-as-a-sink';
    await loadUnknown(page, sitePath, pi.page.title);
    assert.equal(page.url(), site.url(sitePath));
    assert.equal(await currentInSidebar(page), pi.page.title);
    // Scrolled to the anchor (smoothly, so wait for it).
    await page.waitForFunction(() => {
      const top = document.getElementById('add-it-as-a-sink')?.getBoundingClientRect().top;
      return top !== undefined && top >= 0 && top < window.innerHeight / 2;
    });
    assert.deepEqual(unexpected(errors), []);
    await page.context().close();
  });

  test('the page works afterwards: links navigate, Back returns to the requested URL and page', async () => {
    const { page, errors } = await watchedForFlash();
    const sap = resolveDocPath(['sap']);
    await loadUnknown(page, '/docs/old/sap/', sap.page.title);
    const next = sap.next;
    assert.ok(next);
    await page
      .getByRole('navigation', { name: 'Previous and next pages' })
      .getByRole('link', { name: new RegExp(next.title) })
      .click();
    await page.waitForURL(site.url(`/docs/${next.segment}/`));
    assert.equal(await currentInSidebar(page), next.title);
    await page.goBack();
    await page.waitForURL(site.url('/docs/old/sap/'));
    await page
      .getByRole('navigation', { name: 'Documentation' })
      .locator('[aria-current="page"]')
      .filter({ hasText: sap.page.title })
      .waitFor();
    assert.deepEqual(unexpected(errors), []);
    await page.context().close();
  });

  test('other unknown paths keep the 404 text, and the docs frame stays hidden', async () => {
    const { page } = await watchedForFlash();
    const response = await page.goto(site.url('/guides/api/'));
    assert.equal(response?.status(), 404);
    await page.getByRole('heading', { name: NOT_FOUND_TEXT }).waitFor();
    assert.equal((await flashWatch(page)).notFoundShown, true, 'the watch sees the 404 text');
    assert.equal(await page.getByRole('navigation', { name: 'Documentation' }).count(), 0);
    assert.equal(page.url(), site.url('/guides/api/'));
    await page.context().close();
  });

  test('without its scripts, a docs URL ends on the 404 text instead of loading forever', async () => {
    const { page } = await openPage(site.browser);
    // Scripts only: the stylesheet still loads.
    await page.route('**/_next/static/chunks/*.js', (route) => route.abort('connectionrefused'));
    await page.clock.install();
    await page.goto(site.url('/docs/guides/api/'));
    const heading = page.getByRole('heading', { name: NOT_FOUND_TEXT });
    assert.equal(await heading.isVisible(), false, 'hidden while the scripts may still come');
    await page.clock.runFor(16_000);
    await heading.waitFor();
    await page.context().close();
  });
});
