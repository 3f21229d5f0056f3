// A real Tributary daemon (`tributary serve` in a child process: HTTPS with its self-signed
// certificate, the audio engine on, ephemeral ports on 127.0.0.1, a temporary configuration
// directory) serving the built dashboard, and Debian's Chromium driven by playwright-core.
import { deepStrictEqual } from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { createHash, X509Certificate } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { launchChromium } from '../../../../scripts/e2e/chromium.mjs';
import { type Daemon, startDaemon } from '../../../test/daemon-process';

export const dashboardDir = fileURLToPath(new URL('../../', import.meta.url));

/** The engine on loopback with ports the system picks (never the well-known ones). */
export const ENGINE_ENV = {
  ENGINE: 'on',
  ENGINE_BIND: '127.0.0.1',
  SCREAM_PORTS: '0',
  SCREAM_TAGGED_PORT: 'off',
  RTP_PORTS: '0',
};

/** Builds the dashboard once when dist/ is missing (the `build` suite normally has). */
export function ensureBuilt(): void {
  if (existsSync(join(dashboardDir, 'dist', 'index.html'))) return;
  execFileSync('npx', ['vite', 'build'], {
    cwd: dashboardDir,
    stdio: ['ignore', 'ignore', 'inherit'],
  });
}

export interface Running {
  readonly daemon: Daemon;
  readonly dir: string;
  /** GET/POST/... the API as a script would (with the token when there is one). */
  readonly api: Daemon['call'];
  readonly browser: Browser;
  /** A page in a fresh browser context at `path` (default /), console errors collected. */
  open(path?: string, options?: OpenOptions): Promise<WatchedPage>;
  close(): Promise<void>;
}

export interface OpenOptions {
  readonly width?: number;
  readonly height?: number;
  readonly theme?: 'light' | 'dark';
  /** Reuse a context (a second tab of the same browser profile). */
  readonly context?: BrowserContext;
}

export interface WatchedPage {
  readonly page: Page;
  readonly context: BrowserContext;
  /** Console errors, uncaught exceptions and failed sub-requests seen so far. */
  readonly errors: string[];
}

/** Chromium switches a test may add: WebRTC over loopback (WHEP tests), autoplay of WebAudio. */
export const webrtcArgs = [
  '--allow-loopback-in-peer-connection',
  '--autoplay-policy=no-user-gesture-required',
];

/**
 * The switch that makes Chromium trust the daemon's self-signed certificate in `dir` from the
 * first connection (its public key's SHA-256, as Chromium's SPKI allow list takes it). With
 * Playwright's ignoreHTTPSErrors alone, every new TLS connection first fails verification and
 * the request is restarted past the error, and Chromium gives up on a request restarted too
 * often with net::ERR_TOO_MANY_RETRIES (its only source: restarts after certificate errors or
 * authentication, never a keep-alive socket's reset, which it resends and reports as itself).
 */
export function trustCertificateArg(dir: string): string {
  const certificate = new X509Certificate(readFileSync(join(dir, 'tributary.crt')));
  const spki = certificate.publicKey.export({ type: 'spki', format: 'der' });
  return `--ignore-certificate-errors-spki-list=${createHash('sha256').update(spki).digest('base64')}`;
}

export async function start(
  env: Record<string, string> = {},
  extraArgs: readonly string[] = [],
): Promise<Running> {
  ensureBuilt();
  const dir = mkdtempSync(join(tmpdir(), 'tributary-dashboard-e2e-'));
  const daemon = await startDaemon(dir, { ...ENGINE_ENV, ...env });
  const browser = await launchChromium([trustCertificateArg(dir), ...extraArgs]);
  return {
    daemon,
    dir,
    api: daemon.call,
    browser,
    async open(path = '/', options = {}) {
      const context =
        options.context ??
        (await browser.newContext({
          baseURL: daemon.apiUrl,
          // Chromium trusts the daemon's certificate (trustCertificateArg), so its pages meet
          // no certificate error; this is for page.request, which Playwright sends from Node.
          ignoreHTTPSErrors: true,
          viewport: { width: options.width ?? 1280, height: options.height ?? 800 },
          colorScheme: options.theme ?? 'light',
        }));
      // tsx names functions with a __name helper; functions sent to page.evaluate need it too.
      if (!options.context)
        await context.addInitScript({ content: 'globalThis.__name = (f) => f;' });
      const page = await context.newPage();
      const errors: string[] = [];
      page.on('console', (m) => {
        // A failed resource names itself only through its location: keep it in the message.
        const at = m.location().url;
        if (m.type() === 'error') errors.push(`console: ${m.text()}${at ? ` (${at})` : ''}`);
      });
      page.on('pageerror', (e) => errors.push(`pageerror: ${e.message}`));
      await page.goto(path);
      return { page, context, errors };
    },
    async close() {
      await browser.close();
      await daemon.stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** The configuration as GET /api/config answers it. */
export async function config(running: Running) {
  const res = await running.api('GET', '/api/config');
  return (res.body as { config: import('../../src/api/schema').Config }).config;
}

/** Resolves once the dashboard shows its panels (the live configuration has arrived). */
export async function ready(page: Page): Promise<void> {
  await page.getByRole('heading', { name: /^Sources/ }).waitFor();
}

/** Polls `read` until it returns `expected` (deep-equal) or 5 s pass; then asserts it. */
export async function eventually<T>(
  read: () => Promise<T>,
  expected: T,
  timeoutMs = 5000,
): Promise<void> {
  const end = Date.now() + timeoutMs;
  let last = await read();
  while (JSON.stringify(last) !== JSON.stringify(expected) && Date.now() < end) {
    await new Promise((r) => setTimeout(r, 50));
    last = await read();
  }
  deepStrictEqual(last, expected);
}

/** Opens the Details of the card named `name` (its Stream, Listen and VNC links are there). */
export async function openDetails(page: Page, name: string): Promise<void> {
  const button = page
    .getByRole('article', { name, exact: true })
    .getByRole('button', { name: new RegExp(`^(Members and details|Details) of ${name}$`) });
  if ((await button.getAttribute('aria-expanded')) !== 'true') await button.click();
}
