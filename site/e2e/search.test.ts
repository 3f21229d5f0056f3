// Offline search: Pagefind's index of the export, opened from the keyboard.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { openPage, pressUntilVisible, waitForHydration } from './harness/browser';
import { htmlFiles, sitePathOf } from './harness/exported-site';
import { outDir, type RunningSite, startSite } from './harness/site';

let site: RunningSite;
before(async () => {
  site = await startSite();
});
after(() => site?.close());

/** The indexed text of a page: its article, without scripts and tags. */
function articleText(file: string): string {
  const html = readFileSync(path.join(outDir, file), 'utf8').replace(
    /<script[\s\S]*?<\/script>/g,
    '',
  );
  const start = html.indexOf('data-pagefind-body');
  return start < 0
    ? ''
    : html
        .slice(start)
        .replace(/<[^>]+>/g, ' ')
        .toLowerCase();
}

/**
 * A word found on the deep page and on no other page (its aliases, `alsoShownAt`, aside), so
 * exactly one result can match it.
 */
function wordOnlyOn(target: string, alsoShownAt: readonly string[] = []): string {
  const files = htmlFiles(outDir);
  const targetFile = files.find((f) => sitePathOf(f) === target);
  assert.ok(targetFile, `${target} is exported`);
  const others = files
    .filter((f) => f !== targetFile && !alsoShownAt.includes(sitePathOf(f)))
    .map(articleText);
  const words = new Set(articleText(targetFile).match(/\b[a-z]{8,}\b/g) ?? []);
  for (const word of words) if (others.every((text) => !text.includes(word))) return word;
  throw new Error(`no word is unique to ${target}`);
}

/** A page at `path`, hydrated, with the search dialog opened by `key`; its field. */
async function openSearch(path: string, key: string) {
  const { page, errors } = await openPage(site.browser);
  await page.goto(site.url(path));
  await waitForHydration(page);
  const input = page.getByRole('searchbox', { name: 'Search the documentation' });
  await pressUntilVisible(page, key, input);
  return { page, errors, input };
}

describe('search', () => {
  test('"/" opens search; a word from a deep page finds it and the result navigates there', async () => {
    const target = '/docs/autoconfig/';
    const word = wordOnlyOn(target);
    const { page, errors, input } = await openSearch('/', '/');
    assert.equal(await input.evaluate((el) => el === document.activeElement), true, 'focused');
    await input.fill(word);
    const result = page.locator('.search-results a').first();
    await result.waitFor({ timeout: 15_000 });
    assert.match((await result.getAttribute('href')) ?? '', new RegExp(`^${target}`));
    assert.match((await result.textContent()) ?? '', new RegExp(word, 'i'));
    // Down arrow moves from the field to the first result; Enter follows it.
    await page.keyboard.press('ArrowDown');
    assert.equal(await result.evaluate((el) => el === document.activeElement), true);
    await page.keyboard.press('Enter');
    await page.waitForURL(`**${target}**`);
    assert.equal(await page.getByRole('dialog').isVisible(), false, 'the dialog closes');
    assert.deepEqual(errors, []);
    await page.context().close();
  });

  test('Ctrl+K opens search too and Escape closes it, returning focus to the page', async () => {
    const { page, errors, input } = await openSearch('/docs/', 'Control+k');
    await input.fill('multicast');
    await page.locator('.search-results a').first().waitFor({ timeout: 15_000 });
    await page.keyboard.press('Escape');
    assert.equal(await page.getByRole('dialog').isVisible(), false);
    // Typing "/" inside a field does not hijack it.
    // ("/" opens search again; pressed until it does, as a loaded machine may still be closing it.)
    await pressUntilVisible(page, '/', input);
    await input.fill('a/b');
    assert.equal(await input.inputValue(), 'a/b');
    assert.deepEqual(errors, []);
    await page.context().close();
  });

  test('"systemd" leads to the service section; an alias page is never a result of its own', async () => {
    const { page, errors, input } = await openSearch('/docs/', '/');
    const hrefs = async (query: string) => {
      await input.fill(query);
      await page.locator('.search-results a').first().waitFor({ timeout: 15_000 });
      return page
        .locator('.search-results a')
        .evaluateAll((links) => links.map((a) => a.getAttribute('href') ?? ''));
    };
    const systemd = await hrefs('systemd');
    const install = systemd.find((h) => h.startsWith('/docs/install-tributary/'));
    assert.equal(install, '/docs/install-tributary/#run-as-a-systemd-service', systemd.join(' '));
    // A word of the Linux receiver page (shown at /docs/raspberry-pi/ too) and of the Raspberry
    // Pi sender page (shown at /docs/install-raspberry-pi/ too): each page once, by its own address.
    for (const [target, alias] of [
      ['/docs/linux-receiver/', '/docs/raspberry-pi/'],
      ['/docs/install-rpi-sender/', '/docs/install-raspberry-pi/'],
    ] as const) {
      const found = await hrefs(wordOnlyOn(target, [alias]));
      assert.ok(
        found.some((h) => h.startsWith(target)),
        `${target} in ${found.join(' ')}`,
      );
      assert.ok(!found.some((h) => h.startsWith(alias)), `${alias} in ${found.join(' ')}`);
    }
    assert.deepEqual(errors, []);
    await page.context().close();
  });
});
