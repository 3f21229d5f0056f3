#!/usr/bin/env node
// Builds the release zip of the ESP32-S3 firmware from an ESP-IDF build folder, after checking
// that the build is what the web flasher writes: the four images at 0x0, 0x8000, 0x9000 and
// 0x10000, an ESP32-S3 app of this firmware, DIO at 80 MHz on 4 MB. Optionally writes the
// release notes with the compare link the flasher turns into "Changes from X to Y".
//
//   node scripts/release/firmware-release.mjs --build firmware/build --version 1a2b3c4 --out dist \
//     [--notes dist/notes.md --repo owner/name --tag build-<sha> --previous build-<sha>]
//
// Output: dist/esp32s3-unified-<version>.zip holding bootloader.bin, partition-table.bin,
// ota_data_initial.bin and esp32-rtp.bin (the names site/flasher/firmware/firmware-files.ts
// extracts). Exit code 1 with a message naming the problem when the build does not fit.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { crc32, deflateRawSync } from 'node:zlib';

/** What the flasher writes where (site/flasher/firmware/firmware-files.ts). */
export const FIRMWARE_FILES = [
  { name: 'bootloader.bin', offset: 0x0, build: 'bootloader/bootloader.bin' },
  { name: 'partition-table.bin', offset: 0x8000, build: 'partition_table/partition-table.bin' },
  { name: 'ota_data_initial.bin', offset: 0x9000, build: 'ota_data_initial.bin' },
  { name: 'esp32-rtp.bin', offset: 0x10000, build: 'esp32-rtp.bin' },
];
export const FLASH = { flash_mode: 'dio', flash_freq: '80m', flash_size: '4MB' };
const FLASH_BYTES = 4 * 1024 * 1024;
const CHIP_ID_ESP32S3 = 9;

export class ReleaseError extends Error {
  name = 'ReleaseError';
}

const hex = (n) => `0x${n.toString(16)}`;

/** Checks an ESP image header: magic, chip, and (for the bootloader) the flash settings. */
function checkImage(name, bytes, { flashSettings }) {
  if (bytes.length < 24 || bytes[0] !== 0xe9) {
    throw new ReleaseError(`${name} is not an ESP image (no 0xE9 magic byte)`);
  }
  const chip = bytes.readUInt16LE(12);
  if (chip !== CHIP_ID_ESP32S3) {
    throw new ReleaseError(`${name} is built for chip id ${chip}, not the ESP32-S3 (9)`);
  }
  if (flashSettings) {
    // Byte 2: SPI mode (2 = DIO); byte 3: size in the high nibble (2 = 4 MB), frequency in the
    // low one (0xF = 80 MHz).
    if (bytes[2] !== 2 || bytes[3] >> 4 !== 2 || (bytes[3] & 0xf) !== 0xf) {
      throw new ReleaseError(
        `${name} is not built for DIO, 80 MHz, 4 MB (header bytes ${hex(bytes[2])} ${hex(bytes[3])})`,
      );
    }
  }
}

/** The app image's project name (esp_app_desc_t after the image and segment headers). */
function appProject(bytes) {
  if (bytes.length < 32 + 80 || bytes.readUInt32LE(32) !== 0xabcd5432) {
    throw new ReleaseError('esp32-rtp.bin has no app description (not an app image)');
  }
  return bytes
    .subarray(32 + 48, 32 + 80)
    .toString('latin1')
    .replace(/\0.*$/s, '');
}

/** Reads a binary partition table into {name, type, subtype, offset, size} entries. */
export function readPartitionTable(bytes) {
  const entries = [];
  for (let at = 0; at + 32 <= bytes.length; at += 32) {
    if (bytes[at] !== 0xaa || bytes[at + 1] !== 0x50) break; // end (0xFF) or the MD5 entry
    entries.push({
      type: bytes[at + 2],
      subtype: bytes[at + 3],
      offset: bytes.readUInt32LE(at + 4),
      size: bytes.readUInt32LE(at + 8),
      name: bytes
        .subarray(at + 12, at + 28)
        .toString('latin1')
        .replace(/\0.*$/s, ''),
    });
  }
  return entries;
}

function checkPartitions(bytes) {
  const entries = readPartitionTable(bytes);
  const otadata = entries.find((e) => e.type === 1 && e.subtype === 0);
  const firstApp = entries.find((e) => e.type === 0 && e.offset === 0x10000);
  if (otadata?.offset !== 0x9000) {
    throw new ReleaseError(
      `partition-table.bin puts otadata at ${otadata ? hex(otadata.offset) : 'nowhere'}; the flasher writes ota_data_initial.bin at 0x9000`,
    );
  }
  if (!firstApp) {
    throw new ReleaseError('partition-table.bin has no app partition at 0x10000 (esp32-rtp.bin)');
  }
  const end = Math.max(...entries.map((e) => e.offset + e.size));
  if (end > FLASH_BYTES) {
    throw new ReleaseError(`partition-table.bin ends at ${hex(end)}, beyond 4 MB of flash`);
  }
  return entries;
}

/** Reads and checks the build folder; returns the four images by their release names. */
export function checkBuild(buildDir) {
  let args;
  try {
    args = JSON.parse(readFileSync(path.join(buildDir, 'flasher_args.json'), 'utf8'));
  } catch (error) {
    throw new ReleaseError(
      `cannot read ${path.join(buildDir, 'flasher_args.json')} (run idf.py build first): ${error.message}`,
    );
  }
  const settings = args.flash_settings ?? {};
  for (const [key, want] of Object.entries(FLASH)) {
    if (settings[key] !== want) {
      throw new ReleaseError(
        `flasher_args.json has ${key} ${settings[key]}, the flasher uses ${want}`,
      );
    }
  }
  const files = args.flash_files ?? {};
  const images = {};
  for (const file of FIRMWARE_FILES) {
    const listed = files[hex(file.offset)];
    if (listed !== file.build) {
      throw new ReleaseError(
        `flasher_args.json has ${listed ?? 'nothing'} at ${hex(file.offset)}; the flasher writes ${file.name} (${file.build}) there`,
      );
    }
    try {
      images[file.name] = readFileSync(path.join(buildDir, file.build));
    } catch (error) {
      throw new ReleaseError(`cannot read ${file.build}: ${error.message}`);
    }
  }
  const extra = Object.keys(files).filter((o) => !FIRMWARE_FILES.some((f) => hex(f.offset) === o));
  if (extra.length) {
    throw new ReleaseError(
      `flasher_args.json writes more than the flasher does: ${extra.join(', ')}`,
    );
  }
  checkImage('bootloader.bin', images['bootloader.bin'], { flashSettings: true });
  checkImage('esp32-rtp.bin', images['esp32-rtp.bin'], { flashSettings: false });
  const project = appProject(images['esp32-rtp.bin']);
  if (project !== 'esp32-rtp') {
    throw new ReleaseError(`esp32-rtp.bin is project "${project}", not esp32-rtp`);
  }
  checkPartitions(images['partition-table.bin']);
  const otaData = images['ota_data_initial.bin'];
  if (otaData.length !== 0x2000 || otaData.some((b) => b !== 0xff)) {
    throw new ReleaseError('ota_data_initial.bin is not 0x2000 bytes of 0xFF (a blank otadata)');
  }
  return images;
}

/** A zip archive (deflate, fixed 1980-01-01 timestamps so the same input gives the same zip). */
export function zip(entries) {
  const locals = [];
  const centrals = [];
  let offset = 0;
  for (const { name, data } of entries) {
    const nameBytes = Buffer.from(name, 'utf8');
    const packed = deflateRawSync(data, { level: 9 });
    const crc = crc32(data);
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4); // version needed
    local.writeUInt16LE(0x0800, 6); // UTF-8 names
    local.writeUInt16LE(8, 8); // deflate
    local.writeUInt16LE(0, 10); // time 00:00
    local.writeUInt16LE(0x21, 12); // date 1980-01-01
    local.writeUInt32LE(crc, 14);
    local.writeUInt32LE(packed.length, 18);
    local.writeUInt32LE(data.length, 22);
    local.writeUInt16LE(nameBytes.length, 26);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(0x0314, 4); // made by: Unix, 2.0
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE(0x0800, 8);
    central.writeUInt16LE(8, 10);
    central.writeUInt16LE(0, 12);
    central.writeUInt16LE(0x21, 14);
    central.writeUInt32LE(crc, 16);
    central.writeUInt32LE(packed.length, 20);
    central.writeUInt32LE(data.length, 24);
    central.writeUInt16LE(nameBytes.length, 28);
    central.writeUInt32LE(0o100644 * 0x10000, 38); // external attributes: -rw-r--r--
    central.writeUInt32LE(offset, 42);
    locals.push(local, nameBytes, packed);
    centrals.push(central, nameBytes);
    offset += local.length + nameBytes.length + packed.length;
  }
  const directory = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, directory, end]);
}

/** The zip's file name for a version: what the flasher's asset choice looks for. */
export function zipName(version) {
  return `esp32s3-unified-${version}.zip`;
}

/**
 * The release body. The flasher reads the compare link (…/compare/build-X...build-Y) and shows
 * "Changes from X to Y"; without a previous release it shows "Initial release".
 */
export function releaseNotes({ repo, tag, previous, version }) {
  const lines = [`ESP32-S3 firmware ${version}, built by the firmware workflow.`, ''];
  if (previous) {
    lines.push(`Changes: https://github.com/${repo}/compare/${previous}...${tag}`, '');
  }
  lines.push(
    `Flash it from the web flasher, or unpack ${zipName(version)} and run:`,
    '',
    '```sh',
    'esptool.py --chip esp32s3 write_flash --flash_mode dio --flash_freq 80m --flash_size 4MB \\',
    '  0x0 bootloader.bin 0x8000 partition-table.bin 0x9000 ota_data_initial.bin 0x10000 esp32-rtp.bin',
    '```',
    '',
    'Built in CI with ESP-IDF; not tested on hardware by the workflow.',
  );
  return `${lines.join('\n')}\n`;
}

function main() {
  const { values } = parseArgs({
    options: {
      build: { type: 'string' },
      version: { type: 'string' },
      out: { type: 'string', default: 'dist' },
      notes: { type: 'string' },
      repo: { type: 'string' },
      tag: { type: 'string' },
      previous: { type: 'string' },
    },
  });
  if (!values.build || !values.version) {
    console.error(
      'usage: firmware-release.mjs --build DIR --version VERSION [--out DIR] [--notes FILE --repo OWNER/NAME --tag TAG [--previous TAG]]',
    );
    process.exit(2);
  }
  if (!/^[0-9a-f]{7}$/.test(values.version)) {
    console.error(
      `--version must be a 7-character commit hash (the flasher shows the first 7 characters of the tag), not "${values.version}"`,
    );
    process.exit(2);
  }
  try {
    const images = checkBuild(values.build);
    mkdirSync(values.out, { recursive: true });
    const file = path.join(values.out, zipName(values.version));
    writeFileSync(file, zip(FIRMWARE_FILES.map(({ name }) => ({ name, data: images[name] }))));
    console.log(`wrote ${file}`);
    if (values.notes) {
      if (!values.repo || !values.tag) throw new ReleaseError('--notes needs --repo and --tag');
      writeFileSync(values.notes, releaseNotes({ ...values }));
      console.log(`wrote ${values.notes}`);
    }
  } catch (error) {
    if (!(error instanceof ReleaseError)) throw error;
    console.error(`firmware-release: ${error.message}`);
    process.exit(1);
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) main();
