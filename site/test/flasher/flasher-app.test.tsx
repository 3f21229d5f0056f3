import { ReadableStream } from 'node:stream/web';
import { afterEach, describe, expect, jest, test } from '@jest/globals';
import { act, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import JSZip from 'jszip';
import { FIRMWARE_FILES } from '@/flasher/firmware/firmware-files';
import FlasherApp, { type FlasherAppProps } from '@/flasher/flasher-app';
import { formatBytes } from '@/flasher/format';
import type { FetchLike } from '@/flasher/releases/config';
import { type FakeAnswer, fakeFetch } from './fake-fetch';

const CHROME =
  'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';
const FIREFOX = 'Mozilla/5.0 (X11; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0';
const source = {
  proxy: 'https://proxy.test/?url={url}',
  releasesUrl: 'https://api.github.com/repos/o/r/releases',
};
const via = (url: string) => `https://proxy.test/?url=${encodeURIComponent(url)}`;
const assetUrl = (tag: string, name: string) =>
  `https://github.com/o/r/releases/download/${tag}/${name}`;

const releases = [
  {
    tag_name: 'build-1111111aaaa',
    published_at: '2025-01-05T09:00:00Z',
    body: 'First build.',
    assets: [
      {
        name: 'esp32-rtp-unified-1111111.zip',
        browser_download_url: assetUrl('build-1111111aaaa', 'esp32-rtp-unified-1111111.zip'),
      },
    ],
  },
  {
    tag_name: 'build-2222222bbbb',
    published_at: '2025-02-10T09:00:00Z',
    body: '**Full Changelog**: https://github.com/o/r/compare/build-1111111aaaa...build-2222222bbbb',
    assets: [
      {
        name: 'esp32-rtp-firmware-2222222.zip',
        browser_download_url: assetUrl('build-2222222bbbb', 'esp32-rtp-firmware-2222222.zip'),
      },
    ],
  },
];

async function firmwareZip(): Promise<Uint8Array> {
  const zip = new JSZip();
  for (const [i, { name }] of FIRMWARE_FILES.entries()) {
    zip.file(`build/${name}`, new Uint8Array(64).fill(i + 1));
  }
  return zip.generateAsync({ type: 'uint8array' });
}

function blobUrls() {
  let n = 0;
  return { create: jest.fn(() => `blob:test/${++n}`), revoke: jest.fn() };
}

/** Web Serial in a secure context, as desktop Chrome over HTTPS has it. */
const SERIAL_HOST = { serial: () => ({}) as Serial, secureContext: () => true };

function renderApp(
  answers: Record<string, FakeAnswer>,
  userAgent = CHROME,
  fetchImpl?: FetchLike,
  installHost: FlasherAppProps['installHost'] = SERIAL_HOST,
) {
  const urls = blobUrls();
  const fetch =
    fetchImpl ?? fakeFetch({ [via(source.releasesUrl)]: { json: releases }, ...answers });
  render(
    <FlasherApp
      source={source}
      fetch={fetch}
      userAgent={userAgent}
      blobUrls={urls}
      installHost={installHost}
    />,
  );
  return { urls };
}

/** Records every text the first status badge takes, in order, as React commits it. */
function recordStatuses(): string[] {
  const seen: string[] = [];
  const read = () => {
    const text = screen.queryAllByRole('status').find((e) => e.tagName === 'SPAN')?.textContent;
    if (text && text !== seen.at(-1)) seen.push(text);
  };
  read();
  new MutationObserver(read).observe(document.body, {
    subtree: true,
    childList: true,
    characterData: true,
  });
  return seen;
}

const rows = () => screen.getAllByRole('listitem');

afterEach(() => {
  jest.useRealTimers();
});

describe('release list', () => {
  test('newest first; the first expanded and badged Latest; Version, date and Changes', async () => {
    renderApp({});
    await waitFor(() => expect(rows()).toHaveLength(2));
    const [first, second] = rows() as [HTMLElement, HTMLElement];
    const firstToggle = within(first).getByRole('button', { name: /Version 2222222/ });
    expect(firstToggle.getAttribute('aria-expanded')).toBe('true');
    expect(within(first).getByText('Latest')).toBeTruthy();
    expect(within(first).getAllByText('February 10, 2025').length).toBeGreaterThan(0);
    expect(within(first).getByText('Changes from 1111111 to 2222222')).toBeTruthy();
    expect(within(first).getByText('Ready')).toBeTruthy();
    expect(within(first).getByRole('button', { name: 'Download firmware 2222222' })).toBeTruthy();

    const secondToggle = within(second).getByRole('button', { name: /Version 1111111/ });
    expect(secondToggle.getAttribute('aria-expanded')).toBe('false');
    expect(within(second).queryByText('Latest')).toBeNull();
    expect(within(second).queryByRole('button', { name: /Download/ })).toBeNull();
    await userEvent.click(secondToggle);
    expect(secondToggle.getAttribute('aria-expanded')).toBe('true');
    expect(within(second).getByText('Initial release')).toBeTruthy();
  });

  test('a failed list shows an alert above the list and a closable "Error loading releases" toast for 9 s', async () => {
    jest.useFakeTimers();
    renderApp({ [via(source.releasesUrl)]: { status: 500, statusText: 'Internal Server Error' } });
    const alert = await screen.findByText('Could not load the firmware releases');
    expect(alert.closest('[role="alert"]')!.textContent).toContain(
      'Failed to fetch releases: 500 Internal Server Error',
    );
    expect(screen.getByText('Error loading releases')).toBeTruthy();
    act(() => {
      jest.advanceTimersByTime(8900);
    });
    expect(screen.queryByText('Error loading releases')).not.toBeNull();
    act(() => {
      jest.advanceTimersByTime(200);
    });
    expect(screen.queryByText('Error loading releases')).toBeNull();
  });

  test('toasts close with their close button', async () => {
    renderApp({ [via(source.releasesUrl)]: { status: 403, statusText: 'Forbidden' } });
    await userEvent.click(
      await screen.findByRole('button', { name: 'Close notification: Error loading releases' }),
    );
    expect(screen.queryByText('Error loading releases')).toBeNull();
  });
});

describe('download and extract', () => {
  test('Ready -> Downloading firmware... -> Downloading ZIP archive... (with bytes received) -> Extracting firmware files... -> Ready to flash!, then the install button with a blob manifest', async () => {
    jest.useFakeTimers({ advanceTimers: true });
    const zip = await firmwareZip();
    let releaseHeaders: () => void = () => {};
    const headersGate = new Promise<void>((r) => {
      releaseHeaders = r;
    });
    let releaseRest: () => void = () => {};
    const restGate = new Promise<void>((r) => {
      releaseRest = r;
    });
    const half = Math.floor(zip.length / 2);
    const table = fakeFetch({ [via(source.releasesUrl)]: { json: releases } });
    // The proxy answers once the test lets it; the zip then arrives as a stream: the first
    // half, then the rest once the test lets it.
    const gated: FetchLike = async (url, init) => {
      if (!url.includes('.zip')) return table(url, init);
      await headersGate;
      const body = new ReadableStream<Uint8Array>({
        async start(controller) {
          controller.enqueue(zip.slice(0, half));
          await restGate;
          controller.enqueue(zip.slice(half));
          controller.close();
        },
      });
      return {
        ok: true,
        status: 200,
        statusText: 'OK',
        headers: { get: (name: string) => (name === 'content-length' ? String(zip.length) : null) },
        body: body as unknown as globalThis.ReadableStream<Uint8Array>,
        json: async () => null,
        arrayBuffer: async () => zip.buffer as ArrayBuffer,
      };
    };
    const { urls } = renderApp({}, CHROME, gated);
    const download = await screen.findByRole('button', { name: 'Download firmware 2222222' });
    const statuses = recordStatuses();
    await userEvent.click(download);
    // Waiting for the proxy's answer.
    expect(await screen.findByText('Downloading firmware...')).toBeTruthy();
    expect(
      (screen.getByRole('button', { name: 'Downloading…' }) as HTMLButtonElement).disabled,
    ).toBe(true);
    releaseHeaders();
    expect(await screen.findByText('Downloading ZIP archive...')).toBeTruthy();
    expect(
      (screen.getByRole('button', { name: 'Downloading…' }) as HTMLButtonElement).disabled,
    ).toBe(true);
    const bar = await screen.findByRole('progressbar', { name: 'Download of firmware 2222222' });
    expect([bar.getAttribute('value'), bar.getAttribute('max')]).toEqual([
      String(half),
      String(zip.length),
    ]);
    expect(screen.getByText(`${formatBytes(half)} of ${formatBytes(zip.length)}`)).toBeTruthy();
    releaseRest();
    expect(await screen.findByText('Ready to flash!')).toBeTruthy();
    expect(statuses).toEqual([
      'Ready',
      'Downloading firmware...',
      'Downloading ZIP archive...',
      'Extracting firmware files...',
      'Ready to flash!',
    ]);
    expect(
      screen.getByText('Connect the ESP32-S3 over USB, then pick its serial port.'),
    ).toBeTruthy();
    expect(screen.queryByRole('button', { name: /Download firmware/ })).toBeNull();
    const install = document.querySelector('tributary-install-button')!;
    expect(
      install.getAttribute('manifest') ?? (install as unknown as { manifest: string }).manifest,
    ).toBe('blob:test/5');
    expect(urls.create).toHaveBeenCalledTimes(5);
    expect(screen.getByText('Firmware ready')).toBeTruthy();
    expect(screen.getByText('Firmware extracted and ready to flash to your device')).toBeTruthy();
    act(() => {
      jest.advanceTimersByTime(5100);
    });
    expect(screen.queryByText('Firmware ready')).toBeNull();
  });

  test('a failed download shows "Error: …" in the badge, a "Download failed" toast, and the button again', async () => {
    renderApp({
      [via(releases[1]!.assets[0]!.browser_download_url)]: { status: 404, statusText: 'Not Found' },
    });
    await userEvent.click(await screen.findByRole('button', { name: 'Download firmware 2222222' }));
    expect(
      await screen.findByText('Error: Failed to download firmware: 404 Not Found'),
    ).toBeTruthy();
    expect(screen.getByText('Download failed')).toBeTruthy();
    expect(
      (screen.getByRole('button', { name: 'Download firmware 2222222' }) as HTMLButtonElement)
        .disabled,
    ).toBe(false);
  });
});

describe('browser support', () => {
  test('other browsers get a warning and the flasher in a collapsed "Attempt Flash from Incompatible Browser" section', async () => {
    renderApp({}, FIREFOX);
    expect(screen.getByText('This browser cannot flash ESP32 boards')).toBeTruthy();
    expect(screen.getByText(/You are using Firefox/)).toBeTruthy();
    const summary = screen.getByText('Attempt Flash from Incompatible Browser');
    const details = summary.closest('details')!;
    expect(details.open).toBe(false);
    expect(within(details).getByRole('heading', { name: 'Firmware releases' })).toBeTruthy();
    expect(await within(details).findByText('Version 2222222')).toBeTruthy();
  });

  test.each([
    ['without Web Serial', { serial: () => undefined, secureContext: () => true }],
    ['outside a secure context', { serial: () => undefined, secureContext: () => false }],
  ])('%s the install button says why and the connect hint is not shown', async (_, host) => {
    const zip = await firmwareZip();
    renderApp(
      { [via(releases[1]!.assets[0]!.browser_download_url)]: { bytes: zip } },
      CHROME,
      undefined,
      host,
    );
    await userEvent.click(await screen.findByRole('button', { name: 'Download firmware 2222222' }));
    expect(await screen.findByText('Ready to flash!')).toBeTruthy();
    expect(document.querySelector('tributary-install-button')).not.toBeNull();
    expect(screen.queryByText(/Connect the ESP32-S3 over USB/)).toBeNull();
  });

  test('desktop Chrome gets neither', async () => {
    renderApp({});
    await waitFor(() => expect(rows()).toHaveLength(2));
    expect(screen.queryByText('This browser cannot flash ESP32 boards')).toBeNull();
    expect(screen.queryByText('Attempt Flash from Incompatible Browser')).toBeNull();
  });
});
