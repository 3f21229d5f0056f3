// Quality bars over the exported site: no broken internal links or anchors, valid HTML, no
// axe-core violations on any page, and the flasher's libraries only on /esp32-flasher.
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { AxeBuilder } from '@axe-core/playwright';
import { HtmlValidate } from 'html-validate';
import { openPage } from './harness/browser';
import { brokenLinks, htmlFiles, sitePathOf } from './harness/exported-site';
import { outDir, type RunningSite, startSite } from './harness/site';

const pages = htmlFiles(outDir)
  .filter(
    (file) =>
      !file.startsWith(`_not-found${path.sep}`) &&
      file !== '404.html' &&
      !file.startsWith(`404${path.sep}`),
  )
  .map(sitePathOf);

describe('exported files', () => {
  test('the export has every kind of page', () => {
    for (const page of ['/', '/docs/', '/docs/sap/', '/downloads/', '/esp32-flasher/']) {
      assert.ok(pages.includes(page), `${page} is exported`);
    }
    assert.ok(htmlFiles(outDir).includes('404.html'), '404.html is exported');
  });

  test('no internal link or anchor is broken', () => {
    assert.deepEqual(brokenLinks(outDir), []);
  });

  test('the link checker finds a missing page and a missing anchor', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'site-links-'));
    try {
      mkdirSync(path.join(dir, 'a'));
      writeFileSync(
        path.join(dir, 'index.html'),
        '<a href="/a/#here">ok</a><a href="/a/#gone">x</a><a href="/b/">y</a>',
      );
      writeFileSync(
        path.join(dir, 'a', 'index.html'),
        '<h2 id="here">Here</h2><a href="../">up</a>',
      );
      assert.deepEqual(brokenLinks(dir), [
        '/: /a/#gone names the anchor #gone, which that page lacks',
        '/: /b/ is missing',
      ]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test('every HTML file is valid HTML (html-validate, standard rules)', async () => {
    const validator = new HtmlValidate({ extends: ['html-validate:standard'] });
    const problems: string[] = [];
    for (const file of htmlFiles(outDir)) {
      const report = await validator.validateFile(path.join(outDir, file));
      for (const result of report.results) {
        for (const m of result.messages)
          problems.push(`${file}:${m.line}:${m.column} ${m.ruleId} ${m.message}`);
      }
    }
    assert.deepEqual(problems, []);
  });
});

describe('in the browser', () => {
  let site: RunningSite;
  before(async () => {
    site = await startSite();
  });
  after(() => site?.close());

  test('no axe-core violations on any page, in light and dark mode', async () => {
    const violations: string[] = [];
    const visits = [
      ...[...pages, '/no-such-page/'].map((sitePath) => ({ sitePath, dark: false })),
      // Dark mode on the main pages and on pages full of highlighted code (sh, yaml, ini, bat).
      ...[
        '/',
        '/docs/',
        '/docs/ui/',
        '/docs/rtp-configuration/',
        '/docs/homeassistant/',
        '/docs/install-linux-receiver/',
        '/docs/install-windows-sender/',
        '/downloads/',
        '/esp32-flasher/',
      ].map((sitePath) => ({
        sitePath,
        dark: true,
      })),
    ];
    // Two pages at a time: axe is CPU-bound in the renderer and this machine has two cores.
    const worker = async () => {
      const { page } = await openPage(site.browser);
      for (let visit = visits.shift(); visit; visit = visits.shift()) {
        const theme = visit.dark ? 'dark' : 'light';
        await page.addInitScript((t) => localStorage.setItem('tributary-theme', t), theme);
        await page.goto(site.url(visit.sitePath));
        const results = await new AxeBuilder({ page }).analyze();
        for (const v of results.violations) {
          const nodes = v.nodes.map((n) => n.target.join(' ')).slice(0, 3);
          violations.push(
            `${visit.sitePath} (${theme}): ${v.id} (${v.impact}) ${nodes.join(', ')}`,
          );
        }
      }
      await page.context().close();
    };
    await Promise.all([worker(), worker()]);
    assert.deepEqual(violations.sort(), []);
  });

  // They load on demand even there (jszip with a download, esptool-js with an install): the
  // flasher's own e2e tests check that half.
  test("the flasher's libraries (esptool-js, jszip) never load on other pages", async () => {
    const chunkDir = path.join(outDir, '_next', 'static', 'chunks');
    const signatures = [/ESPLoader/, /JSZip/];
    const flasherChunks = new Set(
      readdirSync(chunkDir).filter((name) => {
        const text = readFileSync(path.join(chunkDir, name), 'utf8');
        return signatures.some((s) => s.test(text));
      }),
    );
    assert.ok(flasherChunks.size > 0, 'the export holds chunks with esptool-js or jszip');
    const { page } = await openPage(site.browser);
    const loaded = new Set<string>();
    page.on('request', (request) => loaded.add(path.basename(new URL(request.url()).pathname)));
    // The pages that link to the flasher (a prefetch must not pull its libraries in).
    for (const sitePath of ['/', '/docs/', '/docs/esp32/', '/docs/install-esp32/', '/downloads/']) {
      await page.goto(site.url(sitePath), { waitUntil: 'networkidle' });
    }
    const leaked = [...loaded].filter((name) => flasherChunks.has(name));
    assert.deepEqual(leaked, [], 'flasher chunks requested outside /esp32-flasher');
    await page.context().close();
  });
});
