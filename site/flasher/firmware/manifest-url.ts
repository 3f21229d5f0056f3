// The manifest the install button reads, built in the page from the extracted files: each file
// becomes a blob: URL, and so does the manifest itself. Nothing is uploaded anywhere.

import type { FirmwareManifest } from '../install/manifest';
import {
  FIRMWARE_CHIP_FAMILY,
  FIRMWARE_FILES,
  FIRMWARE_FLASH,
  type FirmwareImages,
} from './firmware-files';

export interface BlobUrls {
  create(blob: Blob): string;
  revoke(url: string): void;
}

export const browserBlobUrls: BlobUrls = {
  create: (blob) => URL.createObjectURL(blob),
  revoke: (url) => URL.revokeObjectURL(url),
};

export interface ManifestHandle {
  url: string;
  manifest: FirmwareManifest;
  /** Frees the blob URLs (when the row goes away or the firmware is downloaded again). */
  release(): void;
}

export function tributaryManifest(
  images: FirmwareImages,
  version: string,
  urls: BlobUrls = browserBlobUrls,
): ManifestHandle {
  const created: string[] = [];
  const blobUrl = (data: BlobPart, type: string) => {
    const url = urls.create(new Blob([data], { type }));
    created.push(url);
    return url;
  };
  const manifest: FirmwareManifest = {
    name: 'Tributary ESP32-S3 transceiver',
    version,
    new_install_prompt_erase: false,
    builds: [
      {
        chipFamily: FIRMWARE_CHIP_FAMILY,
        ...FIRMWARE_FLASH,
        parts: FIRMWARE_FILES.map(({ name, offset }) => ({
          path: blobUrl(images[name] as BlobPart, 'application/octet-stream'),
          offset,
          name,
        })),
      },
    ],
  };
  const url = blobUrl(JSON.stringify(manifest), 'application/json');
  return {
    url,
    manifest,
    release: () => {
      for (const u of created) urls.revoke(u);
    },
  };
}
