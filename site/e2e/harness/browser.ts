// Pages of the site in Debian's Chromium (launched by scripts/e2e/chromium.mjs, as every browser
// test of the repository is): console errors watched, nothing fetched from outside.
import type { Browser, BrowserContextOptions, Page } from 'playwright-core';
import { fixtureRelease, isReleaseListRequest } from './fixture-release';

export interface WatchedPage {
  page: Page;
  /** Console errors and uncaught exceptions seen so far. */
  errors: string[];
}

/** A page in a fresh context that records console errors and uncaught page errors. */
export async function openPage(
  browser: Browser,
  options: BrowserContextOptions = {},
): Promise<WatchedPage> {
  const context = await browser.newContext(options);
  // Nothing leaves this machine: the flasher's release list gets a fixture, the rest is refused.
  // (Context routes: a test's own page.route() takes precedence.)
  await context.route(/^(?!http:\/\/127\.0\.0\.1[:/])/, (route) =>
    isReleaseListRequest(route.request().url())
      ? route.fulfill({
          json: [fixtureRelease],
          headers: { 'access-control-allow-origin': '*' },
        })
      : route.abort('blockedbyclient'),
  );
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(`console: ${message.text()}`);
  });
  page.on('pageerror', (error) => errors.push(`pageerror: ${error.message}`));
  page.on('response', (response) => {
    // A navigation to a missing page is expected to be a 404; a missing sub-resource is an error.
    if (response.status() >= 400 && response.request().resourceType() !== 'document') {
      errors.push(`http ${response.status()}: ${response.url()}`);
    }
  });
  return { page, errors };
}

/** Resolves once React has hydrated the top bar (its nodes carry React's internal keys). */
export async function waitForHydration(page: Page): Promise<void> {
  await page.waitForFunction(() => {
    const button = document.querySelector('.search-button');
    return button !== null && Object.keys(button).some((key) => key.startsWith('__react'));
  });
}

/**
 * Presses a shortcut until the element it should reveal is visible (the listener is attached by
 * an effect just after hydration, so the first press can come too early on a loaded machine).
 */
export async function pressUntilVisible(
  page: Page,
  key: string,
  revealed: ReturnType<Page['locator']>,
  attempts = 20,
): Promise<void> {
  for (let attempt = 0; attempt < attempts; attempt++) {
    await page.keyboard.press(key);
    try {
      await revealed.waitFor({ state: 'visible', timeout: 1000 });
      return;
    } catch {
      // not yet: press again
    }
  }
  throw new Error(`pressing ${key} ${attempts} times did not reveal ${revealed}`);
}
