// A simulated ESP32-S3 board as seen through its USB-UART bridge: the chip (ROM loader, stub
// loader, firmware), its 4 MB SPI flash, and the usual auto-reset circuit where DTR and RTS drive
// IO0 and EN. Resetting with IO0 low enters the ROM's download mode and prints the real boot
// banner; resetting with IO0 high boots whatever the flash holds.

import { Bootloader, type LoaderTiming } from './bootloader';
import { CHIP_PROFILES, type ChipName, type ChipProfile, macRegisters } from './chip-profiles';
import { describeFlashBoot } from './flash-boot';
import { RegisterFile } from './registers';
import { SlipDecoder, slipEncode } from './slip';
import { SpiFlash } from './spi-flash';
import { UartLink } from './uart-link';

export const ROM_BAUD = 115200;

export interface SimulatedDeviceOptions {
  chip?: ChipName;
  mac?: number[];
  flashSize?: number;
  /** RDID answer (default: Winbond W25Q32, 4 MB). */
  jedecId?: number;
  /** DTR/RTS wired to IO0/EN (default true). Without it the board never enters download mode. */
  autoReset?: boolean;
  /** Model transmission time from the baud rate (default true). */
  realTimeUart?: boolean;
  timing?: Partial<LoaderTiming>;
  /** The board is unplugged after receiving this many bytes of flash data. */
  unplugAfterFlashBytes?: number;
}

export type DeviceState = 'reset' | 'download' | 'stub' | 'firmware' | 'unplugged';

/** The side of the link the device talks to: the simulated serial port. */
export interface HostConnection {
  baud(): number | null;
  receive(bytes: Uint8Array): void;
  deviceLost(): void;
}

export interface BootRecord {
  mode: 'download' | 'flash';
  /** What the boot found (for flash boots): the app offset it loaded, or why it failed. */
  outcome: string;
}

export class SimulatedEsp32 {
  readonly chip: ChipProfile;
  readonly flash: SpiFlash;
  readonly mac: number[];
  state: DeviceState = 'firmware';
  /** The chip's UART baud rate. */
  baud = ROM_BAUD;
  /** Every boot since power-on, in order. */
  readonly boots: BootRecord[] = [];
  /** Every baud rate the chip's UART was set to, in order. */
  readonly baudHistory: number[] = [ROM_BAUD];
  /** Everything the chip printed as text (boot banners, firmware log). */
  console = '';
  flashBytesReceived = 0;

  /** The host-to-chip direction of the line; the serial port sends through it. */
  readonly toDevice: UartLink;
  private readonly registers: RegisterFile;
  private readonly toHost: UartLink;
  private readonly timing: LoaderTiming;
  private readonly decoder = new SlipDecoder();
  private loader: Bootloader | null = null;
  private host: HostConnection | null = null;
  private generation = 0;
  private work: Promise<void> = Promise.resolve();
  private signals = { dtr: false, rts: false };

  constructor(private readonly options: SimulatedDeviceOptions = {}) {
    this.chip = CHIP_PROFILES[options.chip ?? 'ESP32-S3'];
    this.flash = new SpiFlash(options.flashSize, options.jedecId);
    this.mac = options.mac ?? [0x7c, 0xdf, 0xa1, 0x3a, 0x51, 0x9e];
    this.registers = new RegisterFile(this.chip, this.flash, macRegisters(this.chip, this.mac));
    this.timing = { sectorEraseMs: 0, chipEraseMs: 0, ...options.timing };
    const realTime = options.realTimeUart ?? true;
    this.toHost = new UartLink(
      { baud: () => this.host?.baud() ?? null, receive: (b) => this.host?.receive(b) },
      { realTime },
    );
    this.toDevice = new UartLink(
      { baud: () => this.listeningBaud(), receive: (b) => this.receive(b) },
      { realTime },
    );
  }

  connectHost(host: HostConnection | null): void {
    this.host = host;
  }

  /** DTR/RTS from the host. EN is low while RTS is asserted alone; IO0 while DTR is asserted alone. */
  setSignals(signals: { dtr?: boolean; rts?: boolean }): void {
    if (this.state === 'unplugged') return;
    const wasInReset = this.state === 'reset';
    this.signals = { ...this.signals, ...signals };
    if (this.options.autoReset === false) return;
    const enLow = this.signals.rts && !this.signals.dtr;
    if (enLow && !wasInReset) this.holdInReset();
    else if (!enLow && wasInReset) this.boot(this.signals.dtr && !this.signals.rts);
  }

  /** Pulls the USB cable: the host sees the port vanish. */
  unplug(): void {
    if (this.state === 'unplugged') return;
    this.generation++;
    this.state = 'unplugged';
    this.loader = null;
    this.toHost.clear();
    this.toDevice.clear();
    this.host?.deviceLost();
  }

  readFlash(offset: number, length: number): Uint8Array {
    return this.flash.read(offset, length);
  }

  writeFlash(offset: number, data: Uint8Array): void {
    this.flash.eraseRange(offset, data.length);
    this.flash.program(offset, data);
  }

  private listeningBaud(): number | null {
    return this.state === 'download' || this.state === 'stub' ? this.baud : null;
  }

  private holdInReset(): void {
    this.generation++;
    this.state = 'reset';
    this.loader = null;
    this.decoder.reset();
  }

  private boot(downloadMode: boolean): void {
    const generation = ++this.generation;
    this.setBaud(ROM_BAUD);
    this.decoder.reset();
    const bootMode = downloadMode ? '0x0 (DOWNLOAD(USB/UART0))' : '0x8 (SPI_FAST_FLASH_BOOT)';
    this.print(
      `${this.chip.romBanner}\r\nBuild:Mar 27 2021\r\nrst:0x1 (POWERON),boot:${bootMode}\r\n`,
    );
    if (downloadMode) {
      this.state = 'download';
      this.loader = this.makeLoader(generation);
      this.boots.push({ mode: 'download', outcome: 'waiting for download' });
      this.print('waiting for download\r\n');
    } else {
      this.runFirmware();
    }
  }

  private runFirmware(): void {
    this.generation++;
    this.state = 'firmware';
    this.loader = null;
    const boot = describeFlashBoot(this.flash);
    this.boots.push({ mode: 'flash', outcome: boot.outcome });
    this.print(boot.log);
  }

  private makeLoader(generation: number): Bootloader {
    const current = () => generation === this.generation;
    return new Bootloader(
      this.chip,
      this.flash,
      this.registers,
      {
        send: (packet) => {
          if (current()) this.transmit(slipEncode(packet));
        },
        changeBaud: (baud) => {
          if (current()) this.setBaud(baud);
        },
        startStub: () => {
          if (!current()) return;
          this.loader!.enterStub();
          this.state = 'stub';
          this.transmit(slipEncode(new TextEncoder().encode('OHAI')));
        },
        leave: (action) => {
          if (!current()) return;
          if (action === 'run-user-code') this.runFirmware();
          else this.boot(this.signals.dtr && !this.signals.rts);
        },
        delay: (ms) =>
          ms > 0 ? new Promise((resolve) => setTimeout(resolve, ms)) : Promise.resolve(),
        acceptFlashData: (bytes) => {
          if (!current()) return false;
          this.flashBytesReceived += bytes;
          const limit = this.options.unplugAfterFlashBytes;
          if (limit !== undefined && this.flashBytesReceived > limit) {
            this.unplug();
            return false;
          }
          return true;
        },
      },
      this.timing,
    );
  }

  private receive(bytes: Uint8Array): void {
    const loader = this.loader;
    if (!loader) return;
    const generation = this.generation;
    for (const frame of this.decoder.push(bytes)) {
      // Commands are handled one at a time, in arrival order, like the loaders' main loop.
      this.work = this.work.then(async () => {
        if (generation === this.generation) await loader.handle(frame);
      });
    }
  }

  private setBaud(baud: number): void {
    if (baud === this.baud) return;
    // A new divider takes effect once the answer already queued has left the UART.
    this.baud = baud;
    this.baudHistory.push(baud);
  }

  private transmit(bytes: Uint8Array): void {
    this.toHost.send(bytes, this.baud);
  }

  private print(text: string): void {
    this.console += text;
    this.transmit(new TextEncoder().encode(text));
  }
}
