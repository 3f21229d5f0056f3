// The real, unmodified esptool-js flashing the simulated ESP32-S3 through flashDevice(): the
// bytes at each offset, the baud change, erase, MD5, the final reset, and every failure path
// ending with the port closed.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  type FlashBuild,
  type FlashProgress,
  flashDevice,
} from '../../../flasher/install/flash-device';
import { FlashError } from '../../../flasher/install/flash-errors';
import { makeEspImage, makeFirmwareFiles } from '../../../flasher/testing/firmware-fixtures';
import {
  type SimulatedDeviceOptions,
  SimulatedEsp32,
} from '../../../flasher/testing/simulated-device';
import {
  type SimulatedPortOptions,
  SimulatedSerial,
} from '../../../flasher/testing/simulated-serial';

const files = await makeFirmwareFiles(256 * 1024);

function tributaryBuild(
  overrides: Partial<Record<keyof typeof files, Uint8Array>> = {},
): FlashBuild {
  const f = { ...files, ...overrides };
  return {
    chipFamily: 'ESP32-S3',
    flashMode: 'dio',
    flashFreq: '80m',
    flashSize: '4MB',
    images: [
      { name: 'bootloader.bin', address: 0x0, data: f.bootloader },
      { name: 'partition-table.bin', address: 0x8000, data: f.partitionTable },
      { name: 'ota_data_initial.bin', address: 0x9000, data: f.otaData },
      { name: 'esp32-rtp.bin', address: 0x10000, data: f.app },
    ],
  };
}

async function board(device: SimulatedDeviceOptions = {}, port: SimulatedPortOptions = {}) {
  const simulated = new SimulatedEsp32(device);
  const serialPort = new SimulatedSerial().addDevice(simulated, port);
  // The install button hands the dialog a port it opened at 115200.
  if (!port.openError) await serialPort.open({ baudRate: 115200 });
  return { device: simulated, port: serialPort };
}

describe('flashDevice with esptool-js', () => {
  it('writes the four images at their offsets, verified, at 921600 baud, then boots them', async () => {
    const { device, port } = await board();
    const progress: FlashProgress[] = [];
    const started = performance.now();
    const result = await flashDevice({
      port: port as unknown as SerialPort,
      builds: [tributaryBuild()],
      erase: false,
      onProgress: (p) => progress.push(p),
    });
    const seconds = (performance.now() - started) / 1000;
    console.log(
      `flashed ${result.bytesWritten} bytes in ${seconds.toFixed(2)} s (writing ${(result.writeMs / 1000).toFixed(2)} s)`,
    );

    for (const image of tributaryBuild().images) {
      assert.deepEqual(device.readFlash(image.address, image.data.length), image.data, image.name);
    }
    assert.equal(result.chip.name, 'ESP32-S3');
    assert.equal(result.chip.description, 'ESP32-S3 (QFN56) (revision v0.2)');
    assert.equal(result.chip.mac, '7c:df:a1:3a:51:9e');
    assert.equal(result.baudRate, 921600);
    assert.deepEqual(device.baudHistory.slice(0, 2), [115200, 921600]);

    const writes = progress.filter((p) => p.step === 'write');
    assert.deepEqual(
      [...new Set(progress.map((p) => p.step))],
      ['connect', 'stub', 'write', 'reset'],
    );
    assert.ok(
      writes.every((p, i) => i === 0 || p.bytesWritten >= writes[i - 1]!.bytesWritten),
      'progress only grows',
    );
    assert.equal(writes.at(-1)!.percent, 100);
    assert.equal(
      writes.at(-1)!.bytesTotal,
      tributaryBuild().images.reduce((n, i) => n + i.data.length, 0),
    );
    assert.deepEqual(
      [...new Set(writes.map((p) => p.file!.name))],
      tributaryBuild().images.map((i) => i.name),
    );

    assert.deepEqual(device.boots.at(-1), { mode: 'flash', outcome: 'app at 0x10000' });
    assert.match(result.bootLog, /Loaded app from partition at offset 0x10000/);
    assert.equal(port.isOpen, false, 'port closed at the end');
  });

  it('erases the whole flash first only when asked', async () => {
    for (const erase of [false, true]) {
      const { device, port } = await board({ realTimeUart: false });
      device.writeFlash(0x3ff000, new Uint8Array(64).fill(0x42)); // old NVS data, say
      await flashDevice({
        port: port as unknown as SerialPort,
        builds: [tributaryBuild()],
        erase,
        bootLogMs: 100,
      });
      const old = device.readFlash(0x3ff000, 64);
      assert.deepEqual([...old], new Array(64).fill(erase ? 0xff : 0x42), `erase=${erase}`);
      assert.deepEqual(device.readFlash(0x10000, files.app.length), files.app);
    }
  });

  it('sets dio, 80 MHz and 4 MB in the bootloader header and updates its SHA-256', async () => {
    const qio = await makeEspImage({
      flashMode: 0,
      flashSizeFreq: 0x10,
      entry: 0x403c9954,
      chipId: 9,
      segments: [{ address: 0x3fce3818, data: new Uint8Array(256).fill(3) }],
      appendDigest: true,
    });
    const { device, port } = await board({ realTimeUart: false });
    await flashDevice({
      port: port as unknown as SerialPort,
      builds: [tributaryBuild({ bootloader: qio })],
      erase: false,
    });
    const written = device.readFlash(0, qio.length);
    assert.deepEqual([written[2], written[3]], [2, 0x2f]);
    const body = written.slice(0, qio.length - 32);
    const sha = new Uint8Array(await crypto.subtle.digest('SHA-256', body));
    assert.deepEqual(written.slice(qio.length - 32), sha);
    assert.match(device.console, /mode:DIO/);
  });

  it('refuses a chip the firmware is not built for, before writing anything', async () => {
    const { device, port } = await board({ chip: 'ESP32-C3', realTimeUart: false });
    const chips: string[] = [];
    await assert.rejects(
      flashDevice({
        port: port as unknown as SerialPort,
        builds: [tributaryBuild()],
        erase: false,
        onChip: (c) => chips.push(c.name),
      }),
      (error: unknown) => {
        assert.ok(error instanceof FlashError);
        assert.equal(error.kind, 'wrong-chip');
        assert.match(
          error.message,
          /This board has an ESP32-C3 chip, but this firmware is built for the ESP32-S3/,
        );
        return true;
      },
    );
    assert.deepEqual(chips, ['ESP32-C3']);
    assert.equal(device.flashBytesReceived, 0);
    assert.equal(port.isOpen, false);
  });

  it('identifies a classic ESP32 (no GET_SECURITY_INFO in its ROM) by the magic register', async () => {
    const { device, port } = await board({ chip: 'ESP32', realTimeUart: false });
    await assert.rejects(
      flashDevice({
        port: port as unknown as SerialPort,
        builds: [tributaryBuild()],
        erase: false,
      }),
      (error: unknown) =>
        error instanceof FlashError &&
        error.kind === 'wrong-chip' &&
        error.details.chip === 'ESP32',
    );
    assert.equal(device.flashBytesReceived, 0);
    assert.equal(port.isOpen, false);
  });

  it('reports a lost connection as soon as the board disappears mid-write, and releases the port', async () => {
    const { device, port } = await board({ unplugAfterFlashBytes: 40_000 });
    let lostAt = 0;
    port.addEventListener('disconnect', () => {
      lostAt = performance.now();
    });
    await assert.rejects(
      flashDevice({
        port: port as unknown as SerialPort,
        builds: [tributaryBuild()],
        erase: false,
      }),
      (error: unknown) => error instanceof FlashError && error.kind === 'connection-lost',
    );
    assert.ok(lostAt > 0);
    assert.ok(performance.now() - lostAt < 1000, 'no waiting for timeouts');
    assert.equal(device.state, 'unplugged');
    assert.equal(port.isOpen, false);
  });

  it('says the port is busy when it cannot be opened', async () => {
    const { port } = await board(
      {},
      { openError: { name: 'NetworkError', message: 'Failed to open serial port.' } },
    );
    await assert.rejects(
      flashDevice({
        port: port as unknown as SerialPort,
        builds: [tributaryBuild()],
        erase: false,
      }),
      (error: unknown) => error instanceof FlashError && error.kind === 'port-busy',
    );
    assert.equal(port.isOpen, false);
  });

  it('explains how to enter the bootloader by hand when the board never answers', async () => {
    const { port } = await board({ autoReset: false, realTimeUart: false });
    await assert.rejects(
      flashDevice({
        port: port as unknown as SerialPort,
        builds: [tributaryBuild()],
        erase: false,
      }),
      (error: unknown) =>
        error instanceof FlashError &&
        error.kind === 'no-bootloader' &&
        /Hold its BOOT button/.test(error.message),
    );
    assert.equal(port.isOpen, false);
  });
});
