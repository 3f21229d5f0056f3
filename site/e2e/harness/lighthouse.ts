// Lighthouse 12 against Debian's Chromium: starts its own headless Chromium with a DevTools port
// (Lighthouse drives it over CDP) and returns the category scores and the metrics we track.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import lighthouse from 'lighthouse';
import desktopConfig from 'lighthouse/core/config/desktop-config.js';
import puppeteer, { type Browser } from 'puppeteer-core';
import { chromiumArgs, chromiumPath } from '../../../scripts/e2e/chromium.mjs';
import { fixtureRelease, isReleaseListRequest } from './fixture-release';

export type Preset = 'desktop' | 'mobile';

export interface LighthouseResult {
  url: string;
  preset: Preset;
  /** 0-100 per category: performance, accessibility, best-practices, seo. */
  scores: Record<string, number>;
  totalBlockingTimeMs: number;
  largestContentfulPaintMs: number;
  /** Audits that did not pass in the non-performance categories, for error messages. */
  failures: string[];
}

export interface LighthouseChrome {
  port: number;
  browser: Browser;
  close(): Promise<void>;
}

export async function launchLighthouseChrome(): Promise<LighthouseChrome> {
  const profile = mkdtempSync(path.join(tmpdir(), 'site-lighthouse-'));
  const child = spawn(
    chromiumPath,
    [...chromiumArgs, '--remote-debugging-port=0', `--user-data-dir=${profile}`, 'about:blank'],
    { stdio: ['ignore', 'ignore', 'pipe'] },
  );
  const port = await new Promise<number>((resolve, reject) => {
    let text = '';
    const timer = setTimeout(
      () => reject(new Error(`no DevTools port from Chromium: ${text}`)),
      30_000,
    );
    child.stderr.on('data', (chunk: Buffer) => {
      text += chunk.toString();
      const match = /DevTools listening on ws:\/\/[^:]+:(\d+)\//.exec(text);
      if (match) {
        clearTimeout(timer);
        resolve(Number(match[1]));
      }
    });
    child.on('exit', (code) => reject(new Error(`Chromium exited (${code}): ${text}`)));
  });
  const browser = await puppeteer.connect({ browserURL: `http://127.0.0.1:${port}` });
  return {
    port,
    browser,
    close: async () => {
      const exited =
        child.exitCode !== null || child.signalCode !== null
          ? Promise.resolve()
          : new Promise((resolve) => child.once('exit', resolve));
      // Browser.close over CDP shuts every Chromium process down cleanly; SIGKILL if it hangs.
      await browser.close().catch(() => child.kill());
      const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
      await exited;
      clearTimeout(timer);
      rmSync(profile, { recursive: true, force: true, maxRetries: 10, retryDelay: 100 });
    },
  };
}

export async function runLighthouse(
  chrome: LighthouseChrome,
  url: string,
  preset: Preset,
  /** Limit the run to these categories (performance is the slow one). */
  onlyCategories?: string[],
): Promise<LighthouseResult> {
  const page = await chrome.browser.newPage();
  const origin = new URL(url).origin;
  await page.setRequestInterception(true);
  page.on('request', (request) => {
    if (request.isInterceptResolutionHandled()) return;
    if (request.url().startsWith(origin)) return void request.continue();
    if (isReleaseListRequest(request.url())) {
      return void request.respond({
        status: 200,
        contentType: 'application/json',
        headers: { 'access-control-allow-origin': '*' },
        body: JSON.stringify([fixtureRelease]),
      });
    }
    return void request.abort('blockedbyclient');
  });
  const result = await lighthouse(
    url,
    {
      port: chrome.port,
      output: 'json',
      logLevel: 'error',
      ...(onlyCategories ? { onlyCategories } : {}),
    },
    preset === 'desktop' ? desktopConfig : undefined,
    page,
  );
  await page.close();
  if (!result) throw new Error(`Lighthouse returned nothing for ${url}`);
  const { lhr } = result;
  if (lhr.runtimeError) throw new Error(`Lighthouse failed on ${url}: ${lhr.runtimeError.message}`);
  const scores: Record<string, number> = {};
  const failures: string[] = [];
  for (const [id, category] of Object.entries(lhr.categories)) {
    scores[id] = Math.round((category.score ?? 0) * 100);
    if (id === 'performance') continue;
    for (const ref of category.auditRefs) {
      const audit = lhr.audits[ref.id];
      if (ref.weight > 0 && audit && audit.score !== null && audit.score < 1) {
        failures.push(`${id}: ${audit.id} (${audit.title})`);
      }
    }
  }
  return {
    url,
    preset,
    scores,
    totalBlockingTimeMs: lhr.audits['total-blocking-time']?.numericValue ?? Number.NaN,
    largestContentfulPaintMs: lhr.audits['largest-contentful-paint']?.numericValue ?? Number.NaN,
    failures,
  };
}
