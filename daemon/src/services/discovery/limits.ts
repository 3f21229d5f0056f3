// What bounds discovery's work and state against what the network sends (any host on the LAN
// can send SAP and mDNS): a rate per sender address, and a budget of entries auto-add may create
// per minute. The stream cap itself is a setting (sap.listener.max_streams), held by the
// registry. Documented in content/docs/sap.mdx and autoconfig.mdx.

/** SAP packets a sender address may send per second, sustained (more are dropped unread). */
export const SAP_SENDER_RATE = 50;
/** ... and in a burst (a sender that was quiet may send this many at once). */
export const SAP_SENDER_BURST = 100;
/** Sender addresses whose rate is tracked at once; the least recently heard is forgotten. */
export const SAP_SENDERS_TRACKED = 1024;
/** Entries auto-add may create in any 60 seconds (per kind: SAP sources, mDNS devices). */
export const AUTO_ADD_PER_MINUTE = 30;

/** A token bucket per sender address: `rate` per second, `burst` at most. */
export class SenderRateLimit {
  readonly #buckets = new Map<string, { tokens: number; at: number }>();

  constructor(
    private readonly rate = SAP_SENDER_RATE,
    private readonly burst = SAP_SENDER_BURST,
    private readonly tracked = SAP_SENDERS_TRACKED,
  ) {}

  /** True when `sender` may send one more packet now (and that packet is counted). */
  allow(sender: string, now = performance.now()): boolean {
    const old = this.#buckets.get(sender);
    const tokens = old
      ? Math.min(this.burst, old.tokens + ((now - old.at) / 1000) * this.rate)
      : this.burst;
    // Re-inserted, so the map's first entry is the sender heard least recently.
    this.#buckets.delete(sender);
    if (this.#buckets.size >= this.tracked)
      this.#buckets.delete(this.#buckets.keys().next().value!);
    const allowed = tokens >= 1;
    this.#buckets.set(sender, { tokens: allowed ? tokens - 1 : tokens, at: now });
    return allowed;
  }

  get senders(): number {
    return this.#buckets.size;
  }
}

/** At most `limit` takes in any `windowMs` (a sliding window). */
export class WindowBudget {
  readonly #times: number[] = [];

  constructor(
    readonly limit = AUTO_ADD_PER_MINUTE,
    private readonly windowMs = 60_000,
  ) {}

  /** Takes one if the window has room; false when it is full. */
  take(now = Date.now()): boolean {
    this.#prune(now);
    if (this.#times.length >= this.limit) return false;
    this.#times.push(now);
    return true;
  }

  /** Takes made within the window. */
  used(now = Date.now()): number {
    this.#prune(now);
    return this.#times.length;
  }

  #prune(now: number): void {
    while (this.#times.length > 0 && now - this.#times[0]! >= this.windowMs) this.#times.shift();
  }
}
