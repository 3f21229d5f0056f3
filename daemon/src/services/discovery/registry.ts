// What discovery has found on the network (SAP streams, mDNS devices): one entry per stream or
// device, with when it was first and last heard, forgotten after a timeout of silence or at once
// when it says goodbye. Listeners hear every addition, change and removal.
import { isDeepStrictEqual } from 'node:util';

export type RegistryEvent = 'added' | 'changed' | 'removed';

export interface Heard<T> {
  readonly item: T;
  /** ms since the epoch. */
  readonly firstSeen: number;
  readonly lastSeen: number;
  /** How many times it was heard. */
  readonly count: number;
}

export type RegistryListener<T> = (event: RegistryEvent, item: T, why: string) => void;

export class DiscoveredRegistry<T extends { readonly id: string }> {
  readonly #items = new Map<string, Heard<T>>();
  readonly #listeners = new Set<RegistryListener<T>>();
  #removed = 0;
  #failures = 0;
  /** Told when a listener throws (the registry goes on). */
  onListenerError: ((err: Error) => void) | null = null;

  /** Calls `listener` on every addition, change and removal. Returns an unsubscribe function. */
  subscribe(listener: RegistryListener<T>): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /**
   * The most entries kept: a new one beyond it is not kept (`heard` answers 'full'); entries
   * already kept are never pushed out. Lowering it below the size keeps what is there.
   */
  capacity = Number.POSITIVE_INFINITY;

  /**
   * Records that `item` was heard now: added, changed (if it differs), only refreshed, or not
   * kept because the registry is full.
   */
  heard(item: T, now = Date.now()): RegistryEvent | 'same' | 'full' {
    const old = this.#items.get(item.id);
    if (!old && this.#items.size >= this.capacity) return 'full';
    const entry: Heard<T> = {
      item,
      firstSeen: old?.firstSeen ?? now,
      lastSeen: now,
      count: (old?.count ?? 0) + 1,
    };
    this.#items.set(item.id, entry);
    if (!old) {
      this.#emit('added', item, 'heard');
      return 'added';
    }
    if (isDeepStrictEqual(old.item, item)) return 'same';
    this.#emit('changed', item, 'changed');
    return 'changed';
  }

  /** Changes an entry without counting it as heard (a goodbye marks it gone). */
  replace(item: T): void {
    const old = this.#items.get(item.id);
    if (!old || isDeepStrictEqual(old.item, item)) return;
    this.#items.set(item.id, { ...old, item });
    this.#emit('changed', item, 'changed');
  }

  /** Refreshes the last-heard time of an entry without changing it. */
  touch(id: string, now = Date.now()): void {
    const old = this.#items.get(id);
    if (old) this.#items.set(id, { ...old, lastSeen: now, count: old.count + 1 });
  }

  /** Forgets an entry (a goodbye, a deletion); returns it, or undefined when unknown. */
  remove(id: string, why: string): T | undefined {
    const old = this.#items.get(id);
    if (!old) return undefined;
    this.#items.delete(id);
    this.#removed += 1;
    this.#emit('removed', old.item, why);
    return old.item;
  }

  /** Forgets every entry not heard for `timeoutMs`. */
  expire(timeoutMs: number, now = Date.now()): void {
    for (const [id, entry] of this.#items) {
      if (now - entry.lastSeen >= timeoutMs) {
        this.remove(id, `not heard for ${Math.round(timeoutMs / 1000)} s`);
      }
    }
  }

  get(id: string): Heard<T> | undefined {
    return this.#items.get(id);
  }

  find(predicate: (item: T) => boolean): Heard<T> | undefined {
    for (const entry of this.#items.values()) if (predicate(entry.item)) return entry;
    return undefined;
  }

  /** Every entry, oldest first (in the order they were first heard). */
  list(): Heard<T>[] {
    return [...this.#items.values()];
  }

  /** Entries `offset` to `offset + limit - 1` of list(). */
  page(offset: number, limit: number): Heard<T>[] {
    const out: Heard<T>[] = [];
    let i = 0;
    for (const entry of this.#items.values()) {
      if (i++ < offset) continue;
      if (out.length >= limit) break;
      out.push(entry);
    }
    return out;
  }

  get size(): number {
    return this.#items.size;
  }

  /** How many entries were forgotten since start. */
  get removedCount(): number {
    return this.#removed;
  }

  /**
   * Forgets everything without telling listeners (discovery switched off): what was added stays
   * configured, and goes only if it is not heard within the timeout once discovery is back.
   */
  clear(): void {
    this.#items.clear();
  }

  #emit(event: RegistryEvent, item: T, why: string): void {
    for (const listener of this.#listeners) {
      try {
        listener(event, item, why);
      } catch (err) {
        // A listener's fault is its own: the registry (and the packet that got here) go on.
        this.#failures += 1;
        this.onListenerError?.(err as Error);
      }
    }
  }
}
