// The four files of a Tributary ESP32-S3 build and where they go in the 4 MB flash.

export const FIRMWARE_FILES = [
  { name: 'bootloader.bin', offset: 0x0 },
  { name: 'partition-table.bin', offset: 0x8000 },
  { name: 'ota_data_initial.bin', offset: 0x9000 },
  { name: 'esp32-rtp.bin', offset: 0x10000 },
] as const;

export type FirmwareFileName = (typeof FIRMWARE_FILES)[number]['name'];

export type FirmwareImages = Record<FirmwareFileName, Uint8Array>;

export const FIRMWARE_CHIP_FAMILY = 'ESP32-S3';
export const FIRMWARE_FLASH = { flashMode: 'dio', flashFreq: '80m', flashSize: '4MB' } as const;
