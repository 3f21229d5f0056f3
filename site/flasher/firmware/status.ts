// A release row's firmware status, from "Ready" to "Ready to flash!" or "Error: …", and the exact
// texts its badge shows.

import type { FirmwareImages } from './firmware-files';

export type FirmwareStatus =
  | { kind: 'ready' }
  | { kind: 'downloading-firmware' }
  | { kind: 'downloading-zip' }
  | { kind: 'extracting' }
  | { kind: 'ready-to-flash'; images: FirmwareImages }
  | { kind: 'error'; message: string };

export const READY: FirmwareStatus = { kind: 'ready' };

export function statusText(status: FirmwareStatus): string {
  switch (status.kind) {
    case 'ready':
      return 'Ready';
    case 'downloading-firmware':
      return 'Downloading firmware...';
    case 'downloading-zip':
      return 'Downloading ZIP archive...';
    case 'extracting':
      return 'Extracting firmware files...';
    case 'ready-to-flash':
      return 'Ready to flash!';
    case 'error':
      return `Error: ${status.message}`;
  }
}

/** A download is running: the download button is disabled meanwhile. */
export function isBusy(status: FirmwareStatus): boolean {
  return (
    status.kind === 'downloading-firmware' ||
    status.kind === 'downloading-zip' ||
    status.kind === 'extracting'
  );
}

/** The download button is hidden once the firmware is ready; the install button shows instead. */
export function showsInstall(status: FirmwareStatus): boolean {
  return status.kind === 'ready-to-flash';
}

export const TOAST_SUCCESS_MS = 5000;
export const TOAST_ERROR_MS = 9000;
