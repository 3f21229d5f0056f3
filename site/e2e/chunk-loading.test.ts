// Lazily loaded parts fail visibly: a blocked flasher chunk shows an error naming the chunk, and
// a page whose own scripts and styles do not load (an export served from a sub-folder it was not
// built for) says so instead of waiting forever.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { ASSET_ERROR_ID } from '../lib/asset-check';
import { openPage } from './harness/browser';
import { outDir, type RunningSite, startSite } from './harness/site';
import { serveStatic } from './harness/static-server';

let site: RunningSite;
before(async () => {
  site = await startSite();
});
after(() => site?.close());

describe('lazy chunk loading', () => {
  test('the flasher chunk loads after the page shell', async () => {
    const { page, errors } = await openPage(site.browser);
    await page.goto(site.url('/esp32-flasher/'));
    await page
      .getByRole('status')
      .filter({ hasText: 'Loading the flasher' })
      .waitFor({ state: 'detached' });
    assert.equal(await page.locator('.chunk-error').count(), 0);
    assert.equal(await page.locator(`#${ASSET_ERROR_ID}`).count(), 0, 'no asset banner');
    assert.deepEqual(
      errors.filter((e) => /chunk/i.test(e)),
      [],
    );
    await page.context().close();
  });

  test('a chunk that fails to load shows ChunkLoadError with the chunk and the failure', async () => {
    const { page } = await openPage(site.browser);
    const html = await (await fetch(site.url('/esp32-flasher/'))).text();
    // Every script chunk the page's HTML does not name is a lazily loaded one: block those.
    await page.route('**/_next/static/chunks/*.js', (route) => {
      const file = new URL(route.request().url()).pathname;
      return html.includes(file) ? route.continue() : route.abort('connectionrefused');
    });
    await page.goto(site.url('/esp32-flasher/'));
    const alert = page.getByRole('alert').filter({ hasText: 'ChunkLoadError' });
    await alert.waitFor();
    const text = (await alert.textContent()) ?? '';
    assert.match(text, /ChunkLoadError: the flasher part of this page could not be loaded/);
    assert.match(text, /Loading chunk "flasher" failed \(network error\)/);
    assert.equal(await page.getByRole('button', { name: 'Reload the page' }).isVisible(), true);
    await page.context().close();
  });

  test('an export served from a sub-folder it was not built for says so, with the fix', async () => {
    // The root build (site/out) under /tributary/: its HTML asks for /_next/... at the root,
    // which this host answers with its 404 page, as GitHub Pages does for a project site.
    const misplaced = await serveStatic({ root: outDir, basePath: '/tributary' });
    try {
      const { page } = await openPage(site.browser);
      for (const sitePath of ['esp32-flasher/', '', 'docs/sap/']) {
        await page.goto(`${misplaced.url}${sitePath}`);
        const banner = page.getByRole('alert').filter({ hasText: 'could not load its scripts' });
        await banner.waitFor();
        const text = (await banner.textContent()) ?? '';
        assert.match(text, /This page could not load its scripts and styles\./, sitePath);
        assert.match(text, /\/_next\/static\//, `${sitePath}: names a file`);
        assert.match(text, /SITE_BASE_PATH=\/tributary npm run build -w site/, sitePath);
      }
      // The flasher's placeholder says why it never finishes.
      await page.goto(`${misplaced.url}esp32-flasher/`);
      await page.getByRole('status').filter({ hasText: 'its scripts did not load' }).waitFor();
      assert.equal(await page.getByText('Loading the flasher').count(), 0);
      await page.context().close();
    } finally {
      await misplaced.close();
    }
  });

  test('a stylesheet that fails on a correct deployment is reported without the sub-folder hint', async () => {
    const { page } = await openPage(site.browser);
    await page.route('**/_next/static/**/*.css', (route) => route.abort('connectionrefused'));
    await page.goto(site.url('/esp32-flasher/'));
    const banner = page.locator(`#${ASSET_ERROR_ID}`);
    await banner.waitFor();
    const text = (await banner.textContent()) ?? '';
    assert.match(text, /\.css/);
    assert.doesNotMatch(text, /SITE_BASE_PATH/);
    assert.match(text, /reload the page/);
    await page.context().close();
  });
});
