// A minimal host for protocol tests: opens a simulated port, resets the board into download mode
// with the classic DTR/RTS sequence and exchanges raw SLIP packets, so tests can check the exact
// bytes the simulated loaders answer with (esptool-js hides some of them).

import {
  type SimulatedDeviceOptions,
  SimulatedEsp32,
} from '../../../flasher/testing/simulated-device';
import {
  SimulatedSerial,
  type SimulatedSerialPort,
} from '../../../flasher/testing/simulated-serial';
import { SlipDecoder, slipEncode } from '../../../flasher/testing/slip';

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export interface Answer {
  op: number;
  value: number;
  body: Uint8Array;
  status: number;
  error: number;
}

export class RawHost {
  readonly device: SimulatedEsp32;
  readonly port: SimulatedSerialPort;
  readonly frames: Uint8Array[] = [];
  text = '';
  private readonly decoder = new SlipDecoder();
  private reader: ReadableStreamDefaultReader<Uint8Array> | null = null;

  constructor(options: SimulatedDeviceOptions = {}) {
    this.device = new SimulatedEsp32({ realTimeUart: false, ...options });
    this.port = new SimulatedSerial().addDevice(this.device);
  }

  async open(baudRate = 115200): Promise<void> {
    await this.port.open({ baudRate });
    this.reader = this.port.readable!.getReader();
    void (async () => {
      try {
        for (;;) {
          const { value, done } = await this.reader!.read();
          if (done) return;
          this.text += new TextDecoder('latin1').decode(value);
          this.frames.push(...this.decoder.push(value));
        }
      } catch {
        // port lost
      }
    })();
  }

  async close(): Promise<void> {
    await this.reader?.cancel();
    this.reader?.releaseLock();
    await this.port.close();
  }

  async resetIntoDownloadMode(): Promise<void> {
    await this.port.setSignals({ dataTerminalReady: false, requestToSend: true });
    await sleep(5);
    await this.port.setSignals({ dataTerminalReady: true, requestToSend: false });
    await sleep(5);
    await this.port.setSignals({ dataTerminalReady: false, requestToSend: false });
    await sleep(10);
  }

  async send(packet: Uint8Array): Promise<void> {
    const writer = this.port.writable!.getWriter();
    await writer.write(slipEncode(packet));
    writer.releaseLock();
  }

  async command(
    op: number,
    data: Uint8Array = new Uint8Array(0),
    checksum = 0,
    statusLength = 4,
  ): Promise<Answer> {
    this.frames.length = 0;
    const packet = new Uint8Array(8 + data.length);
    const view = new DataView(packet.buffer);
    packet[1] = op;
    view.setUint16(2, data.length, true);
    view.setUint32(4, checksum, true);
    packet.set(data, 8);
    await this.send(packet);
    const frame = await this.nextFrame();
    const body = frame.subarray(8, frame.length - statusLength);
    return {
      op: frame[1]!,
      value: new DataView(frame.buffer, frame.byteOffset).getUint32(4, true),
      body,
      status: frame[frame.length - statusLength]!,
      error: frame[frame.length - statusLength + 1]!,
    };
  }

  async nextFrame(timeoutMs = 1000): Promise<Uint8Array> {
    const deadline = Date.now() + timeoutMs;
    while (this.frames.length === 0) {
      if (Date.now() > deadline) throw new Error('no answer from the simulated board');
      await sleep(1);
    }
    return this.frames.shift()!;
  }
}

export function words(...values: number[]): Uint8Array {
  const out = new Uint8Array(values.length * 4);
  const view = new DataView(out.buffer);
  for (const [i, v] of values.entries()) view.setUint32(i * 4, v >>> 0, true);
  return out;
}

/** A _DATA payload (length, sequence, 0, 0, data) and its checksum. */
export function dataBlock(
  seq: number,
  data: Uint8Array,
): { payload: Uint8Array; checksum: number } {
  const payload = new Uint8Array(16 + data.length);
  payload.set(words(data.length, seq, 0, 0));
  payload.set(data, 16);
  let checksum = 0xef;
  for (const byte of data) checksum ^= byte;
  return { payload, checksum };
}
