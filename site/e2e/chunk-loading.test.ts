// Lazily loaded parts fail visibly: a blocked flasher chunk shows an error naming the chunk.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { openPage } from './harness/browser';
import { type RunningSite, startSite } from './harness/site';

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
});
