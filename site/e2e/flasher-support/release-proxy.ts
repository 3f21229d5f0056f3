// A stand-in for the third-party release proxy: a real HTTP server on 127.0.0.1 that answers
// "?url=<encoded target>" from fixture releases and zips made in the test, with CORS headers as a
// CORS proxy sends them. routeReleaseProxy() points a browser context's requests for the
// configured proxy (NEXT_PUBLIC_RELEASE_PROXY, as the site was built with) at it, so nothing
// leaves the machine.

import { createServer, STATUS_CODES } from 'node:http';
import type { AddressInfo } from 'node:net';
import JSZip from 'jszip';
import type { BrowserContext } from 'playwright-core';
import { FIRMWARE_FILES, type FirmwareImages } from '../../flasher/firmware/firmware-files';
import { releaseSource } from '../../flasher/releases/config';
import type { GitHubRelease } from '../../flasher/releases/releases';
import { type FirmwareFiles, makeFirmwareFiles } from '../../flasher/testing/firmware-fixtures';

export interface ProxyAnswer {
  status: number;
  statusText?: string;
  body?: Uint8Array | string;
  contentType?: string;
}

export interface ReleaseProxy {
  origin: string;
  /** Decoded target URLs requested, in order. */
  requests: string[];
  /** Answers by target URL; tests may add or replace entries. */
  answers: Map<string, ProxyAnswer>;
  close(): Promise<void>;
}

export async function startReleaseProxy(
  answers = new Map<string, ProxyAnswer>(),
): Promise<ReleaseProxy> {
  const requests: string[] = [];
  const server = createServer((request, response) => {
    const target = new URL(request.url ?? '/', 'http://proxy').searchParams.get('url') ?? '';
    requests.push(target);
    const answer = answers.get(target) ?? {
      status: 404,
      statusText: 'Not Found',
      body: 'Not Found',
    };
    const body = answer.body ?? '';
    response.writeHead(answer.status, answer.statusText ?? STATUS_CODES[answer.status] ?? '', {
      'access-control-allow-origin': '*',
      'content-type': answer.contentType ?? 'application/octet-stream',
      'content-length': String(Buffer.byteLength(body)),
    });
    response.end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    requests,
    answers,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Serves the context's requests to the configured release proxy from `proxy`. */
export async function routeReleaseProxy(
  context: BrowserContext,
  proxy: ReleaseProxy,
): Promise<void> {
  const template = releaseSource().proxy;
  const prefix = template.includes('{url}')
    ? template.slice(0, template.indexOf('{url}'))
    : template;
  await context.route(
    (url) => url.href.startsWith(prefix),
    async (route) => {
      const target = decodeURIComponent(route.request().url().slice(prefix.length));
      const response = await route.fetch({
        url: `${proxy.origin}/?url=${encodeURIComponent(target)}`,
      });
      await route.fulfill({ response });
    },
  );
}

export const RELEASES_URL = releaseSource().releasesUrl;
const REPO = 'https://github.com/tributary-audio/tributary';

export function assetUrl(tag: string, name: string): string {
  return `${REPO}/releases/download/${tag}/${name}`;
}

/** Fixture releases: three builds, the newest first once sorted (they are listed out of order). */
export function fixtureReleases(): GitHubRelease[] {
  const release = (sha: string, date: string, body: string): GitHubRelease => ({
    tag_name: `build-${sha}`,
    published_at: date,
    body,
    assets: [
      {
        name: `esp32-rtp-unified-${sha.slice(0, 7)}.zip`,
        browser_download_url: assetUrl(`build-${sha}`, `esp32-rtp-unified-${sha.slice(0, 7)}.zip`),
      },
    ],
  });
  return [
    release(
      '5e1f0c2a9b7d4e3f',
      '2025-04-02T10:00:00Z',
      `**Full Changelog**: ${REPO}/compare/build-0a4c3b1d2e...build-5e1f0c2a9b7d4e3f`,
    ),
    release('0a4c3b1d2e9f8a7b', '2025-01-15T09:30:00Z', 'First public build of the transceiver.'),
    release(
      '9d8e7f6a5b4c3d2e',
      '2025-06-20T16:45:00Z',
      `**Full Changelog**: ${REPO}/compare/build-5e1f0c2...build-9d8e7f6a5b4c3d2e`,
    ),
  ];
}

export async function firmwareZip(files: FirmwareFiles, folder = 'build/'): Promise<Uint8Array> {
  const zip = new JSZip();
  const images: FirmwareImages = {
    'bootloader.bin': files.bootloader,
    'partition-table.bin': files.partitionTable,
    'ota_data_initial.bin': files.otaData,
    'esp32-rtp.bin': files.app,
  };
  for (const { name } of FIRMWARE_FILES) zip.file(`${folder}${name}`, images[name]);
  zip.file('flasher_args.json', '{}');
  return zip.generateAsync({ type: 'uint8array', compression: 'DEFLATE' });
}

/** A proxy serving the fixture releases, each with a zip of `files`. */
export async function fixtureProxy(
  files?: FirmwareFiles,
): Promise<{ proxy: ReleaseProxy; files: FirmwareFiles; releases: GitHubRelease[] }> {
  const firmware = files ?? (await makeFirmwareFiles(256 * 1024));
  const releases = fixtureReleases();
  const zip = await firmwareZip(firmware);
  const answers = new Map<string, ProxyAnswer>([
    [
      RELEASES_URL,
      { status: 200, body: JSON.stringify(releases), contentType: 'application/json' },
    ],
  ]);
  for (const r of releases)
    answers.set(r.assets[0]!.browser_download_url, {
      status: 200,
      body: zip,
      contentType: 'application/zip',
    });
  return { proxy: await startReleaseProxy(answers), files: firmware, releases };
}
