// One service the advertiser publishes: its records held in the endpoint's record book (so the
// responder answers for it), announced three times (RFC 6762 section 8.3: at least twice, one
// second apart, intervals doubling), a changed TXT re-announced with the cache-flush bit, and a
// goodbye (TTL 0) for the records nobody else holds when it stops.
//
// In place of bonjour-service's `publish`, which kept re-announcing the records it was
// published with for an hour (intervals x3 up to 60 min): after a TXT change those
// re-announcements carried the old TXT, and a stopped service stayed in memory until its next
// timer fired, up to 40 minutes later (the soak counted 17 sink services for 8 sinks).
import { Service } from 'bonjour-service';
import type { DnsRecord } from './mdns-packets.js';
import type { RecordBook } from './mdns-record-book.js';

/** Gaps between the announcements after the first. */
export const ANNOUNCE_GAPS_MS = [1000, 2000] as const;
/** Longest wait for a goodbye to be sent before stopping goes on. */
const GOODBYE_WAIT_MS = 1000;

/** What a published service sends through: the endpoint's multicast-dns `respond`. */
export interface Responder {
  respond(records: DnsRecord[], cb?: (err: Error | null) => void): void;
}

export interface ServiceConfig {
  name: string;
  type: string;
  protocol: 'tcp' | 'udp';
  port: number;
  host: string;
  subtypes: string[];
  txt: object;
}

export class PublishedService {
  readonly fqdn: string;
  readonly #service: Service;
  readonly #book: RecordBook;
  readonly #mdns: Responder;
  #records: DnsRecord[];
  #timer: NodeJS.Timeout | null = null;
  #stopped = false;

  constructor(config: ServiceConfig, book: RecordBook, mdns: Responder) {
    // bonjour-service's Service only builds the records (PTR, SRV, TXT, subtypes, addresses).
    const unused = () => {};
    this.#service = new Service(
      { ...config, txt: config.txt as never, disableIPv6: true, probe: false },
      unused,
      unused,
    );
    this.fqdn = this.#service.fqdn;
    this.#book = book;
    this.#mdns = mdns;
    this.#records = this.#service.records() as DnsRecord[];
    book.hold(this.#records);
    this.#announce(0);
  }

  #announce(step: number): void {
    this.#timer = null;
    if (this.#stopped) return;
    this.#mdns.respond(this.#records, () => {});
    const gap = ANNOUNCE_GAPS_MS[step];
    if (gap !== undefined) {
      this.#timer = setTimeout(() => this.#announce(step + 1), gap);
      this.#timer.unref();
    }
  }

  /** Replaces the TXT record and announces it with the cache-flush bit. */
  setTxt(txt: object): void {
    if (this.#stopped) return;
    const old = this.#records.filter((r) => r.type === 'TXT');
    this.#service.txt = txt;
    const fresh = this.#service.records().filter((r) => r.type === 'TXT') as DnsRecord[];
    this.#book.hold(fresh);
    this.#book.release(old);
    this.#records = [...this.#records.filter((r) => r.type !== 'TXT'), ...fresh];
    this.#mdns.respond(
      fresh.map((r) => ({ ...r, flush: true })),
      () => {},
    );
  }

  /** Stops announcing, keeping its records (the endpoint's close says goodbye to them). */
  halt(): void {
    this.#stopped = true;
    if (this.#timer) clearTimeout(this.#timer);
    this.#timer = null;
  }

  /** Stops announcing and says goodbye to the records no other service holds. */
  stop(): Promise<void> {
    if (this.#stopped) return Promise.resolve();
    this.halt();
    const gone = this.#book.release(this.#records);
    if (gone.length === 0) return Promise.resolve();
    return new Promise((resolve) => {
      // The endpoint calls back once sent or failed; the timer only guards a closed socket.
      const timer = setTimeout(resolve, GOODBYE_WAIT_MS);
      this.#mdns.respond(
        gone.map((r) => ({ ...r, ttl: 0 })),
        () => {
          clearTimeout(timer);
          resolve();
        },
      );
    });
  }
}
