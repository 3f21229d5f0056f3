// Controls that step from the current value (volume keys, delay -10/+10 ms): each press must build
// on the one before, even when the server has not answered it yet. The value to step from is the
// last one asked for while it is not confirmed, and the saves of one key go out one after the
// other, so three quick presses are three steps, saved in order.

/** How long a saved step is still stepped from when the live state never shows it (ms). */
const CONFIRM_WITHIN_MS = 2000;

interface Pending {
  readonly value: number;
  readonly chain: Promise<unknown>;
  settledAt: number | null;
}

export class Steps {
  readonly #pending = new Map<string, Pending>();
  readonly #now: () => number;

  constructor(now: () => number = Date.now) {
    this.#now = now;
  }

  /** The value the next step starts from: the last asked for, until `current` shows it. */
  base(key: string, current: number): number {
    const pending = this.#pending.get(key);
    if (!pending) return current;
    const stale = pending.settledAt !== null && this.#now() - pending.settledAt > CONFIRM_WITHIN_MS;
    if (stale || (pending.settledAt !== null && pending.value === current)) {
      this.#pending.delete(key);
      return current;
    }
    return pending.value;
  }

  /** Saves `value` for `key` once the saves asked for before it are done. */
  apply<T>(key: string, value: number, save: (value: number) => Promise<T>): Promise<T> {
    const before = this.#pending.get(key)?.chain ?? Promise.resolve();
    const chain = before.catch(() => undefined).then(() => save(value));
    const entry: Pending = { value, chain, settledAt: null };
    this.#pending.set(key, entry);
    const settled = (failed: boolean) => {
      if (this.#pending.get(key) !== entry) return;
      // A refused step is not stepped from: the next press starts from the live value.
      if (failed) this.#pending.delete(key);
      else entry.settledAt = this.#now();
    };
    chain.then(
      () => settled(false),
      () => settled(true),
    );
    return chain;
  }
}

/** The dashboard's one set of pending steps (keys: `${kind}:${config_id}:${field}`). */
export const steps = new Steps();
