// A NOR SPI flash chip: erasing sets bytes to 0xFF, programming can only clear bits (it ANDs), so
// data written over an area that was not erased first comes out corrupted, as on the real part.

export const SECTOR_SIZE = 0x1000;

export class SpiFlash {
  readonly data: Uint8Array;

  /**
   * @param size bytes (4 MB for the boards Tributary targets)
   * @param jedecId the RDID answer as the SPI W0 register shows it: manufacturer in the low byte,
   *   then memory type, then capacity (0x16 = 4 MB). Default: a Winbond W25Q32.
   */
  constructor(
    readonly size = 4 * 1024 * 1024,
    readonly jedecId = 0x1640ef,
  ) {
    this.data = new Uint8Array(size).fill(0xff);
  }

  contains(offset: number, length: number): boolean {
    return offset >= 0 && length >= 0 && offset + length <= this.size;
  }

  /** Erases every sector touching [offset, offset + length). */
  eraseRange(offset: number, length: number): void {
    if (length === 0) return;
    const start = Math.floor(offset / SECTOR_SIZE) * SECTOR_SIZE;
    const end = Math.min(this.size, Math.ceil((offset + length) / SECTOR_SIZE) * SECTOR_SIZE);
    this.data.fill(0xff, start, end);
  }

  eraseAll(): void {
    this.data.fill(0xff);
  }

  program(offset: number, bytes: Uint8Array): void {
    if (!this.contains(offset, bytes.length)) {
      throw new RangeError(
        `write of ${bytes.length} bytes at 0x${offset.toString(16)} is outside the flash`,
      );
    }
    for (let i = 0; i < bytes.length; i++) this.data[offset + i]! &= bytes[i]!;
  }

  read(offset: number, length: number): Uint8Array {
    if (!this.contains(offset, length)) {
      throw new RangeError(
        `read of ${length} bytes at 0x${offset.toString(16)} is outside the flash`,
      );
    }
    return this.data.slice(offset, offset + length);
  }
}
