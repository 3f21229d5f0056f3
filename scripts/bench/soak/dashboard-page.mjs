// `--dashboard`: the dashboard open in Debian's Chromium throughout the soak (launched the one
// way, scripts/e2e/chromium.mjs), as a house's wall tablet would keep it: its WebSockets and
// polling live while the configuration churns. Uncaught page errors and console errors go to the
// events log; at the end the page must still answer.
import { launchChromium } from '../../e2e/chromium.mjs';
import { API_PORT } from './house.mjs';

/** Opens the dashboard; resolves with { check(), close() }. */
export async function openDashboard(log) {
  const browser = await launchChromium();
  const context = await browser.newContext({ ignoreHTTPSErrors: true });
  const page = await context.newPage();
  const pageErrors = [];
  let consoleErrors = 0;
  page.on('pageerror', (err) => {
    pageErrors.push(err.message.slice(0, 300));
    log('dashboard-page-error', { error: err.message.slice(0, 300) });
  });
  page.on('console', (m) => {
    if (m.type() !== 'error') return;
    consoleErrors += 1;
    log('dashboard-console-error', { text: m.text().slice(0, 300) });
  });
  const url = `https://127.0.0.1:${API_PORT}/`;
  await page.goto(url, { waitUntil: 'load', timeout: 60_000 });
  log('dashboard-open', { url });
  return {
    /** Whether the page still answers (and how fast), with the errors it had. */
    async check() {
      const started = performance.now();
      const text = await page
        .evaluate(() => document.body.textContent.length)
        .catch((err) => {
          pageErrors.push(`no answer: ${err.message.slice(0, 200)}`);
          return null;
        });
      return {
        answers: text !== null && text > 0,
        ms: Math.round(performance.now() - started),
        pageErrors,
        consoleErrors,
      };
    },
    close: () => browser.close(),
  };
}
