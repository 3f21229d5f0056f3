// Flashing a board over Web Serial with esptool-js: reset into the ROM bootloader, identify the
// chip, start the stub loader, raise the baud rate, optionally erase, write every image
// compressed and check its MD5, then reset into the new firmware and capture its first boot log.
// Whatever happens, the port ends closed and unlocked.

import type { ESPLoader, Transport } from 'esptool-js';
import { md5Hex } from '../md5';
import { closePort } from './close-port';
import { describeFlashFailure, FlashError } from './flash-errors';
import { FLASH_SIZE_BYTES, setFlashParams } from './image-header';
import type { FlashFreq, FlashImage, FlashMode, FlashSize } from './manifest';

export const ROM_BAUD = 115200;
export const DEFAULT_FLASH_BAUD = 921600;
const ESPRESSIF_VID = 0x303a;
const USB_SERIAL_JTAG_PID = 0x1001;

export type FlashStep = 'connect' | 'stub' | 'erase' | 'write' | 'reset';

export interface FlashProgress {
  step: FlashStep;
  /** The image being written (write step). */
  file?: { name: string; address: number; index: number; count: number };
  /** Uncompressed bytes of all images written so far, of bytesTotal. */
  bytesWritten: number;
  bytesTotal: number;
  percent: number;
}

export interface ChipInfo {
  name: string;
  description: string;
  mac: string;
}

export interface FlashBuild {
  chipFamily: string;
  images: FlashImage[];
  flashMode: FlashMode;
  flashFreq: FlashFreq;
  flashSize: FlashSize;
}

export interface FlashDeviceOptions {
  port: SerialPort;
  builds: FlashBuild[];
  erase: boolean;
  baudRate?: number;
  /** Reset-and-sync attempts before giving up on reaching the bootloader (default 7). */
  connectAttempts?: number;
  /** How long to listen to the board after the final reset (default 1500 ms). */
  bootLogMs?: number;
  onProgress?: (progress: FlashProgress) => void;
  onChip?: (chip: ChipInfo) => void;
  onLog?: (line: string) => void;
}

export interface FlashResult {
  chip: ChipInfo;
  /** Baud rate the images were written at. */
  baudRate: number;
  bytesWritten: number;
  writeMs: number;
  bootLog: string;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Closes the port, releasing stream locks left by a failed run first. */
export async function releasePort(port: SerialPort, transport?: Transport): Promise<void> {
  try {
    if (transport) await transport.disconnect();
  } catch {
    // fall through to a plain close
  }
  await closePort(port);
}

export async function flashDevice(options: FlashDeviceOptions): Promise<FlashResult> {
  const { port, onProgress, onLog } = options;
  const { ESPLoader, Transport } = await import('esptool-js');
  let lost = false;
  let onLost: () => void = () => {};
  const lostPromise = new Promise<never>((_, reject) => {
    onLost = () => {
      lost = true;
      reject(new FlashError('connection-lost'));
    };
  });
  lostPromise.catch(() => {});
  port.addEventListener('disconnect', onLost);
  // A half-written flash leaves the board unbootable: make the moment of loss the error.
  const guard = <T>(work: Promise<T>): Promise<T> => {
    work.catch(() => {});
    return Promise.race([work, lostPromise]);
  };

  // The install button hands over the port open at 115200; esptool-js opens it itself.
  await releasePort(port);
  const transport = new Transport(port, false);
  const flashBaud = options.baudRate ?? DEFAULT_FLASH_BAUD;
  let line = '';
  const loader = new ESPLoader({
    transport,
    baudrate: flashBaud,
    romBaudrate: ROM_BAUD,
    terminal: {
      clean: () => {},
      write: (text: string) => {
        line += text;
      },
      writeLine: (text: string) => {
        onLog?.(line + text);
        line = '';
      },
    },
  });
  const progress = (p: Omit<FlashProgress, 'percent'>) =>
    onProgress?.({
      ...p,
      percent: p.bytesTotal ? Math.floor((p.bytesWritten / p.bytesTotal) * 100) : 0,
    });

  try {
    progress({ step: 'connect', bytesWritten: 0, bytesTotal: 0 });
    await guard(loader.connect('default_reset', options.connectAttempts ?? 7, true));
    const chip = await guard(identify(loader));
    options.onChip?.(chip);
    const build = options.builds.find((b) => b.chipFamily === chip.name);
    if (!build)
      throw new FlashError('wrong-chip', {
        chip: chip.name,
        expected: options.builds.map((b) => b.chipFamily),
      });
    const images = await prepareImages(build);
    const bytesTotal = images.reduce((n, image) => n + image.data.length, 0);

    progress({ step: 'stub', bytesWritten: 0, bytesTotal });
    await guard(loader.runStub());
    if (flashBaud > ROM_BAUD && !usesUsbSerialJtag(transport)) await guard(loader.changeBaud());
    const baudRate = transport.baudrate;

    if (options.erase) {
      progress({ step: 'erase', bytesWritten: 0, bytesTotal });
      await guard(loader.eraseFlash());
    }

    const started = performance.now();
    const done = (index: number) =>
      images.slice(0, index).reduce((n, image) => n + image.data.length, 0);
    await guard(
      loader.writeFlash({
        fileArray: images.map((image) => ({ data: image.data, address: image.address })),
        // prepareImages() already set the bootloader's flash parameters.
        flashMode: 'keep',
        flashFreq: 'keep',
        flashSize: 'keep',
        eraseAll: false,
        compress: true,
        calculateMD5Hash: md5Hex,
        reportProgress: (index, written, total) => {
          const image = images[index]!;
          const share = total ? Math.floor((written / total) * image.data.length) : 0;
          progress({
            step: 'write',
            file: { name: image.name, address: image.address, index, count: images.length },
            bytesWritten: done(index) + share,
            bytesTotal,
          });
        },
      }),
    );
    const writeMs = performance.now() - started;

    progress({ step: 'reset', bytesWritten: bytesTotal, bytesTotal });
    await releasePort(port, transport);
    const bootLog = await resetIntoFirmware(port, options.bootLogMs ?? 1500);
    return { chip, baudRate, bytesWritten: bytesTotal, writeMs, bootLog };
  } catch (error) {
    throw error instanceof FlashError ? error : describeFlashFailure(error, lost);
  } finally {
    port.removeEventListener('disconnect', onLost);
    await releasePort(port, transport);
  }
}

/** Checks every image fits the flash and sets the flash parameters in the bootloader at 0x0. */
async function prepareImages(build: FlashBuild): Promise<FlashImage[]> {
  const flashBytes = FLASH_SIZE_BYTES[build.flashSize];
  return Promise.all(
    build.images.map(async (image) => {
      if (image.address + image.data.length > flashBytes) {
        throw new FlashError('failed', {
          cause: `${image.name} does not fit in the ${build.flashSize} flash at 0x${image.address.toString(16)}`,
        });
      }
      if (image.address !== 0) return image;
      return {
        ...image,
        data: await setFlashParams(image.data, build.flashMode, build.flashFreq, build.flashSize),
      };
    }),
  );
}

async function identify(loader: ESPLoader): Promise<ChipInfo> {
  const chip = loader.chip;
  return {
    name: chip.CHIP_NAME,
    description: await chip.getChipDescription(loader),
    mac: await chip.readMac(loader),
  };
}

function usesUsbSerialJtag(transport: Transport): boolean {
  return transport.getVid() === ESPRESSIF_VID && transport.getPid() === USB_SERIAL_JTAG_PID;
}

/**
 * Pulses EN (RTS) with IO0 (DTR) released so the chip boots from flash, and returns what it
 * prints at 115200 baud for `listenMs`. esptool-js 0.7's own hard reset only releases RTS,
 * which does not reset a board that is already running its loader.
 */
async function resetIntoFirmware(port: SerialPort, listenMs: number): Promise<string> {
  try {
    await port.open({ baudRate: ROM_BAUD });
  } catch {
    return '';
  }
  const reader = port.readable?.getReader();
  const chunks: Uint8Array[] = [];
  const reading = (async () => {
    try {
      for (;;) {
        const { value, done } = await reader!.read();
        if (done) break;
        if (value) chunks.push(value);
      }
    } catch {
      // the board went away; keep what arrived
    }
  })();
  try {
    await port.setSignals({ dataTerminalReady: false, requestToSend: true });
    await sleep(100);
    await port.setSignals({ dataTerminalReady: false, requestToSend: false });
    await sleep(listenMs);
  } catch {
    // the board went away
  }
  await reader?.cancel().catch(() => {});
  await reading;
  reader?.releaseLock();
  await releasePort(port);
  return new TextDecoder().decode(concat(chunks));
}

function concat(chunks: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(chunks.reduce((n, c) => n + c.length, 0));
  let at = 0;
  for (const chunk of chunks) {
    out.set(chunk, at);
    at += chunk.length;
  }
  return out;
}
