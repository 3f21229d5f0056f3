// The simulated ESP32-S3 against recordings of real ones: esptool's bytes, as its --trace option
// printed them talking to real boards (esptool-s3-session.ts says where each comes from), are
// written to the simulated port verbatim, and every packet the board answers must be the
// recorded one, byte for byte. The simulator was written from the protocol documentation; this
// checks it against hardware.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Op } from '../../../flasher/testing/bootloader';
import {
  type Exchange,
  OHAI_ON_THE_WIRE,
  RECORDED_MAC,
  romExchanges,
  stubExchanges,
} from './esptool-s3-session';
import { dataBlock, RawHost, sleep, words } from './raw-host';

const hex = (bytes: Uint8Array) => Buffer.from(bytes).toString('hex');

/** Writes the recorded host bytes and returns every packet the board answers, as hex. */
async function replay(host: RawHost, exchange: Exchange): Promise<string[]> {
  host.frames.length = 0;
  const writer = host.port.writable!.getWriter();
  await writer.write(Buffer.from(exchange.host, 'hex'));
  writer.releaseLock();
  const answers: string[] = [];
  for (let i = 0; i < exchange.answers.length; i++) answers.push(hex(await host.nextFrame()));
  await sleep(20); // and nothing more
  return [...answers, ...host.frames.map(hex)];
}

describe('the simulated ESP32-S3 answers as the recorded boards did', () => {
  it('boots into download mode with the S3 ROM banner, then the ROM and stub loader exchanges', async () => {
    const host = new RawHost({ mac: RECORDED_MAC });
    await host.open();
    await host.resetIntoDownloadMode();
    // The banner an ESP32-S3 printed when esptool connected (forum.esp32.com topic 44355, and
    // esptool-js pull request 145's trace): ESP-ROM:esp32s3-20210327, then its build date.
    assert.match(host.text, /^ESP-ROM:esp32s3-20210327\r\nBuild:Mar 27 2021\r\n/);

    for (const exchange of romExchanges) {
      assert.deepEqual(await replay(host, exchange), exchange.answers, exchange.what);
    }

    // Not recorded (the real stub image is 5 KB of Xtensa code): the MEM_DATA block and the
    // MEM_END jump that start the stub, after which the board sends OHAI as documented.
    const image = new Uint8Array(0x13a0).fill(0x36);
    const block = dataBlock(0, image);
    assert.equal((await host.command(Op.MEM_DATA, block.payload, block.checksum)).status, 0);
    host.text = '';
    host.frames.length = 0;
    await host.command(Op.MEM_END, words(0, 0x40378000));
    await sleep(20);
    assert.ok(
      Buffer.from(host.text, 'latin1').toString('hex').includes(OHAI_ON_THE_WIRE),
      'OHAI, SLIP-framed, once the stub runs',
    );
    assert.equal(host.device.state, 'stub');

    for (const exchange of stubExchanges) {
      assert.deepEqual(await replay(host, exchange), exchange.answers, exchange.what);
    }
    await host.close();
  });
});
