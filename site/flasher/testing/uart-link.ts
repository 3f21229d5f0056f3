// One direction of a UART line. Bytes take 10 bit times each (8N1) at the sender's baud rate, so
// a faster baud really is faster, and bytes sent at one rate and received at another arrive as
// line noise, which is what happens when host and chip disagree after a baud change.

export interface UartEndpoint {
  /** The receiver's current baud rate, or null when it is not listening (port closed). */
  baud(): number | null;
  receive(bytes: Uint8Array): void;
}

export interface UartTiming {
  /** Model transmission time from the baud rate (false: deliver as soon as possible). */
  realTime: boolean;
}

/** What a receiver makes of bytes sent at another rate: framing errors and wrong bits. */
function lineNoise(length: number, senderBaud: number, receiverBaud: number): Uint8Array {
  const count = Math.max(1, Math.round((length * receiverBaud) / senderBaud));
  const noise = new Uint8Array(count);
  for (let i = 0; i < count; i++) noise[i] = i % 3 === 0 ? 0x00 : 0xf8; // never 0xC0 / 0xDB
  return noise;
}

export class UartLink {
  private readonly queue: { at: number; bytes: Uint8Array; baud: number }[] = [];
  private busyUntil = 0;
  private timer: ReturnType<typeof setTimeout> | null = null;

  constructor(
    private readonly receiver: UartEndpoint,
    private readonly timing: UartTiming,
  ) {}

  send(bytes: Uint8Array, senderBaud: number): void {
    if (bytes.length === 0) return;
    const now = performance.now();
    const start = Math.max(now, this.busyUntil);
    const duration = this.timing.realTime ? (bytes.length * 10 * 1000) / senderBaud : 0;
    this.busyUntil = start + duration;
    this.queue.push({ at: this.busyUntil, bytes: bytes.slice(), baud: senderBaud });
    this.schedule();
  }

  /** Drops whatever is still on the wire (the receiver was reset or unplugged). */
  clear(): void {
    this.queue.length = 0;
    this.busyUntil = 0;
    if (this.timer !== null) clearTimeout(this.timer);
    this.timer = null;
  }

  /** Time when the bytes sent so far will have left the sender. */
  drainedAt(): number {
    return this.busyUntil;
  }

  private schedule(): void {
    if (this.timer !== null || this.queue.length === 0) return;
    const wait = Math.max(0, this.queue[0]!.at - performance.now());
    this.timer = setTimeout(() => {
      this.timer = null;
      this.deliverDue();
      this.schedule();
    }, wait);
  }

  private deliverDue(): void {
    const now = performance.now();
    while (this.queue.length > 0 && this.queue[0]!.at <= now + 0.5) {
      const { bytes, baud } = this.queue.shift()!;
      const receiverBaud = this.receiver.baud();
      if (receiverBaud === null) continue;
      this.receiver.receive(
        receiverBaud === baud ? bytes : lineNoise(bytes.length, baud, receiverBaud),
      );
    }
  }
}
