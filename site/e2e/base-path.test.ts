// The export under a base path (SITE_BASE_PATH=/tributary), as on a project sub-folder of a
// static host: built here into .bench/base-path, then served under /tributary/ only.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { Browser } from 'playwright-core';
import { launchChromium } from '../../scripts/e2e/chromium.mjs';
import { ASSET_ERROR_ID } from '../lib/asset-check';
import { openPage, pressUntilVisible, waitForHydration } from './harness/browser';
import { brokenLinks } from './harness/exported-site';
import { type StaticServer, serveStatic } from './harness/static-server';

const basePath = '/tributary';
const siteDir = path.join(import.meta.dirname, '..');
const distDir = '.bench/base-path';
const exportDir = path.join(siteDir, distDir);

let server: StaticServer;
let browser: Browser;
before(async () => {
  execFileSync('npm', ['run', 'build'], {
    cwd: siteDir,
    stdio: ['ignore', 'ignore', 'inherit'],
    env: { ...process.env, SITE_BASE_PATH: basePath, SITE_DIST_DIR: distDir },
  });
  server = await serveStatic({ root: exportDir, basePath });
  browser = await launchChromium();
});
after(async () => {
  await browser?.close();
  await server?.close();
});

describe(`exported under ${basePath}`, () => {
  test('every internal link and asset stays under the base path', () => {
    assert.deepEqual(brokenLinks(exportDir, basePath), []);
  });

  test('pages render, navigate and load their assets and lazy chunks under it', async () => {
    const { page, errors } = await openPage(browser);
    await page.goto(`${server.origin}${basePath}/`);
    assert.equal(
      await page.getByRole('link', { name: 'Tributary' }).first().getAttribute('href'),
      `${basePath}/`,
    );
    await page.getByRole('banner').getByRole('link', { name: 'Docs' }).click();
    await page.waitForURL(`**${basePath}/docs/`);
    await page
      .getByRole('navigation', { name: 'Documentation' })
      .getByRole('link', { name: 'SAP discovery' })
      .click();
    await page.waitForURL(`**${basePath}/docs/sap/`);
    await page.goto(`${server.origin}${basePath}/esp32-flasher/`);
    await page
      .getByRole('status')
      .filter({ hasText: 'Loading the flasher' })
      .waitFor({ state: 'detached' });
    assert.equal(await page.locator('.chunk-error').count(), 0);
    assert.equal(await page.locator(`#${ASSET_ERROR_ID}`).count(), 0, 'no asset banner');
    assert.deepEqual(errors, []);
    assert.ok(
      server.requests.every((p) => p.startsWith(`${basePath}/`)),
      'nothing requested outside the base path',
    );
    await page.context().close();
  });

  test('search finds pages and links them under the base path', async () => {
    const { page, errors } = await openPage(browser);
    await page.goto(`${server.origin}${basePath}/docs/`);
    await waitForHydration(page);
    const input = page.getByRole('searchbox', { name: 'Search the documentation' });
    await pressUntilVisible(page, '/', input);
    await input.fill('multicast');
    const result = page.locator('.search-results a').first();
    await result.waitFor({ timeout: 15_000 });
    assert.match((await result.getAttribute('href')) ?? '', new RegExp(`^${basePath}/docs/`));
    await result.click();
    await page.waitForURL(`**${basePath}/docs/**`);
    assert.deepEqual(errors, []);
    await page.context().close();
  });

  test('unknown paths get the 404 page', async () => {
    const { page } = await openPage(browser);
    const response = await page.goto(`${server.origin}${basePath}/nothing-here/`);
    assert.equal(response?.status(), 404);
    await page.getByRole('link', { name: 'Back to home' }).click();
    await page.waitForURL(`${server.origin}${basePath}/`);
    await page.context().close();
  });

  test('an unknown docs path shows the page its last segment names, at its own URL', async () => {
    const { page } = await openPage(browser);
    const requested = `${server.origin}${basePath}/docs/guides/sap/`;
    const response = await page.goto(requested);
    assert.equal(response?.status(), 404);
    await page
      .getByRole('navigation', { name: 'Documentation' })
      .locator('[aria-current="page"]')
      .filter({ hasText: 'SAP discovery' })
      .waitFor();
    await page.waitForFunction(() => !document.documentElement.hasAttribute('data-docs-fallback'));
    assert.equal(page.url(), requested);
    await page.context().close();
  });
});
