// Starts the exported site (site/out, or SITE_OUT_DIR) on a local static server and a browser.
import { existsSync } from 'node:fs';
import path from 'node:path';
import type { Browser } from 'playwright-core';
import { launchChromium } from '../../../scripts/e2e/chromium.mjs';
import { type StaticServer, type StaticServerOptions, serveStatic } from './static-server';

export const outDir = path.resolve(
  process.env.SITE_OUT_DIR ?? path.join(import.meta.dirname, '..', '..', 'out'),
);

export interface RunningSite {
  server: StaticServer;
  browser: Browser;
  /** An absolute URL for a site path such as "/docs/sap/". */
  url(sitePath: string): string;
  close(): Promise<void>;
}

export async function startSite(
  options: Omit<StaticServerOptions, 'root'> = {},
): Promise<RunningSite> {
  if (!existsSync(path.join(outDir, 'index.html'))) {
    throw new Error(`no exported site at ${outDir}: run \`npm run build -w site\` first`);
  }
  const server = await serveStatic({ root: outDir, ...options });
  const browser = await launchChromium();
  return {
    server,
    browser,
    url: (sitePath) => new URL(sitePath.replace(/^\//, ''), server.url).href,
    close: async () => {
      await browser.close();
      await server.close();
    },
  };
}
