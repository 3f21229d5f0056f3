// What a simulated chip answers when a host identifies it: the chip-detect magic register, the
// GET_SECURITY_INFO chip id (ESP32-S3 and later), the eFuse words holding its MAC address, and the
// ROM's boot banner. Values are the ones the real parts report.

export type ChipName = 'ESP32-S3' | 'ESP32-C3' | 'ESP32';

export interface ChipProfile {
  name: ChipName;
  /** Value of the register at CHIP_DETECT_MAGIC_REG_ADDR (0x40001000). */
  magic: number;
  /** GET_SECURITY_INFO chip id, or null where the ROM has no such command (ESP32). */
  securityInfoChipId: number | null;
  /** Address of the eFuse word with the low 32 bits of the factory MAC. */
  macEfuseAddress: number;
  /** Base address of the SPI peripheral that talks to the flash (SPI1). */
  spiRegBase: number;
  spiOffsets: { usr: number; usr1: number; usr2: number; w0: number };
  /** First line of the ROM boot banner. */
  romBanner: string;
  /** Extra registers the host may read (chip revision, package...). */
  registers: Record<number, number>;
}

export const CHIP_DETECT_MAGIC_REG_ADDR = 0x40001000;

export const CHIP_PROFILES: Record<ChipName, ChipProfile> = {
  'ESP32-S3': {
    name: 'ESP32-S3',
    magic: 0x9,
    securityInfoChipId: 9,
    macEfuseAddress: 0x60007044,
    spiRegBase: 0x60002000,
    spiOffsets: { usr: 0x18, usr1: 0x1c, usr2: 0x20, w0: 0x58 },
    romBanner: 'ESP-ROM:esp32s3-20210327',
    // eFuse BLOCK1 word 3, bits 18..20: wafer minor version 2 (major 0), so revision v0.2.
    registers: { 1610641488: 2 << 18 },
  },
  'ESP32-C3': {
    name: 'ESP32-C3',
    magic: 0x1b31506f,
    securityInfoChipId: 5,
    macEfuseAddress: 0x60008844,
    spiRegBase: 0x60002000,
    spiOffsets: { usr: 0x18, usr1: 0x1c, usr2: 0x20, w0: 0x58 },
    romBanner: 'ESP-ROM:esp32c3-api1-20210207',
    registers: {},
  },
  ESP32: {
    name: 'ESP32',
    magic: 0x00f01d83,
    securityInfoChipId: null,
    macEfuseAddress: 0x3ff5a004,
    spiRegBase: 0x3ff42000,
    spiOffsets: { usr: 0x1c, usr1: 0x20, usr2: 0x24, w0: 0x80 },
    romBanner: 'ets Jun  8 2016 00:22:57',
    registers: {},
  },
};

/** The two eFuse words esptool reads for the MAC, for a MAC given as six bytes. */
export function macRegisters(profile: ChipProfile, mac: readonly number[]): Record<number, number> {
  const [m0 = 0, m1 = 0, m2 = 0, m3 = 0, m4 = 0, m5 = 0] = mac;
  return {
    [profile.macEfuseAddress]: ((m2 << 24) | (m3 << 16) | (m4 << 8) | m5) >>> 0,
    [profile.macEfuseAddress + 4]: (m0 << 8) | m1,
  };
}
