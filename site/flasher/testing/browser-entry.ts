// Browser entry of the simulated board, bundled by the e2e tests and injected into the page before
// its scripts run: `TributarySimulator.install(options)` replaces navigator.serial with a
// simulated Web Serial holding one simulated ESP32-S3, and the returned handle (also at
// `TributarySimulator.current`) lets the test look inside the board afterwards.

import type { SimulatedDeviceOptions } from './simulated-device';
import { SimulatedEsp32 } from './simulated-device';
import { type PickerAction, type SimulatedPortOptions, SimulatedSerial } from './simulated-serial';

export interface SimulatorOptions {
  device?: SimulatedDeviceOptions;
  port?: SimulatedPortOptions;
  /** Outcomes of the next port pickers ("select" once they run out). */
  picker?: PickerAction[];
}

export interface SimulatorHandle {
  serial: SimulatedSerial;
  device: SimulatedEsp32;
  /** Flash contents as base64, for the test to compare with the files. */
  readFlashBase64(offset: number, length: number): string;
  summary(): {
    state: string;
    boots: SimulatedEsp32['boots'];
    baudHistory: number[];
    portOpen: boolean;
    opens: number;
    closes: number;
    pickerRequests: number;
    flashBytesReceived: number;
  };
}

function toBase64(bytes: Uint8Array): string {
  let binary = '';
  for (let i = 0; i < bytes.length; i += 0x8000) {
    binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  }
  return btoa(binary);
}

export function install(options: SimulatorOptions = {}): SimulatorHandle {
  const serial = new SimulatedSerial();
  serial.pickerActions.push(...(options.picker ?? []));
  const device = new SimulatedEsp32(options.device);
  const port = serial.addDevice(device, options.port);
  Object.defineProperty(Navigator.prototype, 'serial', { configurable: true, get: () => serial });
  const handle: SimulatorHandle = {
    serial,
    device,
    readFlashBase64: (offset, length) => toBase64(device.readFlash(offset, length)),
    summary: () => ({
      state: device.state,
      boots: device.boots,
      baudHistory: device.baudHistory,
      portOpen: port.isOpen,
      opens: port.opens,
      closes: port.closes,
      pickerRequests: serial.pickerRequests.length,
      flashBytesReceived: device.flashBytesReceived,
    }),
  };
  current = handle;
  return handle;
}

export let current: SimulatorHandle | null = null;
