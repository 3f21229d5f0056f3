// The firmware manifest the install button reads (the esp-web-tools shape): a name, a version and
// one build per chip family, each a list of parts (file URL + flash offset). The flasher page
// builds one in the browser from the extracted files, with blob: URLs.

export type FlashMode = 'qio' | 'qout' | 'dio' | 'dout';
export type FlashFreq = '80m' | '40m' | '26m' | '20m';
export type FlashSize = '1MB' | '2MB' | '4MB' | '8MB' | '16MB';

export interface ManifestPart {
  path: string;
  offset: number;
  /** File name to show (blob: URLs have none). */
  name?: string;
}

export interface ManifestBuild {
  chipFamily: string;
  flashMode?: FlashMode;
  flashFreq?: FlashFreq;
  flashSize?: FlashSize;
  parts: ManifestPart[];
}

export interface FirmwareManifest {
  name: string;
  version?: string;
  /** Offer "erase the whole flash first" ticked (defaults to false). */
  new_install_prompt_erase?: boolean;
  builds: ManifestBuild[];
}

/** Settings that take precedence over the manifest's (install button `overrides`). */
export interface InstallOverrides {
  /** Baud rate after the stub loader starts (default 921600). */
  baudRate?: number;
  /** Erase the whole flash before writing, without asking. */
  eraseFirst?: boolean;
  flashMode?: FlashMode;
  flashFreq?: FlashFreq;
  flashSize?: FlashSize;
}

export class ManifestError extends Error {
  override name = 'ManifestError';
}

const FLASH_MODES = new Set(['qio', 'qout', 'dio', 'dout']);
const FLASH_FREQS = new Set(['80m', '40m', '26m', '20m']);
const FLASH_SIZES = new Set(['1MB', '2MB', '4MB', '8MB', '16MB']);

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function checkOption(value: unknown, allowed: Set<string>, field: string): void {
  if (value !== undefined && !(typeof value === 'string' && allowed.has(value))) {
    throw new ManifestError(
      `Invalid firmware manifest: ${field} must be one of ${[...allowed].join(', ')}`,
    );
  }
}

/** Validates a parsed manifest, naming the first field that is wrong. */
export function parseManifest(value: unknown): FirmwareManifest {
  if (!isRecord(value))
    throw new ManifestError('Invalid firmware manifest: expected a JSON object');
  if (typeof value.name !== 'string' || value.name === '') {
    throw new ManifestError('Invalid firmware manifest: name must be a non-empty string');
  }
  if (!Array.isArray(value.builds) || value.builds.length === 0) {
    throw new ManifestError('Invalid firmware manifest: builds must list at least one build');
  }
  value.builds.forEach((build, i) => {
    const at = `builds[${i}]`;
    if (!isRecord(build) || typeof build.chipFamily !== 'string') {
      throw new ManifestError(`Invalid firmware manifest: ${at}.chipFamily must be a string`);
    }
    checkOption(build.flashMode, FLASH_MODES, `${at}.flashMode`);
    checkOption(build.flashFreq, FLASH_FREQS, `${at}.flashFreq`);
    checkOption(build.flashSize, FLASH_SIZES, `${at}.flashSize`);
    if (!Array.isArray(build.parts) || build.parts.length === 0) {
      throw new ManifestError(`Invalid firmware manifest: ${at}.parts must list at least one part`);
    }
    build.parts.forEach((part, j) => {
      if (!isRecord(part) || typeof part.path !== 'string' || part.path === '') {
        throw new ManifestError(
          `Invalid firmware manifest: ${at}.parts[${j}].path must be a non-empty string`,
        );
      }
      if (!Number.isInteger(part.offset) || (part.offset as number) < 0) {
        throw new ManifestError(
          `Invalid firmware manifest: ${at}.parts[${j}].offset must be a non-negative integer`,
        );
      }
    });
  });
  return value as unknown as FirmwareManifest;
}

export async function fetchManifest(
  url: string,
  fetchImpl: typeof fetch = fetch,
): Promise<FirmwareManifest> {
  const response = await fetchImpl(url);
  if (!response.ok)
    throw new ManifestError(
      `Failed to load the firmware manifest: ${response.status} ${response.statusText}`,
    );
  let json: unknown;
  try {
    json = await response.json();
  } catch {
    throw new ManifestError('Invalid firmware manifest: not JSON');
  }
  return parseManifest(json);
}

/** A part's bytes, ready for the flasher. */
export interface FlashImage {
  name: string;
  address: number;
  data: Uint8Array;
}

function partName(path: string): string {
  if (path.startsWith('blob:')) return 'firmware part';
  const clean = path.split(/[?#]/)[0] ?? path;
  return decodeURIComponent(clean.slice(clean.lastIndexOf('/') + 1)) || path;
}

/** Downloads a build's parts; relative paths resolve against the manifest's URL. */
export async function fetchParts(
  build: ManifestBuild,
  manifestUrl: string,
  fetchImpl: typeof fetch = fetch,
): Promise<FlashImage[]> {
  return Promise.all(
    build.parts.map(async (part) => {
      const url = part.path.startsWith('blob:') ? part.path : new URL(part.path, manifestUrl).href;
      const response = await fetchImpl(url);
      if (!response.ok) {
        throw new ManifestError(
          `Failed to load ${partName(part.path)}: ${response.status} ${response.statusText}`,
        );
      }
      const data = new Uint8Array(await response.arrayBuffer());
      return { name: part.name ?? partName(part.path), address: part.offset, data };
    }),
  );
}
