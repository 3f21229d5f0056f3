// The records the mDNS endpoint answers from (bonjour-service's server registry, by type), held
// by the services that publish them. Several services share records: every instance has the
// service type's PTR in `_services._dns-sd._udp.local` and the host's address records. A
// record leaves the registry only when the last service holding it lets go, and only that exact
// record: bonjour-service's own `unregister` drops every record of the same name and type, so
// one renamed sink took every other instance's PTR and the host's address with it (the soak
// found it: a browser started after a rename saw none of the others).
import { type DnsRecord, recordKey } from './mdns-packets.js';

interface Held {
  readonly record: DnsRecord;
  holders: number;
}

export class RecordBook {
  readonly #registry: Record<string, DnsRecord[]>;
  readonly #held = new Map<string, Held>();

  constructor(registry: Record<string, DnsRecord[]>) {
    this.#registry = registry;
  }

  /** Holds `records` (each once more); a record not yet held enters the registry. */
  hold(records: readonly DnsRecord[]): void {
    for (const record of records) {
      const key = recordKey(record);
      const held = this.#held.get(key);
      if (held) {
        held.holders += 1;
        continue;
      }
      this.#held.set(key, { record, holders: 1 });
      const list = this.#registry[record.type];
      if (list) list.push(record);
      else this.#registry[record.type] = [record];
    }
  }

  /**
   * Lets go of `records` (each once); returns those nobody holds any more, which have left the
   * registry (the caller says goodbye to them).
   */
  release(records: readonly DnsRecord[]): DnsRecord[] {
    const gone: DnsRecord[] = [];
    for (const record of records) {
      const key = recordKey(record);
      const held = this.#held.get(key);
      if (!held) continue;
      held.holders -= 1;
      if (held.holders > 0) continue;
      this.#held.delete(key);
      const list = this.#registry[record.type] ?? [];
      const at = list.indexOf(held.record);
      if (at !== -1) list.splice(at, 1);
      gone.push(held.record);
    }
    return gone;
  }

  /** Lets go of everything; returns every record that was held. */
  releaseAll(): DnsRecord[] {
    const all = [...this.#held.values()].map((h) => h.record);
    this.#held.clear();
    for (const type of Object.keys(this.#registry)) this.#registry[type] = [];
    return all;
  }

  /** Distinct records held. */
  get size(): number {
    return this.#held.size;
  }
}
