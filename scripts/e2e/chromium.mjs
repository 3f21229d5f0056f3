// Debian's Chromium driven by playwright-core, launched the one way every browser test of the
// repository launches it (the dashboard's and the site's e2e harnesses, their benches and
// screenshots): one executable, one set of switches. DEVELOPERS.md says why these.
import { chromium } from 'playwright-core';

/** The browser: CHROMIUM_PATH, else Debian's package. */
export const chromiumPath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/** The switches every test browser runs with: headless, no sandbox (CI runs as root), no GPU,
 * nothing fetched or updated in the background, no first-run screens. */
export const chromiumArgs = Object.freeze([
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
]);

/** Launches the browser headless with `chromiumArgs`, then `extraArgs` (a test's own). */
export function launchChromium(extraArgs = []) {
  return chromium.launch({
    executablePath: chromiumPath,
    args: [...chromiumArgs, ...extraArgs],
    headless: true,
  });
}
