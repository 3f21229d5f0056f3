// Getting a release's firmware into the page: pick its zip asset, download it through the release
// proxy, and take the four files out of it wherever they sit in the archive.

import { type FetchLike, type FetchResponse, proxiedUrl } from '../releases/config';
import type { FirmwareRelease, ReleaseAsset } from '../releases/releases';
import { FIRMWARE_FILES, type FirmwareImages } from './firmware-files';

export class FirmwareDownloadError extends Error {
  override name = 'FirmwareDownloadError';
}

/** The stages the status badge shows, in order. */
export type DownloadStage = 'downloading-firmware' | 'downloading-zip' | 'extracting';

/**
 * The release's zip named for its unified or its firmware build: a ".zip" asset whose name
 * contains "unified" or "firmware" and the release's version. The unified build is preferred.
 */
export function chooseFirmwareAsset(release: FirmwareRelease): ReleaseAsset | null {
  const version = release.version.toLowerCase();
  const zips = release.assets.filter((a) => {
    const name = a.name.toLowerCase();
    return name.endsWith('.zip') && name.includes(version);
  });
  const named = (kind: string) => zips.find((a) => a.name.toLowerCase().includes(kind));
  return named('unified') ?? named('firmware') ?? null;
}

/** Finds each required file by name anywhere in the archive (the shallowest copy wins). */
export async function extractFirmware(zipBytes: Uint8Array): Promise<FirmwareImages> {
  const { default: JSZip } = await import('jszip');
  let zip: InstanceType<typeof JSZip>;
  try {
    zip = await JSZip.loadAsync(zipBytes);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new FirmwareDownloadError(`The downloaded file is not a valid ZIP archive (${reason})`);
  }
  const entries = Object.values(zip.files)
    .filter((entry) => !entry.dir)
    .sort((a, b) => a.name.split('/').length - b.name.split('/').length);
  const images = {} as FirmwareImages;
  for (const { name } of FIRMWARE_FILES) {
    const entry = entries.find((e) => e.name === name || e.name.endsWith(`/${name}`));
    let data: Uint8Array | null = null;
    try {
      data = entry ? await entry.async('uint8array') : null;
    } catch {
      data = null;
    }
    if (!data || data.length === 0)
      throw new FirmwareDownloadError(`Failed to extract ${name} from ZIP archive`);
    images[name] = data;
  }
  return images;
}

/** Reads a response body, reporting progress when it arrives as a stream. */
export async function readBody(
  response: FetchResponse,
  onProgress?: (received: number, total: number | null) => void,
): Promise<Uint8Array> {
  const length = Number(response.headers?.get('content-length'));
  const total = Number.isFinite(length) && length > 0 ? length : null;
  if (!response.body || !onProgress) return new Uint8Array(await response.arrayBuffer());
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let received = 0;
  onProgress(0, total);
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    chunks.push(value);
    received += value.length;
    onProgress(received, total);
  }
  const bytes = new Uint8Array(received);
  let at = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, at);
    at += chunk.length;
  }
  return bytes;
}

export interface DownloadOptions {
  proxy: string;
  fetch: FetchLike;
  /**
   * Called as each stage starts; the download waits for a returned promise, so a page can let
   * every status show before the next replaces it.
   */
  onStage?: (stage: DownloadStage) => void | Promise<void>;
  /** Bytes of the zip received so far, and its size when the answer says it. */
  onProgress?: (received: number, total: number | null) => void;
  signal?: AbortSignal;
}

/**
 * The spec's statuses, each for real work: "Downloading firmware..." while the release proxy is
 * asked for the zip (until its answer starts), "Downloading ZIP archive..." while the zip's bytes
 * arrive, "Extracting firmware files..." while the four files come out of it.
 */
export async function downloadFirmware(
  release: FirmwareRelease,
  options: DownloadOptions,
): Promise<FirmwareImages> {
  await options.onStage?.('downloading-firmware');
  const asset = chooseFirmwareAsset(release);
  if (!asset) throw new FirmwareDownloadError('Firmware asset not found in release');
  // jszip's chunk loads while the proxy answers, instead of after the download.
  import('jszip').catch(() => {});
  let response: Awaited<ReturnType<FetchLike>>;
  try {
    response = await options.fetch(proxiedUrl(options.proxy, asset.browser_download_url), {
      signal: options.signal,
    });
  } catch (error) {
    if (options.signal?.aborted) throw error;
    const reason = error instanceof Error ? error.message : String(error);
    throw new FirmwareDownloadError(`Failed to download firmware: ${reason}`);
  }
  if (!response.ok) {
    throw new FirmwareDownloadError(
      `Failed to download firmware: ${response.status} ${response.statusText}`,
    );
  }
  await options.onStage?.('downloading-zip');
  const bytes = await readBody(response, options.onProgress);
  await options.onStage?.('extracting');
  return extractFirmware(bytes);
}
