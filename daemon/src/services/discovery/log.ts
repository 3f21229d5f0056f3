// The logger discovery's parts write to, and a guard so a flood of bad packets is logged a few
// times a minute instead of once per packet (every packet is still counted).
import { networkInterfaces } from 'node:os';

export interface DiscoveryLog {
  info(message: string): void;
  warn(message: string): void;
  error(message: string): void;
  debug(message: string): void;
}

export const silentLog: DiscoveryLog = { info() {}, warn() {}, error() {}, debug() {} };

/** Logs at most `burst` messages per `windowMs`, then one line saying how many were held back. */
export class RateLimitedLog {
  #windowStart = 0;
  #inWindow = 0;
  #held = 0;

  constructor(
    private readonly log: (message: string) => void,
    private readonly burst = 5,
    private readonly windowMs = 60_000,
  ) {}

  write(message: string, now = Date.now()): void {
    if (now - this.#windowStart >= this.windowMs) {
      if (this.#held > 0) this.log(`(${this.#held} more like this in the last minute, not logged)`);
      this.#windowStart = now;
      this.#inWindow = 0;
      this.#held = 0;
    }
    if (this.#inWindow < this.burst) {
      this.#inWindow += 1;
      this.log(message);
    } else this.#held += 1;
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
