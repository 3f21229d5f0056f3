// The logger discovery's parts write to, and guards so a flood of bad packets is logged a few
// times a minute instead of once per packet (every packet is still counted).
import { networkInterfaces } from 'node:os';

export interface DiscoveryLog {
  info(message: string): void;
  warn(message: string): void;
  error(message: string): void;
  debug(message: string): void;
}

export const silentLog: DiscoveryLog = { info() {}, warn() {}, error() {}, debug() {} };

/**
 * Logs at most `burst` messages per `windowMs`, then one line saying how many were held back
 * (written with the next message after the window). `suppressed` counts every one held back.
 */
export class RateLimitedLog {
  #windowStart = 0;
  #inWindow = 0;
  #held = 0;
  #suppressed = 0;

  constructor(
    private readonly log: (message: string) => void,
    private readonly burst = 5,
    private readonly windowMs = 60_000,
  ) {}

  /** Writes `message` (with `log`, else the constructor's) unless the window's burst is spent. */
  write(message: string, now = Date.now(), log = this.log): void {
    if (now - this.#windowStart >= this.windowMs) {
      if (this.#held > 0) this.log(`(${this.#held} more like this in the last minute, not logged)`);
      this.#windowStart = now;
      this.#inWindow = 0;
      this.#held = 0;
    }
    if (this.#inWindow < this.burst) {
      this.#inWindow += 1;
      log(message);
    } else {
      this.#held += 1;
      this.#suppressed += 1;
    }
  }

  /** Messages held back since this log was made. */
  get suppressed(): number {
    return this.#suppressed;
  }
}

/**
 * Drops of several kinds logged at a bounded rate: the first at once, then, while they go on,
 * one line every `windowMs` with how many were held back by reason and the last of them. A
 * flood of any size writes at most one line per window.
 */
export class DropSummary {
  readonly #held = new Map<string, number>();
  #last = '';
  #timer: NodeJS.Timeout | null = null;

  constructor(
    private readonly log: (message: string) => void,
    private readonly prefix: string,
    private readonly windowMs = 10_000,
  ) {}

  write(reason: string, detail: string): void {
    if (this.#timer) {
      this.#held.set(reason, (this.#held.get(reason) ?? 0) + 1);
      this.#last = detail;
      return;
    }
    this.log(`${this.prefix}: ${detail}`);
    this.#open();
  }

  #open(): void {
    this.#timer = setTimeout(() => this.#flush(), this.windowMs);
    this.#timer.unref();
  }

  #flush(): void {
    this.#timer = null;
    if (this.#held.size === 0) return;
    let total = 0;
    for (const n of this.#held.values()) total += n;
    const reasons = [...this.#held].map(([reason, n]) => `${reason} ${n}`).join(', ');
    const seconds = Math.round(this.windowMs / 1000);
    this.log(
      `${this.prefix}: ${total} more in the last ${seconds} s (${reasons}); the last: ${this.#last}`,
    );
    this.#held.clear();
    this.#open();
  }

  /** Writes what is held back and stops. */
  stop(): void {
    if (this.#timer) clearTimeout(this.#timer);
    this.#timer = null;
    if (this.#held.size > 0) {
      this.#flush();
      if (this.#timer) clearTimeout(this.#timer);
      this.#timer = null;
    }
  }
}

/** The IPv4 address of each interface that has one (loopback included), one per interface. */
export function interfaceAddresses(): { address: string; internal: boolean }[] {
  const out: { address: string; internal: boolean }[] = [];
  for (const list of Object.values(networkInterfaces())) {
    const v4 = list?.find((a) => a.family === 'IPv4');
    if (v4) out.push({ address: v4.address, internal: v4.internal });
  }
  return out;
}

/** The address announcements name as their origin: the first non-loopback IPv4, else 127.0.0.1. */
export function originAddress(): string {
  return interfaceAddresses().find((a) => !a.internal)?.address ?? '127.0.0.1';
}
