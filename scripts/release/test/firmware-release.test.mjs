// The firmware release zip, built from a stand-in ESP-IDF build folder (the toolchain is not
// installed here) whose partition table is made from the real firmware/partitions.csv, then
// opened by the web flasher's own code (site/flasher) exactly as a browser would.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { tsImport } from 'tsx/esm/api';
import { FIRMWARE_FILES, readPartitionTable } from '../firmware-release.mjs';

const root = fileURLToPath(new URL('../../..', import.meta.url));
const script = path.join(root, 'scripts/release/firmware-release.mjs');
const work = mkdtempSync(path.join(tmpdir(), 'tr-firmware-release-'));
after(() => rmSync(work, { recursive: true, force: true }));

const flasher = (file) => tsImport(path.join(root, 'site/flasher', file), import.meta.url);

/** firmware/partitions.csv as ESP-IDF's gen_esp32part.py would write it (entries, MD5, 0xFF). */
function partitionTable(csv) {
  const types = { app: 0, data: 1 };
  const subtypes = { factory: 0, ota_0: 0x10, ota_1: 0x11, ota: 0, phy: 1, nvs: 2 };
  const out = Buffer.alloc(0xc00, 0xff);
  let at = 0;
  for (const line of csv.split('\n')) {
    const fields = line
      .replace(/#.*/, '')
      .split(',')
      .map((f) => f.trim());
    if (fields.length < 5 || !fields[0]) continue;
    const [name, type, subtype, offset, size] = fields;
    out.set([0xaa, 0x50, types[type], subtypes[subtype]], at);
    out.writeUInt32LE(Number(offset), at + 4);
    out.writeUInt32LE(Number(size), at + 8);
    out.fill(0, at + 12, at + 28);
    out.write(name, at + 12, 'latin1');
    out.writeUInt32LE(0, at + 28);
    at += 32;
  }
  out.fill(0xeb, at, at + 16); // the MD5 entry's marker (its digest is not checked here)
  return out;
}

/** An image header: magic, segments, SPI mode, size/frequency, chip id; then an app description. */
function image({ chip = 9, mode = 2, sizeFreq = 0x2f, project = 'esp32-rtp', app = true } = {}) {
  const bytes = Buffer.alloc(4096);
  bytes.set([0xe9, 3, mode, sizeFreq], 0);
  bytes.writeUInt16LE(chip, 12);
  if (app) {
    bytes.writeUInt32LE(0xabcd5432, 32);
    bytes.write('1a2b3c4', 32 + 16, 'latin1');
    bytes.write(project, 32 + 48, 'latin1');
  }
  for (let i = 512; i < bytes.length; i++) bytes[i] = (i * 7) & 0xff; // some "code"
  return bytes;
}

/** A build folder as `idf.py build` leaves it, with overrides for the failure cases. */
function standInBuild(name, overrides = {}) {
  const dir = path.join(work, name);
  mkdirSync(path.join(dir, 'bootloader'), { recursive: true });
  mkdirSync(path.join(dir, 'partition_table'), { recursive: true });
  const csv = overrides.csv ?? readFileSync(path.join(root, 'firmware/partitions.csv'), 'utf8');
  const files = {
    'bootloader/bootloader.bin': overrides.bootloader ?? image({ app: false }),
    'partition_table/partition-table.bin': partitionTable(csv),
    'ota_data_initial.bin': Buffer.alloc(0x2000, 0xff),
    'esp32-rtp.bin': overrides.app ?? image({ mode: 2 }),
  };
  for (const [file, data] of Object.entries(files)) writeFileSync(path.join(dir, file), data);
  const flashFiles = overrides.flashFiles ?? {
    '0x0': 'bootloader/bootloader.bin',
    '0x10000': 'esp32-rtp.bin',
    '0x8000': 'partition_table/partition-table.bin',
    '0x9000': 'ota_data_initial.bin',
  };
  const args = {
    write_flash_args: ['--flash_mode', 'dio', '--flash_size', '4MB', '--flash_freq', '80m'],
    flash_settings: { flash_mode: 'dio', flash_size: '4MB', flash_freq: '80m', ...overrides.flash },
    flash_files: flashFiles,
    extra_esptool_args: {
      after: 'hard_reset',
      before: 'default_reset',
      stub: true,
      chip: 'esp32s3',
    },
  };
  writeFileSync(path.join(dir, 'flasher_args.json'), JSON.stringify(args, null, 4));
  return { dir, files };
}

function run(...args) {
  return spawnSync(process.execPath, [script, ...args], { encoding: 'utf8' });
}

test('firmware/partitions.csv puts otadata at 0x9000 and the app at 0x10000 within 4 MB', () => {
  const table = readPartitionTable(
    partitionTable(readFileSync(path.join(root, 'firmware/partitions.csv'), 'utf8')),
  );
  const otadata = table.find((e) => e.name === 'otadata');
  const apps = table.filter((e) => e.type === 0);
  assert.equal(otadata?.offset, 0x9000);
  assert.deepEqual(
    apps.map((a) => [a.name, a.offset]),
    [
      ['ota_0', 0x10000],
      ['ota_1', 0x1f0000],
    ],
  );
  for (const a of apps) assert.equal(a.offset % 0x10000, 0, `${a.name} is 64 KiB aligned`);
  const sorted = [...table].sort((a, b) => a.offset - b.offset);
  for (let i = 1; i < sorted.length; i++) {
    assert.ok(sorted[i - 1].offset + sorted[i - 1].size <= sorted[i].offset, 'no overlap');
  }
  const last = sorted.at(-1);
  assert.ok(last.offset + last.size <= 4 * 1024 * 1024);
});

test("the release zip holds the four images and the flasher's own code extracts them", async () => {
  const { dir, files } = standInBuild('good');
  const out = path.join(work, 'dist');
  const result = run('--build', dir, '--version', '1a2b3c4', '--out', out);
  assert.equal(result.status, 0, result.stderr);
  const zipPath = path.join(out, 'esp32s3-unified-1a2b3c4.zip');
  const zipBytes = readFileSync(zipPath);

  // The flasher picks this asset for version 1a2b3c4 (tag build-1a2b3c4…) and extracts it.
  const { chooseFirmwareAsset, extractFirmware } = await flasher('firmware/download.ts');
  const { toFirmwareReleases } = await flasher('releases/releases.ts');
  const [release] = toFirmwareReleases([
    {
      tag_name: 'build-1a2b3c4d5e6f7a8b9c0d1e2f3a4b5c6d7e8f9a0b',
      published_at: '2025-01-02T03:04:05Z',
      body: '',
      assets: [
        { name: 'esp32s3-unified-1a2b3c4.zip', browser_download_url: 'https://example/zip' },
        { name: 'sha256sums.txt', browser_download_url: 'https://example/sums' },
      ],
    },
  ]);
  assert.equal(chooseFirmwareAsset(release)?.name, 'esp32s3-unified-1a2b3c4.zip');
  const images = await extractFirmware(new Uint8Array(zipBytes));
  for (const { name, build } of FIRMWARE_FILES) {
    assert.ok(Buffer.from(images[name]).equals(files[build]), `${name} extracted intact`);
  }

  // An independent reader agrees (Python's zipfile, CRCs included).
  const check = spawnSync('python3', ['-m', 'zipfile', '-t', zipPath], { encoding: 'utf8' });
  assert.equal(check.status, 0, check.stderr || check.error?.message);
  const list = spawnSync('python3', ['-m', 'zipfile', '-l', zipPath], { encoding: 'utf8' });
  for (const { name } of FIRMWARE_FILES) assert.match(list.stdout, new RegExp(`^${name}\\s`, 'm'));

  // The same build gives the same bytes.
  assert.equal(run('--build', dir, '--version', '1a2b3c4', '--out', out).status, 0);
  assert.ok(readFileSync(zipPath).equals(zipBytes));
});

test('the release notes carry the compare link the flasher turns into its Changes line', async () => {
  const { dir } = standInBuild('notes');
  const notes = path.join(work, 'notes.md');
  const args = ['--build', dir, '--version', '5d6e7f8', '--out', path.join(work, 'dist-notes')];
  const withPrevious = run(
    ...args,
    '--notes',
    notes,
    '--repo',
    'tributary-audio/tributary',
    '--tag',
    'build-5d6e7f8aa',
    '--previous',
    'build-1a2b3c4bb',
  );
  assert.equal(withPrevious.status, 0, withPrevious.stderr);
  const { changesFromBody } = await flasher('releases/releases.ts');
  const body = readFileSync(notes, 'utf8');
  assert.match(body, /compare\/build-1a2b3c4bb\.\.\.build-5d6e7f8aa/);
  assert.equal(changesFromBody(body), 'Changes from 1a2b3c4 to 5d6e7f8');
  const first = run(...args, '--notes', notes, '--repo', 'o/r', '--tag', 'build-5d6e7f8aa');
  assert.equal(first.status, 0, first.stderr);
  assert.equal(changesFromBody(readFileSync(notes, 'utf8')), 'Initial release');
});

test('a build the flasher would write wrongly is refused with the reason', () => {
  const defaultLayout = {
    '0x0': 'bootloader/bootloader.bin',
    '0x10000': 'esp32-rtp.bin',
    '0x8000': 'partition_table/partition-table.bin',
    '0xd000': 'ota_data_initial.bin',
  };
  const cases = [
    [{ flashFiles: defaultLayout }, /nothing at 0x9000/],
    [{ flash: { flash_mode: 'qio' } }, /flash_mode qio, the flasher uses dio/],
    [{ bootloader: image({ chip: 0, app: false }) }, /chip id 0, not the ESP32-S3/],
    [{ bootloader: image({ sizeFreq: 0x1f, app: false }) }, /not built for DIO, 80 MHz, 4 MB/],
    [{ app: image({ project: 'hello_world' }) }, /project "hello_world", not esp32-rtp/],
    [
      {
        csv: 'nvs,data,nvs,0x9000,0x6000\notadata,data,ota,0xf000,0x2000\nota_0,app,ota_0,0x10000,0x100000',
      },
      /otadata at 0xf000/,
    ],
  ];
  cases.forEach(([overrides, message], i) => {
    const { dir } = standInBuild(`bad-${i}`, overrides);
    const result = run('--build', dir, '--version', '1a2b3c4', '--out', path.join(work, `x${i}`));
    assert.equal(result.status, 1, `case ${i}: ${result.stdout}`);
    assert.match(result.stderr, message);
  });
  const missing = run('--build', path.join(work, 'nowhere'), '--version', '1a2b3c4');
  assert.equal(missing.status, 1);
  assert.match(missing.stderr, /run idf.py build first/);
  const badVersion = run('--build', path.join(work, 'good'), '--version', 'v1.0');
  assert.equal(badVersion.status, 2);
  assert.match(badVersion.stderr, /7-character commit hash/);
});
