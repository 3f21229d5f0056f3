// What the simulated chip does when it boots from flash: check the second-stage bootloader's image
// header at 0x0, read the partition table at 0x8000 and find the app partition to load, and print
// the lines the ROM and the ESP-IDF bootloader print.

import type { SpiFlash } from './spi-flash';

export const PARTITION_TABLE_OFFSET = 0x8000;
const IMAGE_MAGIC = 0xe9;
const PARTITION_MAGIC = 0x50aa;
const FLASH_MODES = ['QIO', 'QOUT', 'DIO', 'DOUT'];

export interface AppPartition {
  label: string;
  subtype: number;
  offset: number;
  size: number;
}

/** App partitions (type 0) listed in the partition table, in table order. */
export function readAppPartitions(flash: SpiFlash): AppPartition[] {
  const table = flash.read(PARTITION_TABLE_OFFSET, 0xc00);
  const view = new DataView(table.buffer);
  const apps: AppPartition[] = [];
  for (let at = 0; at + 32 <= table.length; at += 32) {
    if (view.getUint16(at, true) !== PARTITION_MAGIC) break;
    if (table[at + 2] !== 0) continue;
    const label = new TextDecoder().decode(table.subarray(at + 12, at + 28)).replace(/\0.*$/s, '');
    apps.push({
      label,
      subtype: table[at + 3]!,
      offset: view.getUint32(at + 4, true),
      size: view.getUint32(at + 8, true),
    });
  }
  return apps;
}

export function describeFlashBoot(flash: SpiFlash): { outcome: string; log: string } {
  const header = flash.read(0, 4);
  if (header[0] !== IMAGE_MAGIC) {
    const word = new DataView(header.buffer).getUint32(0, true).toString(16).padStart(8, '0');
    return { outcome: 'invalid bootloader header', log: `invalid header: 0x${word}\r\n` };
  }
  let log = `SPIWP:0xee\r\nmode:${FLASH_MODES[header[2]!] ?? 'DIO'}, clock div:1\r\n`;
  log +=
    'load:0x3fce3818,len:0x16f8\r\nentry 0x403c9954\r\nI (27) boot: ESP-IDF 2nd stage bootloader\r\n';
  const apps = readAppPartitions(flash);
  const app = apps.find((p) => p.subtype === 0x00) ?? apps.find((p) => p.subtype === 0x10);
  if (!app) {
    return {
      outcome: 'no app partition',
      log: `${log}E (61) boot: No bootable app partitions in the partition table\r\n`,
    };
  }
  if (!flash.contains(app.offset, 1) || flash.read(app.offset, 1)[0] !== IMAGE_MAGIC) {
    const hex = app.offset.toString(16);
    return {
      outcome: `no app image at 0x${hex}`,
      log: `${log}E (92) esp_image: image at 0x${hex} has invalid magic byte\r\n`,
    };
  }
  log += `I (104) boot: Loaded app from partition at offset 0x${app.offset.toString(16)}\r\n`;
  return { outcome: `app at 0x${app.offset.toString(16)}`, log };
}
