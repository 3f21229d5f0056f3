// Every exported route renders in Chromium without console errors; unknown paths get the 404
// (unknown docs paths: docs-fallback.test.ts).
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { docHref, exportedSegments, resolveDocPath } from '../lib/docs-nav';
import { openPage, waitForHydration } from './harness/browser';
import { type RunningSite, startSite } from './harness/site';

let site: RunningSite;
before(async () => {
  site = await startSite();
});
after(() => site?.close());

const pages: { path: string; heading: RegExp }[] = [
  { path: '/', heading: /network audio/i },
  { path: '/downloads/', heading: /download/i },
  { path: '/esp32-flasher/', heading: /ESP32-S3 firmware flasher/ },
  ...exportedSegments().map((segment) => ({
    path: docHref(segment),
    heading: /\S/,
  })),
];

describe('every route renders', () => {
  test('each page has its heading, the layout, and no console errors', async () => {
    const { page, errors } = await openPage(site.browser);
    for (const { path, heading } of pages) {
      const response = await page.goto(site.url(path));
      assert.equal(response?.status(), 200, `${path} status`);
      const h1 = page.getByRole('heading', { level: 1 });
      assert.equal(await h1.count(), 1, `${path} has one h1`);
      assert.match((await h1.textContent()) ?? '', heading, `${path} heading`);
      assert.equal(await page.getByRole('banner').count(), 1, `${path} top bar`);
      assert.equal(await page.getByRole('contentinfo').count(), 1, `${path} footer`);
      assert.ok((await page.title()).includes('Tributary'), `${path} title`);
    }
    assert.deepEqual(errors, []);
    await page.context().close();
  });

  test('a docs page highlights itself in the sidebar and links its neighbours', async () => {
    const { page, errors } = await openPage(site.browser);
    const doc = resolveDocPath(['sap']);
    await page.goto(site.url('/docs/sap/'));
    const nav = page.getByRole('navigation', { name: 'Documentation' });
    assert.equal(await nav.locator('[aria-current="page"]').textContent(), doc.page.title);
    const crumbs = page.getByRole('navigation', { name: 'Breadcrumb' });
    assert.equal(await crumbs.getByRole('link', { name: 'Docs' }).getAttribute('href'), '/docs/');
    const pager = page.getByRole('navigation', { name: 'Previous and next pages' });
    await pager.getByRole('link', { name: new RegExp(doc.next?.title ?? '') }).click();
    await page.waitForURL(`**${docHref(doc.next?.segment ?? '')}`);
    assert.equal(
      await page
        .getByRole('navigation', { name: 'Documentation' })
        .locator('[aria-current="page"]')
        .textContent(),
      doc.next?.title,
    );
    assert.deepEqual(errors, []);
    await page.context().close();
  });

  test('install-raspberry-pi shows the Raspberry Pi sender page and says so in its title', async () => {
    const { page } = await openPage(site.browser);
    await page.goto(site.url('/docs/install-raspberry-pi/'));
    assert.match(await page.title(), /Raspberry Pi sender/i);
    assert.match((await page.locator('.alias-note').textContent()) ?? '', /Raspberry Pi sender/);
    await page.context().close();
  });

  test('the RTP guide has no breadcrumb', async () => {
    const { page } = await openPage(site.browser);
    await page.goto(site.url('/docs/rtp-configuration/'));
    assert.equal(await page.getByRole('navigation', { name: 'Breadcrumb' }).count(), 0);
    await page.context().close();
  });

  test('code blocks copy their text; headings link to themselves', async () => {
    const { page, errors } = await openPage(site.browser, {
      permissions: ['clipboard-read', 'clipboard-write'],
    });
    await page.goto(site.url('/docs/install-tributary/'));
    await waitForHydration(page);
    const block = page.locator('.code-block').first();
    const code = (await block.locator('pre').textContent()) ?? '';
    await block.getByRole('button', { name: /Copy/ }).click();
    await block.getByText('Copied').waitFor();
    assert.equal(
      await page.evaluate(() => navigator.clipboard.readText()),
      code.replace(/\n$/, ''),
    );
    const heading = page.locator('article h2[id]').first();
    const id = await heading.getAttribute('id');
    assert.equal(await heading.getByRole('link').getAttribute('href'), `#${id}`);
    assert.deepEqual(errors, []);
    await page.context().close();
  });

  test('the API reference is generated from daemon/openapi.json and opens linked entries', async () => {
    const { page, errors } = await openPage(site.browser);
    await page.goto(site.url('/docs/api/#op-setVolumeOfSink'));
    const operation = page.locator('#op-setVolumeOfSink');
    await page.waitForFunction(
      () =>
        (document.getElementById('op-setVolumeOfSink') as HTMLDetailsElement | null)?.open === true,
    );
    assert.match((await operation.textContent()) ?? '', /\/sinks\/\{name\}\/volume\/\{volume\}/);
    await operation.getByRole('link', { name: 'Error' }).first().click();
    await page.waitForFunction(
      () => (document.getElementById('schema-Error') as HTMLDetailsElement | null)?.open === true,
    );
    assert.deepEqual(errors, []);
    await page.context().close();
  });

  test('downloads: the one copyable install works today (a clone, the README commands); the rest says Planned', async () => {
    const { page } = await openPage(site.browser);
    await page.goto(site.url('/downloads/'));
    const blocks = await page.locator('main pre').allTextContents();
    assert.equal(blocks.length, 1);
    assert.match(blocks[0] ?? '', /^git clone https:\/\/github\.com\/\S+\.git\ncd tributary\n/);
    assert.match(blocks[0] ?? '', /\nnpm install && npm start$/);
    // Highlighted at build time: coloured tokens in the exported HTML.
    assert.ok((await page.locator('main pre span[style*="--shiki-light"]').count()) > 3);
    const text = (await page.locator('main').textContent()) ?? '';
    assert.match(text, /npm test/);
    assert.doesNotMatch(text, /npm install -g|npm i -g|docker run|docker pull|\(recommended\)/i);
    for (const title of ['npm package', 'Docker image']) {
      const card = page.locator('.card').filter({ has: page.getByText(title, { exact: true }) });
      assert.equal(await card.getByText('Planned', { exact: true }).count(), 1, title);
    }
    const source = page
      .locator('.card')
      .filter({ has: page.getByText('From source', { exact: true }) });
    assert.equal(await source.getByText('Works today', { exact: true }).count(), 1);
    await page.context().close();
  });

  test('a random path gets the 404 page with a button home', async () => {
    const { page } = await openPage(site.browser);
    const response = await page.goto(site.url(`/no-such-${Date.now().toString(36)}/page`));
    assert.equal(response?.status(), 404);
    assert.equal(
      await page.getByRole('heading', { level: 1 }).textContent(),
      "Sorry, the page you're looking for seems to have gone silent.",
    );
    await page.getByRole('link', { name: 'Back to home' }).click();
    await page.waitForURL(site.url('/'));
    assert.match((await page.getByRole('heading', { level: 1 }).textContent()) ?? '', /audio/i);
    await page.context().close();
  });
});
