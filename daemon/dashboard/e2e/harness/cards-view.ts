// The cards view at the two desktop sizes and in both themes (issue 31): no sideways overflow at
// 1440x900 and 1280x800, and axe clean in light and dark. Shared by the realistic house
// (compact.test.ts) and the 32x16x64 one (large-house.test.ts).
import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import { axe } from './axe';
import type { Running } from './dashboard';
import { noOverflow } from './overflow';

/**
 * Checks `page` (open at 1440x900, its errors in `errors`), then resizes it to 1280x800 and
 * checks again, then opens the view in the dark theme, waits for `ready` (a selector that shows
 * the view has its live state) and runs axe on it; no page error in either.
 */
export async function cardsViewFitsInBothSizesAndThemes(
  run: Running,
  page: Page,
  errors: readonly string[],
  ready: string,
): Promise<void> {
  await noOverflow(page, 'cards at 1440x900');
  assert.deepEqual(await axe(page, 'cards 1440x900'), []);
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.waitForFunction(() => window.innerWidth === 1280);
  await noOverflow(page, 'cards at 1280x800');
  const dark = await run.open('/', { width: 1440, height: 900, theme: 'dark' });
  await dark.page.locator(ready).first().waitFor();
  assert.deepEqual(await axe(dark.page, 'cards 1440x900 dark'), []);
  assert.deepEqual([...errors, ...dark.errors], []);
  await dark.context.close();
}
