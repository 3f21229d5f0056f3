// Reading the docs: code highlighted at build time (no highlighter shipped), "On this page" beside
// the article on wide screens, and "Edit this page" pointing at each page's source file.
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { docFile, docEditUrl as editUrl } from '../lib/docs-content';
import { docHref, exportedSegments, resolveDocPath } from '../lib/docs-nav';
import { openPage, waitForHydration } from './harness/browser';
import { outDir, type RunningSite, startSite } from './harness/site';

let site: RunningSite;
before(async () => {
  site = await startSite();
});
after(() => site?.close());

const wide = { viewport: { width: 1440, height: 900 } };

describe('code highlighting, at build time', () => {
  test('the exported HTML carries the colours; no script chunk holds a highlighter', () => {
    const html = readFileSync(path.join(outDir, 'docs', 'rtp-configuration', 'index.html'), 'utf8');
    const tokens = html.match(
      /<span style="--shiki-light:#[0-9a-f]{6};--shiki-dark:#[0-9a-f]{6}">/gi,
    );
    assert.ok((tokens?.length ?? 0) > 50, `${tokens?.length} coloured tokens`);
    const chunks = path.join(outDir, '_next', 'static', 'chunks');
    const highlighters = readdirSync(chunks)
      .filter((name) => name.endsWith('.js'))
      .filter((name) =>
        /vscode-textmate|createHighlighter|onig\.wasm/.test(
          readFileSync(path.join(chunks, name), 'utf8'),
        ),
      );
    assert.deepEqual(highlighters, []);
  });

  test('tokens take the colours of the chosen mode', async () => {
    const { page, errors } = await openPage(site.browser);
    await page.goto(site.url('/docs/rtp-configuration/'));
    await waitForHydration(page);
    // The first token of the first shell block ("systemctl"), its colour and its two variables.
    const token = page.locator('pre .language-sh .line > span[style]').first();
    const rgb = (hex: string) =>
      `rgb(${[1, 3, 5].map((i) => Number.parseInt(hex.trim().slice(i, i + 2), 16)).join(', ')})`;
    const look = async () => {
      const style = await token.evaluate((e) => {
        const computed = getComputedStyle(e);
        return [
          computed.color,
          computed.getPropertyValue('--shiki-light'),
          computed.getPropertyValue('--shiki-dark'),
        ];
      });
      return { colour: style[0], light: rgb(style[1] ?? ''), dark: rgb(style[2] ?? '') };
    };
    const light = await look();
    assert.equal(light.colour, light.light);
    await page.getByRole('button', { name: 'Dark mode' }).click();
    const dark = await look();
    assert.equal(dark.colour, dark.dark);
    assert.notEqual(dark.colour, light.colour);
    assert.deepEqual(errors, []);
    await page.context().close();
  });
});

describe('"On this page"', () => {
  test('lists the h2 and h3 of the page in order, and marks the section being read', async () => {
    const { page, errors } = await openPage(site.browser, wide);
    await page.goto(site.url('/docs/rtp-configuration/'));
    await waitForHydration(page);
    const toc = page.getByRole('navigation', { name: 'On this page' });
    assert.equal(await toc.isVisible(), true);
    const targets = await toc
      .getByRole('link')
      .evaluateAll((links) => links.map((a) => a.getAttribute('href')));
    const headings = await page
      .locator('article :is(h2, h3)[id]')
      .evaluateAll((hs) => hs.map((h) => `#${h.id}`));
    assert.deepEqual(targets, headings);
    assert.ok(targets.length >= 4);

    const last = toc.getByRole('link').nth(3);
    await last.click();
    await page.waitForFunction(
      (href) =>
        document.querySelector(`.docs-toc a[href="${href}"]`)?.getAttribute('aria-current') ===
        'true',
      targets[3],
    );
    assert.equal(await toc.locator('[aria-current="true"]').count(), 1);
    assert.deepEqual(errors, []);
    await page.context().close();
  });

  test('a heading inside a closed tab is listed, and its link opens the tab', async () => {
    const { page } = await openPage(site.browser, wide);
    await page.goto(site.url('/docs/linux-receiver/'));
    await waitForHydration(page);
    // The second tab's "System requirements" heading is hidden until its tab is chosen.
    const heading = page.locator('[id="system-requirements"]');
    assert.equal(await heading.isVisible(), false);
    await page
      .getByRole('navigation', { name: 'On this page' })
      .getByRole('link', { name: 'System requirements' })
      .click();
    await heading.waitFor({ state: 'visible' });
    await page.context().close();
  });

  test('only on wide screens', async () => {
    const { page } = await openPage(site.browser, { viewport: { width: 1024, height: 800 } });
    await page.goto(site.url('/docs/rtp-configuration/'));
    assert.equal(await page.getByRole('navigation', { name: 'On this page' }).isVisible(), false);
    await page.context().close();
  });
});

describe('"Edit this page"', () => {
  test('every docs page links to its own source file, which exists in the repository', () => {
    const problems: string[] = [];
    for (const segment of exportedSegments()) {
      const { page } = resolveDocPath(segment === '' ? [] : [segment]);
      const html = readFileSync(path.join(outDir, docHref(segment).slice(1), 'index.html'), 'utf8');
      const href = editUrl(page.id);
      if (!existsSync(docFile(page.id))) continue;
      if (!href.endsWith(`/content/docs/${page.id}.mdx`)) problems.push(`${segment}: ${href}`);
      if (!html.includes(`href="${href}"`)) problems.push(`${segment}: no link to ${href}`);
    }
    assert.deepEqual(problems, []);
  });

  test('is a link named for what it does', async () => {
    const { page } = await openPage(site.browser);
    await page.goto(site.url('/docs/sap/'));
    const link = page.getByRole('link', { name: 'Edit this page on GitHub' });
    assert.equal(await link.getAttribute('href'), editUrl('sap'));
    await page.context().close();
  });
});
