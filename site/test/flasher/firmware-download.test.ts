import { ReadableStream } from 'node:stream/web';
import { describe, expect, test } from '@jest/globals';
import JSZip from 'jszip';
import {
  chooseFirmwareAsset,
  type DownloadStage,
  downloadFirmware,
  extractFirmware,
  readBody,
} from '@/flasher/firmware/download';
import { FIRMWARE_FILES } from '@/flasher/firmware/firmware-files';
import { type FirmwareStatus, isBusy, showsInstall, statusText } from '@/flasher/firmware/status';
import type { FirmwareRelease } from '@/flasher/releases/releases';
import { fakeFetch } from './fake-fetch';

const proxy = 'https://proxy.test/?url={url}';
const via = (url: string) => `https://proxy.test/?url=${encodeURIComponent(url)}`;

function release(assets: string[]): FirmwareRelease {
  return {
    tag: 'build-abc1234ffff',
    version: 'abc1234',
    publishedAt: new Date('2025-03-01T00:00:00Z'),
    changes: 'Initial release',
    assets: assets.map((name) => ({
      name,
      browser_download_url: `https://github.com/o/r/releases/download/build-abc1234ffff/${name}`,
    })),
  };
}

// jsdom has no TextEncoder.
const ascii = (text: string) => Uint8Array.from(text, (c) => c.charCodeAt(0));
const fileBytes = (i: number) =>
  Uint8Array.from({ length: 100 + i }, (_, j) => (j * (i + 3)) & 0xff);

async function zipOf(layout: Record<string, Uint8Array>): Promise<Uint8Array> {
  const zip = new JSZip();
  for (const [path, data] of Object.entries(layout)) zip.file(path, data);
  return zip.generateAsync({ type: 'uint8array' });
}

describe('firmware asset', () => {
  test('is the zip named for the unified build, else the firmware build, of this version', () => {
    expect(
      chooseFirmwareAsset(
        release(['esp32-rtp-firmware-abc1234.zip', 'esp32-rtp-unified-abc1234.zip']),
      )?.name,
    ).toBe('esp32-rtp-unified-abc1234.zip');
    expect(
      chooseFirmwareAsset(release(['notes.txt', 'Tributary-Firmware-ABC1234.ZIP']))?.name,
    ).toBe('Tributary-Firmware-ABC1234.ZIP');
    expect(
      chooseFirmwareAsset(
        release(['esp32-rtp-unified-0000000.zip', 'esp32-rtp-unified-abc1234.tar.gz']),
      ),
    ).toBeNull();
    expect(chooseFirmwareAsset(release(['sources-abc1234.zip']))).toBeNull();
  });
});

describe('extraction', () => {
  test('finds the four files wherever they sit, preferring the shallowest copy', async () => {
    const zip = await zipOf({
      'build/bootloader/bootloader.bin': fileBytes(0),
      'build/partition_table/partition-table.bin': fileBytes(1),
      'ota_data_initial.bin': fileBytes(2),
      'build/esp32-rtp.bin': fileBytes(3),
      'build/old/esp32-rtp.bin': fileBytes(9),
      'README.md': ascii('hello'),
    });
    const images = await extractFirmware(zip);
    for (const [i, { name }] of FIRMWARE_FILES.entries())
      expect(images[name]).toEqual(fileBytes(i));
  });

  test('names the first missing or empty file', async () => {
    const missing = await zipOf({
      'bootloader.bin': fileBytes(0),
      'partition-table.bin': fileBytes(1),
      'esp32-rtp.bin': fileBytes(3),
    });
    await expect(extractFirmware(missing)).rejects.toThrow(
      'Failed to extract ota_data_initial.bin from ZIP archive',
    );
    const empty = await zipOf({
      'bootloader.bin': new Uint8Array(0),
      'partition-table.bin': fileBytes(1),
      'ota_data_initial.bin': fileBytes(2),
      'esp32-rtp.bin': fileBytes(3),
    });
    await expect(extractFirmware(empty)).rejects.toThrow(
      'Failed to extract bootloader.bin from ZIP archive',
    );
    await expect(extractFirmware(ascii('<html>not a zip</html>'))).rejects.toThrow(
      /not a valid ZIP archive/,
    );
  });
});

describe('download', () => {
  const complete = () =>
    zipOf(Object.fromEntries(FIRMWARE_FILES.map(({ name }, i) => [`out/${name}`, fileBytes(i)])));

  test('goes through the proxy and reports each stage in order', async () => {
    const r = release(['esp32-rtp-unified-abc1234.zip']);
    const fetch = fakeFetch({
      [via(r.assets[0]!.browser_download_url)]: { bytes: await complete() },
    });
    const stages: DownloadStage[] = [];
    const images = await downloadFirmware(r, { proxy, fetch, onStage: (s) => void stages.push(s) });
    expect(stages).toEqual(['downloading-firmware', 'downloading-zip', 'extracting']);
    expect(fetch.calls).toEqual([via(r.assets[0]!.browser_download_url)]);
    expect(images['esp32-rtp.bin']).toEqual(fileBytes(3));
  });

  test('fails with the exact messages', async () => {
    await expect(
      downloadFirmware(release(['x.txt']), { proxy, fetch: fakeFetch({}) }),
    ).rejects.toThrow('Firmware asset not found in release');
    const r = release(['esp32-rtp-firmware-abc1234.zip']);
    const fetch = fakeFetch({
      [via(r.assets[0]!.browser_download_url)]: { status: 502, statusText: 'Bad Gateway' },
    });
    await expect(downloadFirmware(r, { proxy, fetch })).rejects.toThrow(
      'Failed to download firmware: 502 Bad Gateway',
    );
  });
});

describe('status badge', () => {
  test('shows the exact texts; busy while downloading; install only when ready to flash', () => {
    const images = Object.fromEntries(
      FIRMWARE_FILES.map(({ name }) => [name, new Uint8Array(1)]),
    ) as never;
    const flow: [FirmwareStatus, string, boolean, boolean][] = [
      [{ kind: 'ready' }, 'Ready', false, false],
      [{ kind: 'downloading-firmware' }, 'Downloading firmware...', true, false],
      [{ kind: 'downloading-zip' }, 'Downloading ZIP archive...', true, false],
      [{ kind: 'extracting' }, 'Extracting firmware files...', true, false],
      [{ kind: 'ready-to-flash', images }, 'Ready to flash!', false, true],
      [
        { kind: 'error', message: 'Firmware asset not found in release' },
        'Error: Firmware asset not found in release',
        false,
        false,
      ],
    ];
    for (const [status, text, busy, install] of flow) {
      expect([statusText(status), isBusy(status), showsInstall(status)]).toEqual([
        text,
        busy,
        install,
      ]);
    }
  });
});

describe('reading the zip', () => {
  test('reports bytes received against Content-Length while the body streams in', async () => {
    const parts = [new Uint8Array(300).fill(1), new Uint8Array(200).fill(2)];
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        for (const part of parts) controller.enqueue(part);
        controller.close();
      },
    });
    const seen: [number, number | null][] = [];
    const bytes = await readBody(
      {
        ok: true,
        status: 200,
        statusText: 'OK',
        headers: { get: (name) => (name === 'content-length' ? '500' : null) },
        body: body as unknown as globalThis.ReadableStream<Uint8Array>,
        json: async () => null,
        arrayBuffer: async () => new ArrayBuffer(0),
      },
      (received, total) => seen.push([received, total]),
    );
    expect(seen).toEqual([
      [0, 500],
      [300, 500],
      [500, 500],
    ]);
    expect(bytes).toEqual(Uint8Array.from([...parts[0]!, ...parts[1]!]));
  });

  test('without a stream or a length it still reads the whole body', async () => {
    const data = new Uint8Array([1, 2, 3]);
    const seen: unknown[] = [];
    const bytes = await readBody(
      {
        ok: true,
        status: 200,
        statusText: 'OK',
        json: async () => null,
        arrayBuffer: async () => data.buffer,
      },
      (...args) => seen.push(args),
    );
    expect(bytes).toEqual(data);
    expect(seen).toEqual([]);
  });
});
