// The flasher page in headless Chromium over the exported site: releases from a local release
// proxy, a firmware zip made here, and navigator.serial backed by the simulated ESP32-S3 that the
// real esptool-js flashes; afterwards the board's flash must hold the four files.

import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { AxeBuilder } from '@axe-core/playwright';
import type { Locator, Page } from 'playwright-core';
import { launchChromium } from '../../scripts/e2e/chromium.mjs';
import { FIRMWARE_FILES } from '../flasher/firmware/firmware-files';
import type { SimulatorOptions } from '../flasher/testing/browser-entry';
import type { FirmwareFiles } from '../flasher/testing/firmware-fixtures';
import {
  fixtureProxy,
  RELEASES_URL,
  type ReleaseProxy,
  routeReleaseProxy,
} from './flasher-support/release-proxy';
import {
  boardSummary,
  installSimulator,
  readBoardFlash,
  unplugBoard,
} from './flasher-support/simulator';
import { openPage } from './harness/browser';
import { paintedTexts, watchPaintedTexts } from './harness/paint-watch';
import { type RunningSite, startSite } from './harness/site';

let site: RunningSite;
let proxy: ReleaseProxy;
let files: FirmwareFiles;
let latestZip: string;

before(async () => {
  site = await startSite();
  const fixture = await fixtureProxy();
  proxy = fixture.proxy;
  files = fixture.files;
  latestZip = fixture.releases[2]!.assets[0]!.browser_download_url;
});

after(async () => {
  await site?.close();
  await proxy?.close();
});

async function flasherPage(
  simulator: SimulatorOptions | null = {},
  theme: 'light' | 'dark' = 'light',
) {
  const watched = await openPage(site.browser);
  await watched.page.addInitScript((t) => localStorage.setItem('tributary-theme', t), theme);
  await routeReleaseProxy(watched.page.context(), proxy);
  if (simulator) await installSimulator(watched.page.context(), simulator);
  await watched.page.goto(site.url('/esp32-flasher/'));
  return watched;
}

const latestRow = (page: Page) => page.locator('li[data-version="9d8e7f6"]');

const CONNECT_HINT = 'Connect the ESP32-S3 over USB, then pick its serial port.';

/** Downloads the latest release's firmware and waits for "Ready to flash!". */
async function downloadLatest(page: Page): Promise<Locator> {
  const row = latestRow(page);
  await row.getByRole('button', { name: 'Download firmware 9d8e7f6' }).click();
  await row.getByText('Ready to flash!').waitFor();
  return row;
}

const installDialog = (page: Page) => page.locator('tributary-install-dialog dialog');

/** Downloads, connects and installs; resolves with the error the dialog then shows. */
async function installExpectingFailure(page: Page): Promise<string> {
  const row = await downloadLatest(page);
  await row.getByRole('button', { name: 'Connect' }).click();
  const dialog = installDialog(page);
  await dialog.getByRole('button', { name: 'Install' }).click();
  await dialog.getByRole('alert').waitFor({ timeout: 30_000 });
  return (await dialog.getByRole('alert').textContent()) ?? '';
}

const imagesOf = (f: FirmwareFiles) => ({
  'bootloader.bin': f.bootloader,
  'partition-table.bin': f.partitionTable,
  'ota_data_initial.bin': f.otaData,
  'esp32-rtp.bin': f.app,
});

describe('flasher page', () => {
  test('lists releases newest first with Version, date, Changes; the first expanded and Latest', async () => {
    const { page, errors } = await flasherPage(null);
    const rows = page.locator('li[data-version]');
    await rows.first().waitFor();
    assert.deepEqual(
      await rows.evaluateAll((li) => li.map((e) => e.getAttribute('data-version'))),
      ['9d8e7f6', '5e1f0c2', '0a4c3b1'],
    );
    const first = rows.nth(0);
    assert.equal(
      await first.getByRole('button', { name: /Version 9d8e7f6/ }).getAttribute('aria-expanded'),
      'true',
    );
    assert.equal(await first.getByText('Latest', { exact: true }).count(), 1);
    assert.ok(await first.getByText('Changes from 5e1f0c2 to 9d8e7f6').isVisible());
    assert.ok(await first.getByText('June 20, 2025').first().isVisible());
    assert.equal(
      await rows
        .nth(1)
        .getByRole('button', { name: /Version 5e1f0c2/ })
        .getAttribute('aria-expanded'),
      'false',
    );
    await rows
      .nth(2)
      .getByRole('button', { name: /Version 0a4c3b1/ })
      .click();
    assert.ok(await rows.nth(2).getByText('Initial release').isVisible());
    assert.ok(proxy.requests.includes(RELEASES_URL));
    assert.deepEqual(errors, []);
    await page.context().close();
  });

  test('downloads, extracts and flashes the simulated ESP32-S3 with esptool-js; the flash holds the four files', async () => {
    const { page, errors } = await flasherPage({});
    await watchPaintedTexts(page, 'li[data-version="9d8e7f6"] dd [role="status"]');
    await page.reload();
    const row = await downloadLatest(page);
    const statuses = await paintedTexts(page);
    assert.deepEqual(statuses.texts, [
      'Ready',
      'Downloading firmware...',
      'Downloading ZIP archive...',
      'Extracting firmware files...',
      'Ready to flash!',
    ]);
    assert.ok(
      await page.getByText('Firmware extracted and ready to flash to your device').isVisible(),
    );
    assert.ok(await row.getByText(CONNECT_HINT).isVisible());
    assert.equal(
      await row.getByRole('button', { name: /Download firmware/ }).count(),
      0,
      'download button hidden',
    );

    await row.getByRole('button', { name: 'Connect' }).click();
    const dialog = installDialog(page);
    await dialog
      .getByRole('heading', { name: 'Install Tributary ESP32-S3 transceiver 9d8e7f6' })
      .waitFor();
    assert.equal(await dialog.locator('tbody tr').count(), 4);
    assert.equal((await boardSummary(page)).portOpen, true, 'the button opened the port at 115200');
    const started = Date.now();
    await dialog.getByRole('button', { name: 'Install' }).click();
    await dialog.getByRole('progressbar').waitFor();
    await dialog
      .getByRole('heading', { name: 'Installed Tributary ESP32-S3 transceiver 9d8e7f6' })
      .waitFor({ timeout: 60_000 });
    const seconds = (Date.now() - started) / 1000;
    assert.match(
      (await dialog.textContent()) ?? '',
      /ESP32-S3 \(QFN56\) \(revision v0\.2\), MAC 7c:df:a1:3a:51:9e/,
    );
    assert.match((await dialog.textContent()) ?? '', /at 921600 baud/);

    const images = imagesOf(files);
    for (const { name, offset } of FIRMWARE_FILES) {
      const onBoard = await readBoardFlash(page, offset, images[name].length);
      assert.ok(
        Buffer.from(onBoard).equals(Buffer.from(images[name])),
        `${name} at 0x${offset.toString(16)}`,
      );
    }
    const board = await boardSummary(page);
    assert.deepEqual(
      board.boots.at(-1),
      { mode: 'flash', outcome: 'app at 0x10000' },
      'reset into the new firmware',
    );
    assert.deepEqual(board.baudHistory.slice(0, 2), [115200, 921600]);
    console.log(
      `# simulated ESP32-S3 flashed in ${seconds.toFixed(1)} s (${board.flashBytesReceived} compressed bytes)`,
    );

    await dialog.getByRole('button', { name: 'Close' }).click();
    await page.locator('tributary-install-dialog').waitFor({ state: 'detached' });
    assert.equal((await boardSummary(page)).portOpen, false, 'port closed with the dialog');
    assert.deepEqual(errors, []);
    await page.context().close();
  });

  test('a cancelled port picker offers a retry dialog that restarts the flow', async () => {
    const { page } = await flasherPage({ picker: ['cancel'] });
    const row = await downloadLatest(page);
    await row.getByRole('button', { name: 'Connect' }).click();
    const noPort = page.locator('tributary-no-port-dialog dialog');
    await noPort.getByRole('heading', { name: 'No port selected' }).waitFor();
    await noPort.getByRole('button', { name: 'Try again' }).click();
    await installDialog(page).getByRole('button', { name: 'Install' }).waitFor();
    assert.equal((await boardSummary(page)).pickerRequests, 2);
    await page.context().close();
  });

  test('a board with another chip is refused before anything is written, and the port is released', async () => {
    const { page } = await flasherPage({ device: { chip: 'ESP32-C3' } });
    assert.match(
      await installExpectingFailure(page),
      /This board has an ESP32-C3 chip, but this firmware is built for the ESP32-S3/,
    );
    const board = await boardSummary(page);
    assert.equal(board.flashBytesReceived, 0);
    assert.equal(board.portOpen, false);
    await page.context().close();
  });

  test('unplugging the board mid-write says the connection was lost', async () => {
    const { page } = await flasherPage({ device: { unplugAfterFlashBytes: 60_000 } });
    assert.match(await installExpectingFailure(page), /Lost the connection to the board/);
    assert.equal((await boardSummary(page)).portOpen, false);
    await page.context().close();
  });

  test('unplugging the board while the dialog waits is reported, and Install goes away', async () => {
    const { page } = await flasherPage({});
    await (await downloadLatest(page)).getByRole('button', { name: 'Connect' }).click();
    const dialog = installDialog(page);
    await dialog.getByRole('button', { name: 'Install' }).waitFor();
    await unplugBoard(page);
    await dialog
      .getByText('The board was unplugged. Plug it back in, then press Connect again.')
      .waitFor();
    assert.equal(await dialog.getByRole('button', { name: 'Install' }).count(), 0);
    await dialog.getByRole('button', { name: 'Close' }).click();
    assert.equal((await boardSummary(page)).portOpen, false);
    await page.context().close();
  });

  test('a busy port alerts the open error', async () => {
    const { page } = await flasherPage({
      port: { openError: { name: 'NetworkError', message: 'Failed to open serial port.' } },
    });
    const row = await downloadLatest(page);
    const alert = new Promise<string>((resolve) =>
      page.once('dialog', (d) => void d.dismiss().then(() => resolve(d.message()))),
    );
    await row.getByRole('button', { name: 'Connect' }).click();
    assert.equal(await alert, 'Failed to open serial port.');
    assert.equal(await installDialog(page).count(), 0);
    await page.context().close();
  });

  test('a failed download shows the error badge and a "Download failed" toast', async () => {
    const saved = proxy.answers.get(latestZip)!;
    proxy.answers.set(latestZip, { status: 404 });
    try {
      const { page } = await flasherPage(null);
      const row = latestRow(page);
      await row.getByRole('button', { name: 'Download firmware 9d8e7f6' }).click();
      await row.getByText('Error: Failed to download firmware: 404 Not Found').waitFor();
      assert.ok(await page.getByText('Download failed', { exact: true }).isVisible());
      assert.equal(
        await row.getByRole('button', { name: 'Download firmware 9d8e7f6' }).isEnabled(),
        true,
      );
      await page.context().close();
    } finally {
      proxy.answers.set(latestZip, saved);
    }
  });

  test('a failed release list shows the alert above the list and an "Error loading releases" toast', async () => {
    const saved = proxy.answers.get(RELEASES_URL)!;
    proxy.answers.set(RELEASES_URL, { status: 503 });
    try {
      const { page } = await flasherPage(null);
      await page.getByText('Failed to fetch releases: 503 Service Unavailable').first().waitFor();
      assert.ok(await page.getByText('Error loading releases').isVisible());
      await page
        .getByRole('button', { name: 'Close notification: Error loading releases' })
        .click();
      assert.equal(await page.getByText('Error loading releases').count(), 0);
      await page.context().close();
    } finally {
      proxy.answers.set(RELEASES_URL, saved);
    }
  });
});

describe('loading and accessibility', () => {
  test('jszip loads with the first download and esptool-js with the first install, never with the page', async () => {
    const { page } = await flasherPage({});
    const scripts: Promise<string>[] = [];
    page.on('response', (response) => {
      if (response.request().resourceType() === 'script')
        scripts.push(response.text().catch(() => ''));
    });
    await page.reload();
    await latestRow(page).getByRole('button', { name: 'Download firmware 9d8e7f6' }).waitFor();
    const loaded = async (signature: string) =>
      (await Promise.all(scripts)).some((text) => text.includes(signature));
    const JSZIP = 'End of data reached';
    const ESPTOOL = 'Uploading stub...';
    assert.deepEqual([await loaded(JSZIP), await loaded(ESPTOOL)], [false, false], 'page load');
    const row = await downloadLatest(page);
    assert.deepEqual(
      [await loaded(JSZIP), await loaded(ESPTOOL)],
      [true, false],
      'after the download',
    );
    await row.getByRole('button', { name: 'Connect' }).click();
    const dialog = installDialog(page);
    await dialog.getByRole('button', { name: 'Install' }).click();
    await dialog.getByRole('heading', { name: /^Installed/ }).waitFor({ timeout: 60_000 });
    assert.equal(await loaded(ESPTOOL), true, 'after the install');
    await page.context().close();
  });

  test('no axe-core violations in any state (list, ready, dialogs, done, failure), light and dark', async () => {
    const violations: string[] = [];
    for (const theme of ['light', 'dark'] as const)
      violations.push(...(await axeOverStates(theme)));
    assert.deepEqual(violations, []);
  });
});

/** Walks the flasher through its states and runs axe-core at each. */
async function axeOverStates(theme: 'light' | 'dark'): Promise<string[]> {
  const violations: string[] = [];
  const check = async (page: Page, state: string) => {
    const results = await new AxeBuilder({ page }).analyze();
    for (const v of results.violations) {
      violations.push(
        `${theme} ${state}: ${v.id} ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`,
      );
    }
  };
  const { page } = await flasherPage(
    { picker: ['cancel'], device: { realTimeUart: false } },
    theme,
  );
  await latestRow(page).getByRole('button', { name: 'Download firmware 9d8e7f6' }).waitFor();
  await check(page, 'release list');
  const row = await downloadLatest(page);
  await check(page, 'firmware ready');
  await row.getByRole('button', { name: 'Connect' }).click();
  const noPort = page.locator('tributary-no-port-dialog dialog');
  await noPort.getByRole('button', { name: 'Try again' }).waitFor();
  await check(page, 'no-port dialog');
  await noPort.getByRole('button', { name: 'Try again' }).click();
  const dialog = installDialog(page);
  await dialog.getByRole('button', { name: 'Install' }).waitFor();
  await check(page, 'install dialog');
  await dialog.getByRole('button', { name: 'Install' }).click();
  await dialog.getByRole('heading', { name: /^Installed/ }).waitFor({ timeout: 60_000 });
  await dialog.locator('details').first().click();
  await check(page, 'install done');
  await page.context().close();

  const failing = await flasherPage({ device: { chip: 'ESP32-C3', realTimeUart: false } }, theme);
  await installExpectingFailure(failing.page);
  await check(failing.page, 'install failed');
  await failing.page.context().close();
  return violations;
}

describe('browsers without Web Serial', () => {
  test('an unsupported browser gets the warning, the collapsed section and the unsupported text', async () => {
    const watched = await openPage(site.browser, {
      userAgent: 'Mozilla/5.0 (X11; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0',
    });
    const { page } = watched;
    await routeReleaseProxy(page.context(), proxy);
    await page.context().addInitScript(() => {
      delete (Navigator.prototype as { serial?: unknown }).serial;
    });
    await page.goto(site.url('/esp32-flasher/'));
    await page.getByText('This browser cannot flash ESP32 boards').waitFor();
    const section = page.locator('details', { hasText: 'Attempt Flash from Incompatible Browser' });
    assert.equal(await section.evaluate((d) => (d as HTMLDetailsElement).open), false);
    await section.getByText('Attempt Flash from Incompatible Browser').click();
    await downloadLatest(page);
    assert.ok(
      await latestRow(page)
        .getByText(
          'Your browser does not support installing things on ESP devices. Use Google Chrome or Microsoft Edge.',
        )
        .isVisible(),
    );
    assert.equal(await latestRow(page).getByText(CONNECT_HINT).count(), 0);
    await page.context().close();
  });
});

describe('insecure context', () => {
  test('over plain HTTP on a non-local host the button asks for HTTPS', async () => {
    // tributary.test resolves to 127.0.0.1 inside this browser only; http://tributary.test is not
    // a secure context, so Chromium hides Web Serial there.
    const browser = await launchChromium(['--host-resolver-rules=MAP tributary.test 127.0.0.1']);
    try {
      const context = await browser.newContext();
      await routeReleaseProxy(context, proxy);
      const page = await context.newPage();
      const url = new URL(site.url('/esp32-flasher/'));
      url.hostname = 'tributary.test';
      await page.goto(url.href);
      assert.equal(await page.evaluate(() => window.isSecureContext), false);
      await downloadLatest(page);
      assert.ok(
        await latestRow(page)
          .getByText('You can only install ESP devices on HTTPS websites or on the localhost.')
          .isVisible(),
      );
      assert.equal(await latestRow(page).getByText(CONNECT_HINT).count(), 0);
    } finally {
      await browser.close();
    }
  });
});
