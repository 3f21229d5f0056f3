// A Web Serial implementation (navigator.serial and SerialPort) in front of simulated boards.
// It keeps the browser's rules that code gets wrong: requestPort needs a user gesture and rejects
// with NotFoundError when the picker is cancelled; open() rejects when the port is open or busy;
// close() rejects while a stream is locked; streams exist only while the port is open; when the
// board is unplugged the streams error with NetworkError and "disconnect" fires.

import type { HostConnection, SimulatedEsp32 } from './simulated-device';

/** What the next port picker does: pick the first matching port, be cancelled, or fail. */
export type PickerAction = 'select' | 'cancel' | { name: string; message: string };

export interface SimulatedPortOptions {
  /** USB ids of the board's bridge (default: Silicon Labs CP2102N). */
  usbVendorId?: number;
  usbProductId?: number;
  /** open() fails like this, e.g. another program holds the port. */
  openError?: { name: string; message: string };
}

function domError(name: string, message: string): DOMException {
  return new DOMException(message, name);
}

export class SimulatedSerialPort extends EventTarget {
  onconnect: ((this: SimulatedSerialPort, ev: Event) => unknown) | null = null;
  ondisconnect: ((this: SimulatedSerialPort, ev: Event) => unknown) | null = null;
  /** How many times open() succeeded and close() completed, for tests of port release. */
  opens = 0;
  closes = 0;

  private state: 'closed' | 'opened' = 'closed';
  private baudRate: number | null = null;
  private lost = false;
  private readableStream: ReadableStream<Uint8Array> | null = null;
  private readController: ReadableStreamDefaultController<Uint8Array> | null = null;
  private writableStream: WritableStream<Uint8Array> | null = null;
  private pending: Uint8Array[] = [];

  constructor(
    readonly device: SimulatedEsp32,
    private readonly serial: SimulatedSerial,
    private readonly options: SimulatedPortOptions = {},
  ) {
    super();
    const host: HostConnection = {
      baud: () => (this.state === 'opened' && !this.lost ? this.baudRate : null),
      receive: (bytes) => this.receive(bytes),
      deviceLost: () => this.deviceLost(),
    };
    device.connectHost(host);
  }

  get isOpen(): boolean {
    return this.state === 'opened';
  }

  get connected(): boolean {
    return !this.lost;
  }

  get readable(): ReadableStream<Uint8Array> | null {
    if (this.readableStream) return this.readableStream;
    if (this.state !== 'opened' || this.lost) return null;
    const stream = new ReadableStream<Uint8Array>({
      start: (controller) => {
        this.readController = controller;
        for (const chunk of this.pending) controller.enqueue(chunk);
        this.pending = [];
      },
      cancel: () => {
        if (this.readableStream === stream) {
          this.readableStream = null;
          this.readController = null;
        }
      },
    });
    this.readableStream = stream;
    return stream;
  }

  get writable(): WritableStream<Uint8Array> | null {
    if (this.writableStream) return this.writableStream;
    if (this.state !== 'opened' || this.lost) return null;
    const release = () => {
      if (this.writableStream === stream) this.writableStream = null;
    };
    const stream = new WritableStream<Uint8Array>({
      write: (chunk) => {
        if (this.lost) throw domError('NetworkError', 'The device has been lost.');
        const bytes =
          chunk instanceof Uint8Array ? chunk : new Uint8Array(chunk as ArrayBufferLike);
        this.device.toDevice.send(bytes, this.baudRate!);
      },
      close: release,
      abort: release,
    });
    this.writableStream = stream;
    return stream;
  }

  getInfo(): { usbVendorId?: number; usbProductId?: number } {
    return {
      usbVendorId: this.options.usbVendorId ?? 0x10c4,
      usbProductId: this.options.usbProductId ?? 0xea60,
    };
  }

  async open(options: { baudRate: number }): Promise<void> {
    if (!options || !(options.baudRate > 0)) {
      throw new TypeError(
        "Failed to execute 'open' on 'SerialPort': Requested baud rate must be greater than zero.",
      );
    }
    if (this.state === 'opened') throw domError('InvalidStateError', 'The port is already open.');
    if (this.lost) throw domError('NetworkError', 'Failed to open serial port.');
    if (this.options.openError)
      throw domError(this.options.openError.name, this.options.openError.message);
    this.state = 'opened';
    this.baudRate = options.baudRate;
    this.opens++;
    // Opening a tty asserts DTR and RTS; on the auto-reset circuit both high leave the chip alone.
    this.device.setSignals({ dtr: true, rts: true });
  }

  async close(): Promise<void> {
    if (this.state !== 'opened') throw domError('InvalidStateError', 'The port is already closed.');
    if (this.readableStream?.locked || this.writableStream?.locked) {
      throw new TypeError(
        "Failed to execute 'close' on 'SerialPort': Cannot cancel a locked stream",
      );
    }
    await this.readableStream?.cancel();
    await this.writableStream?.abort();
    this.readableStream = null;
    this.readController = null;
    this.writableStream = null;
    this.pending = [];
    this.state = 'closed';
    this.baudRate = null;
    this.closes++;
    if (!this.lost) this.device.setSignals({ dtr: false, rts: false });
  }

  async setSignals(signals: {
    dataTerminalReady?: boolean;
    requestToSend?: boolean;
    break?: boolean;
  }): Promise<void> {
    if (this.state !== 'opened') throw domError('InvalidStateError', 'The port is closed.');
    if (this.lost) throw domError('NetworkError', 'The device has been lost.');
    const update: { dtr?: boolean; rts?: boolean } = {};
    if (signals.dataTerminalReady !== undefined) update.dtr = signals.dataTerminalReady;
    if (signals.requestToSend !== undefined) update.rts = signals.requestToSend;
    this.device.setSignals(update);
  }

  async getSignals(): Promise<{
    dataCarrierDetect: boolean;
    clearToSend: boolean;
    ringIndicator: boolean;
    dataSetReady: boolean;
  }> {
    if (this.state !== 'opened') throw domError('InvalidStateError', 'The port is closed.');
    return {
      dataCarrierDetect: false,
      clearToSend: true,
      ringIndicator: false,
      dataSetReady: true,
    };
  }

  async forget(): Promise<void> {
    this.serial.forgetPort(this);
  }

  private receive(bytes: Uint8Array): void {
    if (this.readController) this.readController.enqueue(bytes.slice());
    else this.pending.push(bytes.slice());
  }

  private deviceLost(): void {
    this.lost = true;
    const error = domError('NetworkError', 'The device has been lost.');
    if (this.readController) {
      this.readController.error(error);
      this.readController = null;
    }
    this.readableStream = null;
    if (this.writableStream && !this.writableStream.locked)
      void this.writableStream.abort(error).catch(() => {});
    this.writableStream = null;
    const event = new Event('disconnect', { bubbles: true });
    this.ondisconnect?.call(this, event);
    this.dispatchEvent(event);
    this.serial.portDisconnected(this);
  }
}

export class SimulatedSerial extends EventTarget {
  onconnect: ((this: SimulatedSerial, ev: Event) => unknown) | null = null;
  ondisconnect: ((this: SimulatedSerial, ev: Event) => unknown) | null = null;
  /** Picker outcomes for the next requestPort calls, in order; when empty the picker selects. */
  readonly pickerActions: PickerAction[] = [];
  /** Every requestPort call's options, for assertions. */
  readonly pickerRequests: unknown[] = [];
  private readonly ports: SimulatedSerialPort[] = [];
  private readonly granted = new Set<SimulatedSerialPort>();

  /** Plugs a board in. */
  addDevice(device: SimulatedEsp32, options: SimulatedPortOptions = {}): SimulatedSerialPort {
    const port = new SimulatedSerialPort(device, this, options);
    this.ports.push(port);
    return port;
  }

  async requestPort(
    options: { filters?: { usbVendorId?: number; usbProductId?: number }[] } = {},
  ): Promise<SimulatedSerialPort> {
    this.pickerRequests.push(options);
    const activation = (globalThis as { navigator?: { userActivation?: { isActive: boolean } } })
      .navigator?.userActivation;
    if (activation && !activation.isActive) {
      throw domError(
        'SecurityError',
        "Failed to execute 'requestPort' on 'Serial': Must be handling a user gesture to show a permission request.",
      );
    }
    const action = this.pickerActions.shift() ?? 'select';
    if (typeof action === 'object') throw domError(action.name, action.message);
    const filters = options.filters ?? [];
    const candidates = this.ports.filter(
      (port) =>
        port.connected &&
        (filters.length === 0 ||
          filters.some(
            (f) =>
              (f.usbVendorId === undefined || f.usbVendorId === port.getInfo().usbVendorId) &&
              (f.usbProductId === undefined || f.usbProductId === port.getInfo().usbProductId),
          )),
    );
    const port = candidates[0];
    if (action === 'cancel' || !port)
      throw domError('NotFoundError', 'No port selected by the user.');
    this.granted.add(port);
    return port;
  }

  async getPorts(): Promise<SimulatedSerialPort[]> {
    return this.ports.filter((port) => this.granted.has(port) && port.connected);
  }

  forgetPort(port: SimulatedSerialPort): void {
    this.granted.delete(port);
  }

  portDisconnected(port: SimulatedSerialPort): void {
    // In browsers the port's event bubbles here; listeners that need the port listen on it.
    void port;
    const event = new Event('disconnect');
    this.ondisconnect?.call(this, event);
    this.dispatchEvent(event);
  }
}
