// The serial loader protocol of ESP chips as the simulated bootloader (bootloader.ts) speaks it:
// command opcodes, the error bytes of the ROM and stub loaders, the SYNC exchange, and the
// commands only the stub loader knows.

/** Command opcodes (esptool's names). */
export const Op = {
  FLASH_BEGIN: 0x02,
  FLASH_DATA: 0x03,
  FLASH_END: 0x04,
  MEM_BEGIN: 0x05,
  MEM_END: 0x06,
  MEM_DATA: 0x07,
  SYNC: 0x08,
  WRITE_REG: 0x09,
  READ_REG: 0x0a,
  SPI_SET_PARAMS: 0x0b,
  SPI_ATTACH: 0x0d,
  CHANGE_BAUDRATE: 0x0f,
  FLASH_DEFL_BEGIN: 0x10,
  FLASH_DEFL_DATA: 0x11,
  FLASH_DEFL_END: 0x12,
  SPI_FLASH_MD5: 0x13,
  GET_SECURITY_INFO: 0x14,
  ERASE_FLASH: 0xd0,
  ERASE_REGION: 0xd1,
  READ_FLASH: 0xd2,
  RUN_USER_CODE: 0xd3,
} as const;

/** Error byte of a failed ROM loader answer. */
export const RomError = {
  INVALID_MESSAGE: 0x05,
  FAILED_TO_ACT: 0x06,
  INVALID_CRC: 0x07,
  DEFLATE: 0x0b,
};

/** Error byte of a failed stub loader answer. */
export const StubError = {
  BAD_DATA_LEN: 0xc0,
  BAD_DATA_CHECKSUM: 0xc1,
  BAD_BLOCKSIZE: 0xc2,
  FAILED_SPI_OP: 0xc4,
  NOT_IN_FLASH_MODE: 0xc6,
  INFLATE_ERROR: 0xc7,
  NOT_ENOUGH_DATA: 0xc8,
  TOO_MUCH_DATA: 0xc9,
  CMD_NOT_IMPLEMENTED: 0xff,
};

export const SYNC_PAYLOAD = [0x07, 0x07, 0x12, 0x20, ...new Array<number>(32).fill(0x55)];
export const ROM_SYNC_VALUE = 0x20120707;
export const STUB_ONLY_OPS: ReadonlySet<number> = new Set([
  Op.ERASE_FLASH,
  Op.ERASE_REGION,
  Op.READ_FLASH,
  Op.RUN_USER_CODE,
]);
