import { afterEach, describe, expect, jest, test } from '@jest/globals';
import { formatBytes } from '@/flasher/format';
import type { FlashDeviceOptions, FlashResult } from '@/flasher/install/flash-device';
import { FlashError } from '@/flasher/install/flash-errors';
import { openInstallDialog } from '@/flasher/install/install-dialog';
import { openNoPortDialog } from '@/flasher/install/no-port-dialog';

const parts = [
  { name: 'bootloader.bin', offset: 0x0, size: 18_768 },
  { name: 'partition-table.bin', offset: 0x8000, size: 3072 },
  { name: 'ota_data_initial.bin', offset: 0x9000, size: 8192 },
  { name: 'esp32-rtp.bin', offset: 0x10000, size: 262_160 },
];
const manifest = {
  name: 'Tributary ESP32-S3 transceiver',
  version: 'abc1234',
  builds: [
    {
      chipFamily: 'ESP32-S3',
      parts: parts.map((p) => ({ path: `blob:${p.name}`, offset: p.offset, name: p.name })),
    },
  ],
};

function fakeFetch(answers: Record<string, unknown>): typeof fetch {
  return (async (url: string) => {
    const body = answers[url];
    if (body === undefined) return { ok: false, status: 404, statusText: 'Not Found' };
    return {
      ok: true,
      status: 200,
      statusText: 'OK',
      json: async () => body,
      arrayBuffer: async () => (body as Uint8Array).buffer,
    };
  }) as unknown as typeof fetch;
}

const files = Object.fromEntries(
  parts.map((p) => [`blob:${p.name}`, new Uint8Array(p.size).fill(7)]),
);
const answers = { 'blob:manifest': manifest, ...files };
const port = {} as SerialPort;

function dialogRoot(): ShadowRoot {
  const host = document.querySelector('tributary-install-dialog');
  if (!host?.shadowRoot) throw new Error('no install dialog on the page');
  return host.shadowRoot;
}

const text = () => dialogRoot().textContent ?? '';
const button = (name: string) =>
  [...dialogRoot().querySelectorAll('button')].find((b) => b.textContent === name) ?? null;
const tick = () => new Promise((r) => setTimeout(r, 0));

async function until(check: () => boolean): Promise<void> {
  for (let i = 0; i < 100 && !check(); i++) await tick();
  expect(check()).toBe(true);
}

const success: FlashResult = {
  chip: {
    name: 'ESP32-S3',
    description: 'ESP32-S3 (QFN56) (revision v0.2)',
    mac: '7c:df:a1:3a:51:9e',
  },
  baudRate: 921600,
  bytesWritten: 292_192,
  writeMs: 2500,
  bootLog:
    'rst:0x1 (POWERON),boot:0x8 (SPI_FAST_FLASH_BOOT)\r\nI (104) boot: Loaded app from partition at offset 0x10000\r\n',
};

/** Opens the dialog on the test manifest and presses Install. */
async function startInstall(
  flash: (options: FlashDeviceOptions) => Promise<FlashResult>,
): Promise<void> {
  void openInstallDialog({ port, manifestUrl: 'blob:manifest', fetch: fakeFetch(answers), flash });
  await until(() => button('Install') !== null);
  button('Install')!.click();
}

afterEach(() => {
  document.body.replaceChildren();
});

describe('install dialog', () => {
  test('lists the files with offsets and sizes, then flashes them as dio/80m/4MB', async () => {
    const flash = jest.fn(async (_: FlashDeviceOptions) => success);
    const closed = openInstallDialog({
      port,
      manifestUrl: 'blob:manifest',
      fetch: fakeFetch(answers),
      flash,
    });
    await until(() => button('Install') !== null);
    expect(dialogRoot().querySelector('dialog')!.getAttribute('aria-labelledby')).toBe(
      'install-title',
    );
    expect(dialogRoot().querySelector('#install-title')!.textContent).toBe(
      'Install Tributary ESP32-S3 transceiver abc1234',
    );
    const rows = [...dialogRoot().querySelectorAll('tbody tr')].map((r) =>
      [...r.children].map((c) => c.textContent),
    );
    expect(rows).toEqual([
      ['bootloader.bin', '0x0', '18 KB'],
      ['partition-table.bin', '0x8000', '3.0 KB'],
      ['ota_data_initial.bin', '0x9000', '8.0 KB'],
      ['esp32-rtp.bin', '0x10000', '256 KB'],
    ]);
    const erase = dialogRoot().querySelector('#erase-first') as HTMLInputElement;
    expect(erase.checked).toBe(false);
    erase.checked = true;
    button('Install')!.click();
    await until(() => text().includes('Installed Tributary ESP32-S3 transceiver abc1234'));
    const options = flash.mock.calls[0]![0];
    expect(options.port).toBe(port);
    expect(options.erase).toBe(true);
    expect(options.builds).toHaveLength(1);
    const build = options.builds[0]!;
    expect([build.chipFamily, build.flashMode, build.flashFreq, build.flashSize]).toEqual([
      'ESP32-S3',
      'dio',
      '80m',
      '4MB',
    ]);
    expect(build.images.map((i) => [i.name, i.address, i.data.length])).toEqual(
      parts.map((p) => [p.name, p.offset, p.size]),
    );
    expect(text()).toContain('ESP32-S3 (QFN56) (revision v0.2), MAC 7c:df:a1:3a:51:9e.');
    expect(text()).toContain('Wrote 285 KB in 2.5 s at 921600 baud.');
    expect(text()).toContain('Loaded app from partition at offset 0x10000');
    button('Close')!.click();
    await closed;
    expect(document.querySelector('tributary-install-dialog')).toBeNull();
  });

  test('shows steps, the file being written and a progress bar with bytes and percent', async () => {
    let release: () => void = () => {};
    let connectProgressHasValue = true;
    const flash = jest.fn(async (options: FlashDeviceOptions) => {
      options.onProgress?.({ step: 'connect', bytesWritten: 0, bytesTotal: 0, percent: 0 });
      connectProgressHasValue = dialogRoot().querySelector('progress')!.hasAttribute('value');
      options.onChip?.(success.chip);
      options.onProgress?.({
        step: 'write',
        file: { name: 'esp32-rtp.bin', address: 0x10000, index: 3, count: 4 },
        bytesWritten: 146_096,
        bytesTotal: 292_192,
        percent: 50,
      });
      await new Promise<void>((r) => {
        release = r;
      });
      return success;
    });
    await startInstall(flash);
    await until(() => flash.mock.calls.length === 1 && text().includes('Writing'));
    expect(connectProgressHasValue).toBe(false);
    const progress = dialogRoot().querySelector('progress')!;
    expect(progress.value).toBe(50);
    expect(progress.getAttribute('aria-labelledby')).toBe('progress-label');
    expect(dialogRoot().querySelector('#progress-label')!.textContent).toBe(
      'Writing esp32-rtp.bin (4 of 4) at 0x10000',
    );
    expect(dialogRoot().querySelector('#progress-detail')!.textContent).toBe(
      '143 KB of 285 KB (50%)',
    );
    const steps = [...dialogRoot().querySelectorAll('ol.steps li')].map(
      (li) => (li as HTMLElement).dataset.state,
    );
    expect(steps).toEqual(['done', 'done', 'current', 'pending']);
    expect(text()).toContain('Found ESP32-S3 (QFN56) (revision v0.2), MAC 7c:df:a1:3a:51:9e.');
    const cancel = new Event('cancel', { cancelable: true });
    dialogRoot().querySelector('dialog')!.dispatchEvent(cancel);
    expect(cancel.defaultPrevented).toBe(true);
    const leaving = new Event('beforeunload', { cancelable: true });
    window.dispatchEvent(leaving);
    expect(leaving.defaultPrevented).toBe(true);
    release();
    await until(() => text().includes('Installed'));
    const leavingAfter = new Event('beforeunload', { cancelable: true });
    window.dispatchEvent(leavingAfter);
    expect(leavingAfter.defaultPrevented).toBe(false);
  });

  test('a failure says what happened, and Try again goes back to the start', async () => {
    const flash = jest.fn(async (): Promise<FlashResult> => {
      throw new FlashError('wrong-chip', { chip: 'ESP32-C3', expected: ['ESP32-S3'] });
    });
    await startInstall(flash);
    await until(() => text().includes('Installation failed'));
    expect(dialogRoot().querySelector('[role="alert"]')!.textContent).toBe(
      'This board has an ESP32-C3 chip, but this firmware is built for the ESP32-S3. Connect an ESP32-S3 board and try again.',
    );
    const cancel = new Event('cancel', { cancelable: true });
    dialogRoot().querySelector('dialog')!.dispatchEvent(cancel);
    expect(cancel.defaultPrevented).toBe(false);
    button('Try again')!.click();
    expect(button('Install')).not.toBeNull();
  });

  test('unplugging the board while the dialog waits says so instead of offering Install', async () => {
    const target = new EventTarget();
    const unpluggable = target as unknown as SerialPort;
    void openInstallDialog({
      port: unpluggable,
      manifestUrl: 'blob:manifest',
      fetch: fakeFetch(answers),
      flash: jest.fn() as never,
    });
    await until(() => button('Install') !== null);
    target.dispatchEvent(new Event('disconnect'));
    expect(button('Install')).toBeNull();
    expect(dialogRoot().querySelector('[role="alert"]')!.textContent).toBe(
      'The board was unplugged. Plug it back in, then press Connect again.',
    );
  });

  test('an unreadable manifest is reported instead of an install screen', async () => {
    void openInstallDialog({
      port,
      manifestUrl: 'blob:missing',
      fetch: fakeFetch(answers),
      flash: jest.fn() as never,
    });
    await until(() => text().includes('Cannot install'));
    expect(dialogRoot().querySelector('[role="alert"]')!.textContent).toBe(
      'Failed to load the firmware manifest: 404 Not Found',
    );
  });

  test('formats sizes', () => {
    expect([
      formatBytes(512),
      formatBytes(3072),
      formatBytes(262_160),
      formatBytes(1_300_000),
    ]).toEqual(['512 B', '3.0 KB', '256 KB', '1.2 MB']);
  });
});

describe('no port dialog', () => {
  test('Try again resolves true, Cancel false, and the dialog leaves the page', async () => {
    const retry = openNoPortDialog();
    const root = () => document.querySelector('tributary-no-port-dialog')!.shadowRoot!;
    expect(root().querySelector('h2')!.textContent).toBe('No port selected');
    [...root().querySelectorAll('button')].find((b) => b.textContent === 'Try again')!.click();
    await expect(retry).resolves.toBe(true);
    expect(document.querySelector('tributary-no-port-dialog')).toBeNull();
    const cancel = openNoPortDialog();
    [...root().querySelectorAll('button')].find((b) => b.textContent === 'Cancel')!.click();
    await expect(cancel).resolves.toBe(false);
  });
});
