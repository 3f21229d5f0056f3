// The serial bootloader of a simulated ESP chip: the ROM loader that runs after a reset into
// download mode, and the esptool "stub" loader a host uploads to RAM and starts with MEM_END.
// It receives decoded SLIP frames and answers exactly as the real loaders do (packet layout,
// status bytes: 4 from the ROM and 2 from the stub, error codes, MD5 as ASCII hex from the ROM
// and raw from the stub), so an unmodified esptool-js can flash it.

import { Inflate } from 'pako';
import { Md5, toHex } from '../md5';
import type { ChipProfile } from './chip-profiles';
import {
  Op,
  ROM_SYNC_VALUE,
  RomError,
  STUB_ONLY_OPS,
  StubError,
  SYNC_PAYLOAD,
} from './loader-protocol';
import type { RegisterFile } from './registers';
import { SECTOR_SIZE, type SpiFlash } from './spi-flash';

export { Op, RomError, StubError } from './loader-protocol';

/** What the loader asks of the device around it. */
export interface LoaderIo {
  /** Sends one packet (the device SLIP-encodes it). */
  send(packet: Uint8Array): void;
  changeBaud(baud: number): void;
  /** MEM_END jumped to uploaded code: the stub takes over and says "OHAI". */
  startStub(): void;
  /** FLASH_END / RUN_USER_CODE: leave the loader. */
  leave(action: 'reboot' | 'run-user-code'): void;
  delay(ms: number): Promise<void>;
  /** Called with each block of flash data before it is written; false = the device has gone. */
  acceptFlashData(bytes: number): boolean;
}

export interface LoaderTiming {
  /** Time to erase one 4 KB sector. */
  sectorEraseMs: number;
  /** Time to erase the whole chip (ERASE_FLASH). */
  chipEraseMs: number;
}

interface Download {
  kind: 'flash' | 'deflate' | 'mem';
  offset: number;
  /** Bytes to write: exact for the stub, rounded to erase blocks by the ROM. */
  size: number;
  blocks: number;
  blockSize: number;
  nextSeq: number;
  written: number;
  inflate?: Inflate;
  /** Set when the deflate stream has ended (pako reports the end with status 0). */
  inflateEnded?: boolean;
  error?: number;
}

interface ReadBack {
  offset: number;
  length: number;
  packetSize: number;
  maxUnacked: number;
  sent: number;
  acked: number;
  md5: Md5;
}

export class Bootloader {
  mode: 'rom' | 'stub' = 'rom';
  private flashAttached = false;
  private download: Download | null = null;
  private readonly ram: { start: number; data: Uint8Array }[] = [];
  private readBack: ReadBack | null = null;
  /**
   * The ROM's answers carry the value of its last READ_REG in their value field (a real
   * ESP32-S3 answered MEM_BEGIN so: recorded-session.spec.ts); the stub's carry 0.
   */
  private romValue = 0;

  constructor(
    private readonly chip: ChipProfile,
    private readonly flash: SpiFlash,
    private readonly registers: RegisterFile,
    private readonly io: LoaderIo,
    private readonly timing: LoaderTiming,
  ) {}

  /** The stub attaches the SPI flash itself when it starts; the ROM waits for SPI_ATTACH. */
  enterStub(): void {
    this.mode = 'stub';
    this.flashAttached = true;
    this.download = null;
  }

  async handle(frame: Uint8Array): Promise<void> {
    if (this.readBack) {
      this.acknowledgeReadBack(frame);
      return;
    }
    if (frame.length < 8 || frame[0] !== 0x00) return; // not a command: ignored
    const view = new DataView(frame.buffer, frame.byteOffset, frame.byteLength);
    const op = frame[1]!;
    const size = view.getUint16(2, true);
    const checksum = view.getUint32(4, true);
    const data = frame.subarray(8);
    if (data.length !== size) {
      this.fail(op, this.mode === 'rom' ? RomError.INVALID_MESSAGE : StubError.BAD_DATA_LEN);
      return;
    }
    await this.dispatch(op, data, checksum);
  }

  private async dispatch(op: number, data: Uint8Array, checksum: number): Promise<void> {
    const words = (count: number) => readWords(data, count);
    if (this.mode === 'rom' && STUB_ONLY_OPS.has(op)) {
      this.rejectUnknown(op);
      return;
    }
    switch (op) {
      case Op.SYNC:
        return this.sync(data);
      case Op.READ_REG: {
        const [address] = words(1);
        const value = this.registers.read(address!);
        if (this.mode === 'rom') this.romValue = value;
        return this.ok(op, new Uint8Array(0), value);
      }
      case Op.WRITE_REG: {
        for (let i = 0; i + 16 <= data.length; i += 16) {
          const [address, value, mask, delayUs] = readWords(data.subarray(i), 4);
          this.registers.write(address!, value!, mask!);
          if (delayUs) await this.io.delay(delayUs / 1000);
        }
        return this.ok(op);
      }
      case Op.SPI_ATTACH:
        this.flashAttached = true;
        return this.ok(op);
      case Op.SPI_SET_PARAMS:
        return this.ok(op);
      case Op.CHANGE_BAUDRATE: {
        const [baud] = words(1);
        this.ok(op);
        this.io.changeBaud(baud!);
        return;
      }
      case Op.GET_SECURITY_INFO:
        return this.securityInfo(op);
      case Op.MEM_BEGIN:
      case Op.FLASH_BEGIN:
      case Op.FLASH_DEFL_BEGIN:
        return this.begin(op, data);
      case Op.MEM_DATA:
      case Op.FLASH_DATA:
      case Op.FLASH_DEFL_DATA:
        return this.block(op, data, checksum);
      case Op.MEM_END:
        return this.memEnd(op, data);
      case Op.FLASH_END:
      case Op.FLASH_DEFL_END:
        return this.flashEnd(op, data);
      case Op.SPI_FLASH_MD5:
        return this.md5(op, data);
      case Op.ERASE_FLASH:
        await this.io.delay(this.timing.chipEraseMs);
        this.flash.eraseAll();
        return this.ok(op);
      case Op.ERASE_REGION: {
        const [offset, length] = words(2);
        if (offset! % SECTOR_SIZE || length! % SECTOR_SIZE)
          return this.fail(op, StubError.BAD_DATA_LEN);
        if (!this.flash.contains(offset!, length!)) return this.fail(op, StubError.FAILED_SPI_OP);
        await this.io.delay((length! / SECTOR_SIZE) * this.timing.sectorEraseMs);
        this.flash.eraseRange(offset!, length!);
        return this.ok(op);
      }
      case Op.READ_FLASH:
        return this.startReadBack(op, data);
      case Op.RUN_USER_CODE:
        this.io.leave('run-user-code');
        return;
      default:
        this.rejectUnknown(op);
    }
  }

  private sync(data: Uint8Array): void {
    if (data.length !== SYNC_PAYLOAD.length || data.some((b, i) => b !== SYNC_PAYLOAD[i])) return;
    // The ROM answers a SYNC eight times with a non-zero value; the stub once, with zero.
    const answers = this.mode === 'rom' ? 8 : 1;
    for (let i = 0; i < answers; i++) {
      this.ok(Op.SYNC, new Uint8Array(0), this.mode === 'rom' ? ROM_SYNC_VALUE : 0);
    }
  }

  private securityInfo(op: number): void {
    if (this.chip.securityInfoChipId === null) {
      this.rejectUnknown(op);
      return;
    }
    const info = new Uint8Array(20);
    const view = new DataView(info.buffer);
    view.setUint32(0, 0, true); // flags: no secure boot, no flash encryption
    view.setUint32(12, this.chip.securityInfoChipId, true);
    view.setUint32(16, 0, true); // ECO / API version
    this.ok(op, info);
  }

  private async begin(op: number, data: Uint8Array): Promise<void> {
    const [size, blocks, blockSize, offset] = readWords(data, 4) as [
      number,
      number,
      number,
      number,
    ];
    const kind = op === Op.MEM_BEGIN ? 'mem' : op === Op.FLASH_BEGIN ? 'flash' : 'deflate';
    if (kind !== 'mem') {
      // The ROM needs SPI_ATTACH first; the S3 ROM also takes a fifth word (encrypted: 0).
      if (!this.flashAttached) return this.fail(op, RomError.FAILED_TO_ACT);
      if (!this.flash.contains(offset, size)) {
        return this.fail(
          op,
          this.mode === 'rom' ? RomError.FAILED_TO_ACT : StubError.FAILED_SPI_OP,
        );
      }
      await this.io.delay(Math.ceil(size / SECTOR_SIZE) * this.timing.sectorEraseMs);
      this.flash.eraseRange(offset, size);
    }
    this.download = { kind, offset, size, blocks, blockSize, nextSeq: 0, written: 0 };
    if (kind === 'mem') this.ram.push({ start: offset, data: new Uint8Array(size) });
    if (kind === 'deflate') this.download.inflate = this.makeInflater(this.download);
    this.ok(op);
  }

  private makeInflater(download: Download): Inflate {
    const inflate = new Inflate();
    inflate.onData = (chunk: Uint8Array) => {
      if (download.error) return;
      if (download.written + chunk.length > download.size) {
        download.error = this.mode === 'rom' ? RomError.DEFLATE : StubError.TOO_MUCH_DATA;
        return;
      }
      this.flash.program(download.offset + download.written, chunk);
      download.written += chunk.length;
    };
    inflate.onEnd = (status: number) => {
      if (status === 0) download.inflateEnded = true;
      else if (status < 0 && !download.error)
        download.error = this.mode === 'rom' ? RomError.DEFLATE : StubError.INFLATE_ERROR;
    };
    return inflate;
  }

  private async block(op: number, data: Uint8Array, checksum: number): Promise<void> {
    const rom = this.mode === 'rom';
    const download = this.download;
    const expectedKind = op === Op.MEM_DATA ? 'mem' : op === Op.FLASH_DATA ? 'flash' : 'deflate';
    if (!download || download.kind !== expectedKind) {
      return this.fail(op, rom ? RomError.FAILED_TO_ACT : StubError.NOT_IN_FLASH_MODE);
    }
    const [length, seq] = readWords(data, 2) as [number, number];
    const payload = data.subarray(16);
    if (payload.length !== length)
      return this.fail(op, rom ? RomError.INVALID_MESSAGE : StubError.BAD_DATA_LEN);
    if (xorChecksum(payload) !== (checksum & 0xff)) {
      return this.fail(op, rom ? RomError.INVALID_CRC : StubError.BAD_DATA_CHECKSUM);
    }
    if (seq !== download.nextSeq)
      return this.fail(op, rom ? RomError.FAILED_TO_ACT : StubError.BAD_BLOCKSIZE);
    if (expectedKind !== 'mem' && !this.io.acceptFlashData(payload.length)) return;
    download.nextSeq++;
    if (expectedKind === 'mem') {
      const segment = this.ram[this.ram.length - 1]!;
      segment.data.set(
        payload.subarray(0, segment.data.length - download.written),
        download.written,
      );
      download.written += payload.length;
    } else if (expectedKind === 'flash') {
      // The stub writes exactly `size` bytes; the ROM writes whole (0xFF padded) blocks.
      const room = rom ? this.flash.size - download.offset : download.size;
      const part = payload.subarray(0, Math.max(0, room - download.written));
      this.flash.program(download.offset + download.written, part);
      download.written += part.length;
    } else {
      const accepted = download.inflate!.push(payload, false);
      if (!accepted && !download.error)
        download.error = rom ? RomError.DEFLATE : StubError.INFLATE_ERROR;
      if (download.error) return this.fail(op, download.error);
    }
    this.ok(op);
  }

  private memEnd(op: number, data: Uint8Array): void {
    const [noEntry, entry] = readWords(data, 2) as [number, number];
    this.download = null;
    this.ok(op);
    if (noEntry) return;
    const runsUploadedCode = this.ram.some(
      (s) => entry >= s.start && entry < s.start + s.data.length,
    );
    if (runsUploadedCode) this.io.startStub();
    else this.io.leave('reboot'); // jumping to memory that holds no code crashes and resets
  }

  private flashEnd(op: number, data: Uint8Array) {
    const [stay] = readWords(data, 1);
    const download = this.download;
    if (this.mode === 'stub') {
      if (!download || download.kind === 'mem') return this.fail(op, StubError.NOT_IN_FLASH_MODE);
      if (download.kind === 'deflate' && !download.inflateEnded)
        return this.fail(op, StubError.NOT_ENOUGH_DATA);
      if (download.written < download.size) return this.fail(op, StubError.NOT_ENOUGH_DATA);
    }
    this.download = null;
    this.ok(op);
    if (this.mode === 'stub') {
      if (!stay) this.io.leave('reboot');
    } else {
      this.io.leave(stay ? 'run-user-code' : 'reboot');
    }
  }

  private md5(op: number, data: Uint8Array) {
    const [offset, length] = readWords(data, 2) as [number, number];
    if (!this.flashAttached || !this.flash.contains(offset, length)) {
      return this.fail(op, this.mode === 'rom' ? RomError.FAILED_TO_ACT : StubError.FAILED_SPI_OP);
    }
    const digest = new Md5().update(this.flash.data.subarray(offset, offset + length)).digest();
    this.ok(op, this.mode === 'rom' ? new TextEncoder().encode(toHex(digest)) : digest);
  }

  private startReadBack(op: number, data: Uint8Array) {
    const [offset, length, packetSize, maxUnacked] = readWords(data, 4) as number[];
    if (!this.flash.contains(offset!, length!) || !packetSize)
      return this.fail(op, StubError.FAILED_SPI_OP);
    this.ok(op);
    this.readBack = {
      offset: offset!,
      length: length!,
      packetSize: packetSize!,
      maxUnacked: Math.max(1, maxUnacked || 1),
      sent: 0,
      acked: 0,
      md5: new Md5(),
    };
    this.pumpReadBack();
  }

  private pumpReadBack(): void {
    const rb = this.readBack!;
    while (rb.sent < rb.length && rb.sent - rb.acked < rb.maxUnacked * rb.packetSize) {
      const n = Math.min(rb.packetSize, rb.length - rb.sent);
      const chunk = this.flash.read(rb.offset + rb.sent, n);
      rb.md5.update(chunk);
      rb.sent += n;
      this.io.send(chunk);
    }
  }

  private acknowledgeReadBack(frame: Uint8Array): void {
    const rb = this.readBack!;
    if (frame.length !== 4) return;
    rb.acked = Math.max(rb.acked, readWords(frame, 1)[0]!);
    if (rb.acked >= rb.length) {
      this.readBack = null;
      this.io.send(rb.md5.digest());
      return;
    }
    this.pumpReadBack();
  }

  private rejectUnknown(op: number): void {
    if (this.mode === 'rom') {
      // The ROM's "invalid message" answer does not echo the command.
      this.io.send(this.packet(0x00, 0, new Uint8Array(0), RomError.INVALID_MESSAGE));
    } else {
      this.fail(op, StubError.CMD_NOT_IMPLEMENTED);
    }
  }

  private ok(
    op: number,
    body: Uint8Array = new Uint8Array(0),
    value = this.mode === 'rom' ? this.romValue : 0,
  ): void {
    this.io.send(this.packet(op, value, body, 0));
  }

  private fail(op: number, error: number): void {
    this.io.send(this.packet(op, 0, new Uint8Array(0), error));
  }

  private packet(op: number, value: number, body: Uint8Array, error: number): Uint8Array {
    const statusLength = this.mode === 'rom' ? 4 : 2;
    const out = new Uint8Array(8 + body.length + statusLength);
    const view = new DataView(out.buffer);
    out[0] = 0x01;
    out[1] = op;
    view.setUint16(2, body.length + statusLength, true);
    view.setUint32(4, value >>> 0, true);
    out.set(body, 8);
    out[8 + body.length] = error ? 1 : 0;
    out[9 + body.length] = error;
    return out;
  }
}

function readWords(data: Uint8Array, count: number): number[] {
  const view = new DataView(data.buffer, data.byteOffset, data.byteLength);
  const words: number[] = [];
  for (let i = 0; i < count; i++)
    words.push(i * 4 + 4 <= data.length ? view.getUint32(i * 4, true) : 0);
  return words;
}

function xorChecksum(data: Uint8Array): number {
  let state = 0xef;
  for (const byte of data) state ^= byte;
  return state;
}
