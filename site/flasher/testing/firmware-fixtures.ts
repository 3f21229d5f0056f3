// Firmware files for tests, in the real formats: ESP-IDF app images (common + extended header,
// segments, checksum, optional SHA-256), a partition table with its MD5 entry, and OTA data. The
// simulated chip boots them; the data compresses about as well as real firmware does.

import { Md5 } from '../md5';

export interface FirmwareFiles {
  bootloader: Uint8Array;
  partitionTable: Uint8Array;
  otaData: Uint8Array;
  app: Uint8Array;
}

export interface ImageOptions {
  /** Byte 2 of the header: 0 QIO, 1 QOUT, 2 DIO, 3 DOUT. */
  flashMode: number;
  /** Byte 3: size in the high nibble (0x20 = 4 MB), frequency in the low one (0xF = 80 MHz). */
  flashSizeFreq: number;
  entry: number;
  chipId: number;
  segments: { address: number; data: Uint8Array }[];
  appendDigest: boolean;
}

/** An ESP32-family firmware image as esptool's elf2image writes it. */
export async function makeEspImage(options: ImageOptions): Promise<Uint8Array> {
  const segmentsLength = options.segments.reduce((n, s) => n + 8 + s.data.length, 0);
  const unpadded = 24 + segmentsLength + 1;
  const length = Math.ceil(unpadded / 16) * 16;
  const image = new Uint8Array(length + (options.appendDigest ? 32 : 0));
  const view = new DataView(image.buffer);
  image.set([0xe9, options.segments.length, options.flashMode, options.flashSizeFreq]);
  view.setUint32(4, options.entry, true);
  image[8] = 0xee; // WP pin: not used
  view.setUint16(12, options.chipId, true);
  image[23] = options.appendDigest ? 1 : 0;
  let at = 24;
  let checksum = 0xef;
  for (const segment of options.segments) {
    view.setUint32(at, segment.address, true);
    view.setUint32(at + 4, segment.data.length, true);
    image.set(segment.data, at + 8);
    for (const byte of segment.data) checksum ^= byte;
    at += 8 + segment.data.length;
  }
  image[length - 1] = checksum;
  if (options.appendDigest) {
    const digest = await crypto.subtle.digest('SHA-256', image.slice(0, length));
    image.set(new Uint8Array(digest), length);
  }
  return image;
}

export interface PartitionEntry {
  label: string;
  type: number;
  subtype: number;
  offset: number;
  size: number;
}

/** Tributary's 4 MB layout: OTA data at 0x9000 and the first app slot at 0x10000. */
export const TRIBUTARY_PARTITIONS: PartitionEntry[] = [
  { label: 'otadata', type: 1, subtype: 0x00, offset: 0x9000, size: 0x2000 },
  { label: 'nvs', type: 1, subtype: 0x02, offset: 0xb000, size: 0x4000 },
  { label: 'phy_init', type: 1, subtype: 0x01, offset: 0xf000, size: 0x1000 },
  { label: 'ota_0', type: 0, subtype: 0x10, offset: 0x10000, size: 0x1e0000 },
  { label: 'ota_1', type: 0, subtype: 0x11, offset: 0x1f0000, size: 0x1e0000 },
];

/** A binary partition table (0xC00 bytes) ending with the MD5 entry ESP-IDF checks. */
export function makePartitionTable(entries: PartitionEntry[] = TRIBUTARY_PARTITIONS): Uint8Array {
  const table = new Uint8Array(0xc00).fill(0xff);
  const view = new DataView(table.buffer);
  entries.forEach((entry, i) => {
    const at = i * 32;
    view.setUint16(at, 0x50aa, true);
    table[at + 2] = entry.type;
    table[at + 3] = entry.subtype;
    view.setUint32(at + 4, entry.offset, true);
    view.setUint32(at + 8, entry.size, true);
    table.fill(0, at + 12, at + 28);
    table.set(new TextEncoder().encode(entry.label.slice(0, 16)), at + 12);
    view.setUint32(at + 28, 0, true);
  });
  const md5At = entries.length * 32;
  table[md5At] = 0xeb;
  table[md5At + 1] = 0xeb;
  table.set(new Md5().update(table.subarray(0, md5At)).digest(), md5At + 16);
  return table;
}

/** Deterministic bytes that compress roughly like code and data: runs of words and noise. */
export function firmwareLikeBytes(length: number, seed = 1): Uint8Array {
  let state = seed >>> 0 || 1;
  const next = () => {
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    return state >>> 0;
  };
  const words = Array.from({ length: 64 }, () =>
    Uint8Array.from({ length: 4 + (next() % 12) }, () => next() & 0xff),
  );
  const out = new Uint8Array(length);
  let at = 0;
  while (at < length) {
    if (next() % 4 === 0) {
      const run = Math.min(length - at, 16 + (next() % 48));
      for (let i = 0; i < run; i++) out[at + i] = next() & 0xff;
      at += run;
    } else {
      const word = words[next() % words.length]!;
      out.set(word.subarray(0, Math.min(word.length, length - at)), at);
      at += word.length;
    }
  }
  return out;
}

/** The four files of a Tributary firmware build, with an app of about `appSize` bytes. */
export async function makeFirmwareFiles(appSize = 256 * 1024, seed = 7): Promise<FirmwareFiles> {
  const bootloader = await makeEspImage({
    flashMode: 2,
    flashSizeFreq: 0x2f,
    entry: 0x403c9954,
    chipId: 9,
    segments: [
      { address: 0x3fce3818, data: firmwareLikeBytes(0x1700, seed) },
      { address: 0x403c9700, data: firmwareLikeBytes(0x3200, seed + 1) },
    ],
    appendDigest: true,
  });
  const app = await makeEspImage({
    flashMode: 2,
    flashSizeFreq: 0x2f,
    entry: 0x40375a1c,
    chipId: 9,
    segments: [
      { address: 0x3c0a0020, data: firmwareLikeBytes(Math.floor(appSize * 0.3), seed + 2) },
      { address: 0x42000020, data: firmwareLikeBytes(Math.floor(appSize * 0.7) - 64, seed + 3) },
    ],
    appendDigest: true,
  });
  const otaData = new Uint8Array(0x2000).fill(0xff);
  return { bootloader, partitionTable: makePartitionTable(), otaData, app };
}
