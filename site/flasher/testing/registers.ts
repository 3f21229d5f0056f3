// The 32-bit registers a host reaches with READ_REG / WRITE_REG: the chip-detect magic word, the
// eFuse words (MAC, revision), and enough of the SPI1 peripheral to run a user command such as
// RDID (0x9F), which esptool uses to read the flash's JEDEC id and so its size.

import { CHIP_DETECT_MAGIC_REG_ADDR, type ChipProfile } from './chip-profiles';
import type { SpiFlash } from './spi-flash';

const SPI_CMD_USR = 1 << 18;
const SPIFLASH_RDID = 0x9f;
const SPIFLASH_RDSR = 0x05;

export class RegisterFile {
  private readonly values = new Map<number, number>();

  constructor(
    private readonly chip: ChipProfile,
    private readonly flash: SpiFlash,
    initial: Record<number, number>,
  ) {
    for (const [address, value] of Object.entries({ ...chip.registers, ...initial })) {
      this.values.set(Number(address), value >>> 0);
    }
  }

  read(address: number): number {
    if (address === CHIP_DETECT_MAGIC_REG_ADDR) return this.chip.magic >>> 0;
    return this.values.get(address >>> 0) ?? 0;
  }

  write(address: number, value: number, mask = 0xffffffff): void {
    const addr = address >>> 0;
    const merged = ((this.read(addr) & ~mask) | (value & mask)) >>> 0;
    this.values.set(addr, merged);
    if (addr === this.chip.spiRegBase && (merged & SPI_CMD_USR) !== 0) this.runSpiUserCommand();
  }

  /** Executes the command in SPI_USR2's low byte, puts the answer in W0, clears SPI_CMD_USR. */
  private runSpiUserCommand(): void {
    const base = this.chip.spiRegBase;
    const command = this.read(base + this.chip.spiOffsets.usr2) & 0xff;
    const w0 = base + this.chip.spiOffsets.w0;
    if (command === SPIFLASH_RDID) this.values.set(w0, this.flash.jedecId);
    else if (command === SPIFLASH_RDSR) this.values.set(w0, 0);
    this.values.set(base, this.read(base) & ~SPI_CMD_USR);
  }
}
