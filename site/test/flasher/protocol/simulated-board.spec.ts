// The simulated board speaks the ROM and stub loader protocols byte for byte: checked here with
// raw packets, independently of esptool-js.

import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { describe, it } from 'node:test';
import { deflate } from 'pako';
import { Md5, md5Hex } from '../../../flasher/md5';
import { Op, RomError, StubError } from '../../../flasher/testing/bootloader';
import { makeFirmwareFiles } from '../../../flasher/testing/firmware-fixtures';
import { SimulatedEsp32 } from '../../../flasher/testing/simulated-device';
import { SlipDecoder, slipEncode } from '../../../flasher/testing/slip';
import { SpiFlash } from '../../../flasher/testing/spi-flash';
import { dataBlock, RawHost, sleep, words } from './raw-host';

const SYNC = Uint8Array.from([0x07, 0x07, 0x12, 0x20, ...new Array(32).fill(0x55)]);

async function downloadMode(options = {}): Promise<RawHost> {
  const host = new RawHost(options);
  await host.open();
  await host.resetIntoDownloadMode();
  return host;
}

/** Uploads a pretend stub to RAM and jumps to it, as esptool does. */
async function startStub(host: RawHost): Promise<void> {
  const code = new Uint8Array(64).fill(0x36);
  await host.command(Op.MEM_BEGIN, words(code.length, 1, 0x1800, 0x40380000));
  const block = dataBlock(0, code);
  await host.command(Op.MEM_DATA, block.payload, block.checksum);
  host.frames.length = 0;
  await host.command(Op.MEM_END, words(0, 0x40380004));
  const ohai = await host.nextFrame();
  assert.equal(new TextDecoder().decode(ohai), 'OHAI');
}

describe('SLIP framing', () => {
  it('escapes END and ESC and decodes back, ignoring noise between frames', () => {
    const packet = Uint8Array.from([1, 0xc0, 2, 0xdb, 3, 0xdb, 0xdc]);
    const encoded = slipEncode(packet);
    assert.deepEqual([...encoded], [0xc0, 1, 0xdb, 0xdc, 2, 0xdb, 0xdd, 3, 0xdb, 0xdd, 0xdc, 0xc0]);
    const decoder = new SlipDecoder();
    const noise = new TextEncoder().encode('boot:0x0\r\n');
    const frames = decoder.push(Uint8Array.from([...noise, ...encoded.subarray(0, 5)]));
    assert.equal(frames.length, 0);
    assert.deepEqual([...decoder.push(encoded.subarray(5))[0]!], [...packet]);
  });

  it('drops a frame with an invalid escape and recovers on the next one', () => {
    const decoder = new SlipDecoder();
    const frames = decoder.push(Uint8Array.from([0xc0, 1, 0xdb, 0x01, 2, 0xc0, 0xc0, 7, 0xc0]));
    assert.deepEqual(
      frames.map((f) => [...f]),
      [[7]],
    );
  });
});

describe('MD5', () => {
  it('matches node:crypto around block boundaries, whole and fed in pieces', () => {
    for (const size of [0, 1, 55, 56, 63, 64, 65, 119, 120, 4096, 100_003]) {
      const data = Uint8Array.from({ length: size }, (_, i) => (i * 31 + (i >> 7)) & 0xff);
      const expected = createHash('md5').update(data).digest('hex');
      assert.equal(md5Hex(data), expected, `size ${size}`);
      const md5 = new Md5();
      for (let i = 0; i < size; i += 13) md5.update(data.subarray(i, i + 13));
      assert.equal(Buffer.from(md5.digest()).toString('hex'), expected, `size ${size} in pieces`);
    }
  });
});

describe('SPI flash', () => {
  it('programs by clearing bits only, so unerased areas come out corrupted', () => {
    const flash = new SpiFlash(64 * 1024);
    flash.program(0x1000, Uint8Array.of(0xf0, 0x0f));
    flash.program(0x1000, Uint8Array.of(0x3c, 0x3c));
    assert.deepEqual([...flash.read(0x1000, 2)], [0x30, 0x0c]);
    flash.eraseRange(0x1001, 1);
    assert.deepEqual([...flash.read(0x1000, 2)], [0xff, 0xff], 'erase works on whole 4 KB sectors');
  });
});

describe('reset and boot', () => {
  it('enters download mode only when IO0 is low as EN rises, printing the ROM banner', async () => {
    const host = await downloadMode();
    assert.match(host.text, /ESP-ROM:esp32s3-20210327/);
    assert.match(host.text, /boot:0x0 \(DOWNLOAD\(USB\/UART0\)\)\r\nwaiting for download/);
    assert.equal(host.device.state, 'download');
    // EN pulse with IO0 high: boots from the (empty) flash instead.
    await host.port.setSignals({ dataTerminalReady: false, requestToSend: true });
    await host.port.setSignals({ requestToSend: false });
    await sleep(5);
    assert.equal(host.device.state, 'firmware');
    assert.match(host.text, /boot:0x8 \(SPI_FAST_FLASH_BOOT\)\r\ninvalid header: 0xffffffff/);
    await host.close();
  });

  it('ignores DTR/RTS on a board without the auto-reset circuit', async () => {
    const host = await downloadMode({ autoReset: false });
    assert.equal(host.device.state, 'firmware');
    assert.equal(host.text, '');
    await host.close();
  });

  it('boots the app partition named in the partition table', async () => {
    const device = new SimulatedEsp32({ realTimeUart: false });
    const files = await makeFirmwareFiles(32 * 1024);
    device.writeFlash(0x0, files.bootloader);
    device.writeFlash(0x8000, files.partitionTable);
    device.writeFlash(0x9000, files.otaData);
    device.writeFlash(0x10000, files.app);
    device.setSignals({ dtr: false, rts: true });
    device.setSignals({ rts: false });
    assert.deepEqual(device.boots.at(-1), { mode: 'flash', outcome: 'app at 0x10000' });
    assert.match(device.console, /mode:DIO, clock div:1/);
    assert.match(device.console, /Loaded app from partition at offset 0x10000/);
  });
});

describe('ROM loader', () => {
  it('answers SYNC eight times with a non-zero value and 4 status bytes', async () => {
    const host = await downloadMode();
    const first = await host.command(Op.SYNC, SYNC);
    assert.equal(first.op, Op.SYNC);
    assert.notEqual(first.value, 0);
    assert.equal(first.status, 0);
    await sleep(5);
    assert.equal(host.frames.length, 7);
    for (const frame of host.frames) assert.equal(new DataView(frame.buffer).getUint16(2, true), 4);
    await host.close();
  });

  it('identifies as an ESP32-S3 by magic register and by GET_SECURITY_INFO', async () => {
    const host = await downloadMode();
    assert.equal((await host.command(Op.READ_REG, words(0x40001000))).value, 0x9);
    const info = await host.command(Op.GET_SECURITY_INFO);
    assert.equal(info.body.length, 20);
    assert.equal(new DataView(info.body.buffer, info.body.byteOffset).getUint32(12, true), 9);
    await host.close();
  });

  it('refuses stub-only commands with "invalid message" and flash access before SPI_ATTACH', async () => {
    const host = await downloadMode();
    const erase = await host.command(Op.ERASE_FLASH);
    assert.deepEqual([erase.status, erase.error], [1, RomError.INVALID_MESSAGE]);
    const begin = await host.command(Op.FLASH_BEGIN, words(0x1000, 1, 0x400, 0x10000, 0));
    assert.deepEqual([begin.status, begin.error], [1, RomError.FAILED_TO_ACT]);
    await host.close();
  });

  it('writes flash and reports MD5 as 32 ASCII hex digits', async () => {
    const host = await downloadMode();
    await host.command(Op.SPI_ATTACH, words(0, 0));
    const data = Uint8Array.from({ length: 0x400 }, (_, i) => i & 0xff);
    assert.equal(
      (await host.command(Op.FLASH_BEGIN, words(0x1000, 1, 0x400, 0x20000, 0))).status,
      0,
    );
    const block = dataBlock(0, data);
    assert.equal((await host.command(Op.FLASH_DATA, block.payload, block.checksum)).status, 0);
    const md5 = await host.command(Op.SPI_FLASH_MD5, words(0x20000, data.length, 0, 0));
    assert.equal(new TextDecoder().decode(md5.body), md5Hex(data));
    assert.deepEqual(host.device.readFlash(0x20000, data.length), data);
    await host.close();
  });

  it('rejects a data block whose checksum does not match', async () => {
    const host = await downloadMode();
    await host.command(Op.SPI_ATTACH, words(0, 0));
    await host.command(Op.FLASH_BEGIN, words(0x1000, 1, 0x400, 0x20000, 0));
    const block = dataBlock(0, new Uint8Array(0x400).fill(7));
    const answer = await host.command(Op.FLASH_DATA, block.payload, block.checksum ^ 1);
    assert.deepEqual([answer.status, answer.error], [1, RomError.INVALID_CRC]);
    await host.close();
  });
});

describe('stub loader', () => {
  it('starts from uploaded RAM code with OHAI, then answers with 2 status bytes', async () => {
    const host = await downloadMode();
    await startStub(host);
    assert.equal(host.device.state, 'stub');
    const answer = await host.command(Op.READ_REG, words(0x40001000), 0, 2);
    assert.equal(answer.value, 9);
    assert.deepEqual([answer.status, answer.error], [0, 0]);
    await host.close();
  });

  it('inflates compressed data into flash and reports a raw 16-byte MD5', async () => {
    const host = await downloadMode();
    await startStub(host);
    const data = Uint8Array.from({ length: 40_000 }, (_, i) => (i % 251) ^ (i >> 9));
    const compressed = deflate(data, { level: 9 });
    const blockSize = 0x4000;
    const blocks = Math.ceil(compressed.length / blockSize);
    assert.equal(
      (
        await host.command(
          Op.FLASH_DEFL_BEGIN,
          words(data.length, blocks, blockSize, 0x30000),
          0,
          2,
        )
      ).status,
      0,
    );
    for (let seq = 0; seq < blocks; seq++) {
      const block = dataBlock(seq, compressed.subarray(seq * blockSize, (seq + 1) * blockSize));
      assert.equal(
        (await host.command(Op.FLASH_DEFL_DATA, block.payload, block.checksum, 2)).status,
        0,
      );
    }
    assert.equal((await host.command(Op.FLASH_DEFL_END, words(1), 0, 2)).status, 0);
    const md5 = await host.command(Op.SPI_FLASH_MD5, words(0x30000, data.length, 0, 0), 0, 2);
    assert.equal(Buffer.from(md5.body).toString('hex'), md5Hex(data));
    assert.deepEqual(host.device.readFlash(0x30000, data.length), data);
    await host.close();
  });

  it('reports an inflate error for corrupt data and "not enough data" for a short stream', async () => {
    const host = await downloadMode();
    await startStub(host);
    await host.command(Op.FLASH_DEFL_BEGIN, words(4096, 1, 0x4000, 0x30000), 0, 2);
    const garbage = dataBlock(0, Uint8Array.from([0x78, 0x9c, 0xff, 0xff, 0xff, 0xff]));
    const bad = await host.command(Op.FLASH_DEFL_DATA, garbage.payload, garbage.checksum, 2);
    assert.deepEqual([bad.status, bad.error], [1, StubError.INFLATE_ERROR]);

    const data = new Uint8Array(4096).fill(0x5a);
    const compressed = deflate(data);
    await host.command(Op.FLASH_DEFL_BEGIN, words(4096, 1, 0x4000, 0x30000), 0, 2);
    const half = dataBlock(0, compressed.subarray(0, compressed.length - 3));
    assert.equal(
      (await host.command(Op.FLASH_DEFL_DATA, half.payload, half.checksum, 2)).status,
      0,
    );
    const end = await host.command(Op.FLASH_DEFL_END, words(1), 0, 2);
    assert.deepEqual([end.status, end.error], [1, StubError.NOT_ENOUGH_DATA]);
    await host.close();
  });

  it('erases the whole chip on ERASE_FLASH', async () => {
    const host = await downloadMode();
    host.device.writeFlash(0x3f0000, new Uint8Array(16).fill(0x11));
    await startStub(host);
    assert.equal((await host.command(Op.ERASE_FLASH, new Uint8Array(0), 0, 2)).status, 0);
    assert.deepEqual([...host.device.readFlash(0x3f0000, 16)], new Array(16).fill(0xff));
    await host.close();
  });

  it('switches baud rate after answering CHANGE_BAUDRATE; the old rate then reads as noise', async () => {
    const host = await downloadMode();
    await startStub(host);
    assert.equal((await host.command(Op.CHANGE_BAUDRATE, words(921600, 115200), 0, 2)).status, 0);
    assert.deepEqual(host.device.baudHistory, [115200, 921600]);
    host.frames.length = 0;
    await host.send(Uint8Array.from([0, Op.READ_REG, 4, 0, 0, 0, 0, 0, ...words(0x40001000)]));
    await sleep(20);
    assert.equal(host.frames.length, 0, 'nothing understood at the old rate');
    await host.close();
    await host.open(921600);
    assert.equal((await host.command(Op.READ_REG, words(0x40001000), 0, 2)).value, 9);
    await host.close();
  });
});
