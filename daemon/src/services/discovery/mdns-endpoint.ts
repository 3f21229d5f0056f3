// The one mDNS endpoint (bonjour-service on multicast-dns: UDP 5353, group 224.0.0.251) that the
// advertiser and the browser share. It never takes the daemon down: bind errors (EADDRINUSE,
// EACCES) are reported, undecodable packets counted, and a packet that makes a listener throw
// (bad records) is dropped and counted instead of escaping as an uncaught exception.
// Every datagram it sends goes through one place: responses are split to fit the mDNS size limit
// (mdns-packets.ts), and a failed send is counted, retried with backoff and, once sending works
// again, followed by announcing everything published again (the endpoint stays up meanwhile).
import { createSocket } from 'node:dgram';
import { Bonjour } from 'bonjour-service';
import type { DiscoveryLog } from './log.js';
import { RateLimitedLog } from './log.js';
import {
  type DnsRecord,
  type DnsResponse,
  MDNS_MAX_PACKET,
  mdnsPayloadLimit,
  splitResponse,
} from './mdns-packets.js';
import { RecordBook } from './mdns-record-book.js';
import { MdnsResponder, type QueryPacket, type RecordSource } from './mdns-responder.js';

/** The multicast-dns instance inside bonjour-service (not in its types). */
export interface MulticastDns {
  on(event: string, listener: (...args: never[]) => void): void;
  off(event: string, listener: (...args: never[]) => void): void;
  removeAllListeners(event: string): void;
  emit(event: string, ...args: unknown[]): boolean;
  query(q: unknown, type?: unknown, cb?: (err: Error | null) => void): void;
  respond(res: unknown, cb?: (err: Error | null) => void): void;
  send(value: DnsResponse, rinfo: unknown, cb?: (err?: Error | null) => void): void;
}

/** Send errors: the first retry after this, doubling up to RETRY_MAX_MS. */
const RETRY_FIRST_MS = 1000;
const RETRY_MAX_MS = 30_000;
/** How long a computed size limit is used before the interfaces are read again. */
const LIMIT_TTL_MS = 10_000;
/**
 * A response split into many packets goes out PACE_BURST packets every PACE_MS (about 2 MB/s
 * at 1,500 bytes), so a receiver's socket buffer (Linux's default holds about 90 such packets)
 * is not overrun by one burst.
 */
const PACE_BURST = 16;
const PACE_MS = 10;

/** What the endpoint reports about its traffic (also while none runs). */
export interface MdnsCounters {
  packets: number;
  malformed: number;
  queries_sent: number;
  packets_sent: number;
  split_responses: number;
  max_packet_bytes: number;
  send_errors: number;
  sending: 'ok' | 'failing';
  last_send_error: string | null;
  recovered_at: string | null;
}

export const NO_MDNS_COUNTERS: Readonly<MdnsCounters> = Object.freeze({
  packets: 0,
  malformed: 0,
  queries_sent: 0,
  packets_sent: 0,
  split_responses: 0,
  max_packet_bytes: 0,
  send_errors: 0,
  sending: 'ok',
  last_send_error: null,
  recovered_at: null,
});

/** The multicast-dns send callback may come before or without an error argument. */
type SendCallback = (err?: Error | null) => void;

export interface MdnsRecord {
  name: string;
  type: string;
  ttl: number;
  data: unknown;
  flush?: boolean;
}
export interface MdnsPacket {
  answers: MdnsRecord[];
  additionals: MdnsRecord[];
}

export interface MdnsEndpointOptions {
  /** UDP port (5353; tests inside their own network namespace use it too). */
  readonly port?: number;
}

export class MdnsEndpoint {
  readonly bonjour: Bonjour;
  readonly mdns: MulticastDns;
  /** The records published (the advertiser's services hold them; the responder answers). */
  readonly book: RecordBook;
  readonly counters = { packets: 0, malformed: 0, queries_sent: 0 };
  readonly #sends = { packets_sent: 0, split_responses: 0, send_errors: 0 };
  state: 'off' | 'running' | 'failed' = 'off';
  error: string | null = null;
  #sending: 'ok' | 'failing' = 'ok';
  #lastSendError: string | null = null;
  #recoveredAt: string | null = null;
  #retry: NodeJS.Timeout | null = null;
  #retryMs = RETRY_FIRST_MS;
  #limit = { bytes: 0, at: Number.NEGATIVE_INFINITY };
  #closed = false;
  readonly #log: DiscoveryLog;
  readonly #drops: RateLimitedLog;
  readonly #sendLog: RateLimitedLog;
  readonly #responder: MdnsResponder;

  private constructor(log: DiscoveryLog, options: MdnsEndpointOptions) {
    this.#log = log;
    this.#drops = new RateLimitedLog((m) => log.warn(m));
    this.#sendLog = new RateLimitedLog((m) => log.warn(m), 3);
    // Our own socket (multicast-dns binds it), so every datagram is counted, decodable or not.
    const socket = createSocket({ type: 'udp4', reuseAddr: true, recvBufferSize: 1 << 20 });
    socket.on('message', () => {
      this.counters.packets += 1;
    });
    // bonjour-service reports a failed answer here; the send wrapper below has counted it.
    this.bonjour = new Bonjour({ port: options.port ?? 5353, socket } as never, () => {});
    const server = (this.bonjour as unknown as { server: RecordSource & { mdns: MulticastDns } })
      .server;
    this.mdns = server.mdns;
    this.book = new RecordBook(server.registry);
    // Queries are answered by our responder (known answers left out), not bonjour-service's.
    this.mdns.removeAllListeners('query');
    this.#responder = new MdnsResponder(server, (res) => this.mdns.respond(res, () => {}));
    this.mdns.on('query', ((packet: QueryPacket, rinfo: { address: string; port: number }) =>
      this.#responder.query(packet, rinfo)) as never);
    // Binding failed (EADDRINUSE, EACCES): the endpoint is down until the service retries it.
    this.mdns.on('error', (err: Error) => this.#fault(err));
    const send = this.mdns.send.bind(this.mdns);
    this.mdns.send = (value, rinfo, cb) =>
      typeof rinfo === 'function'
        ? this.#send(send, value, null, rinfo as SendCallback)
        : this.#send(send, value, rinfo, cb);
    this.mdns.on('warning', (err: NodeJS.ErrnoException) => {
      // multicast-dns warns about undecodable packets and about interface trouble.
      if (isSocketTrouble(err)) this.#log.debug(`mDNS: ${err.message}`);
      else this.#malformed(`undecodable packet: ${err.message}`);
    });
    // A listener throwing on a hostile packet would escape through the socket's 'message'
    // handler and end the process: catch it here, drop the packet, count it.
    const emit = this.mdns.emit.bind(this.mdns);
    this.mdns.emit = (event: string, ...args: unknown[]) => {
      try {
        return emit(event, ...args);
      } catch (err) {
        if (event === 'error') throw err;
        this.#malformed(`a ${event} could not be read: ${(err as Error).message}`);
        return false;
      }
    };
  }

  /** Opens the endpoint; resolves once bound, or failed (state and error say why). */
  static async open(log: DiscoveryLog, options: MdnsEndpointOptions = {}): Promise<MdnsEndpoint> {
    const endpoint = new MdnsEndpoint(log, options);
    await new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, 2000);
      const done = () => {
        clearTimeout(timer);
        resolve();
      };
      endpoint.mdns.on('ready', done);
      endpoint.mdns.on('error', done);
    });
    if (endpoint.state !== 'failed') endpoint.state = 'running';
    return endpoint;
  }

  /** The size limit of a DNS message we send (the interface MTU, 9000 bytes at most). */
  get maxPayload(): number {
    const now = performance.now();
    if (now - this.#limit.at > LIMIT_TTL_MS) this.#limit = { bytes: mdnsPayloadLimit(), at: now };
    return this.#limit.bytes;
  }

  /** Every datagram: a response split to fit, each part sent, its outcome counted. */
  #send(
    send: MulticastDns['send'],
    value: DnsResponse,
    rinfo: unknown,
    cb: SendCallback | undefined,
  ): void {
    let parts: DnsResponse[] = [value];
    if (value.type === 'response') {
      const split = splitResponse(value, this.maxPayload);
      for (const r of split.dropped) {
        // Not a failing network: counted and logged, but nothing to retry.
        this.#sendFailed(new Error(`record ${r.type} ${r.name} does not fit in a packet`), false);
      }
      parts = split.packets;
      if (parts.length > 1) this.#sends.split_responses += 1;
    }
    let pending = parts.length;
    let first: Error | null = null;
    if (pending === 0) return void cb?.(null);
    const done = (err?: Error | null) => {
      if (err) {
        first ??= err;
        this.#sendFailed(err);
      } else this.#sent();
      if (--pending === 0) cb?.(first);
    };
    // Goodbyes at close are paced too: multicast-dns drops what comes after its socket closed.
    const batch = (from: number) => {
      for (const part of parts.slice(from, from + PACE_BURST)) send(part, rinfo, done);
      if (from + PACE_BURST < parts.length) {
        setTimeout(() => batch(from + PACE_BURST), PACE_MS).unref();
      }
    };
    batch(0);
  }

  #sent(): void {
    this.#sends.packets_sent += 1;
    if (this.#sending === 'ok') return;
    this.#sending = 'ok';
    this.#recoveredAt = new Date().toISOString();
    if (this.#retry) clearTimeout(this.#retry);
    this.#retry = null;
    this.#retryMs = RETRY_FIRST_MS;
    this.#log.info(`mDNS: sending works again (last error: ${this.#lastSendError})`);
    this.#announceAll();
  }

  #sendFailed(err: Error, retry = true): void {
    this.#sends.send_errors += 1;
    this.#lastSendError = `${err.message} (${new Date().toISOString()})`;
    this.#sendLog.write(`mDNS: a send failed: ${err.message}`);
    if (!retry || this.#sending === 'failing' || this.#closed) return;
    this.#sending = 'failing';
    this.#scheduleRetry();
  }

  /** While sends fail: a small query every RETRY_FIRST_MS, doubling to RETRY_MAX_MS. */
  #scheduleRetry(): void {
    if (this.#retry || this.#closed) return;
    this.#retry = setTimeout(() => {
      this.#retry = null;
      if (this.#sending === 'ok' || this.#closed) return;
      this.#retryMs = Math.min(this.#retryMs * 2, RETRY_MAX_MS);
      // The meta-query of RFC 6763 section 9: harmless, and answered by every responder.
      this.mdns.query([{ name: '_services._dns-sd._udp.local', type: 'PTR' }], undefined, (err) => {
        if (err) this.#scheduleRetry();
      });
    }, this.#retryMs);
    this.#retry.unref();
  }

  /** Announces every record published again (sends may have been lost while they failed). */
  #announceAll(): void {
    const registry = (
      this.bonjour as unknown as { server: { registry: Record<string, DnsRecord[]> } }
    ).server.registry;
    const all = Object.values(registry).flat();
    if (all.length === 0) return;
    const answers = all.filter((r) => r.type === 'PTR');
    const additionals = all.filter((r) => r.type !== 'PTR');
    this.mdns.respond({ answers, additionals }, () => {});
  }

  /** The counters and the state of sending. */
  status(): MdnsCounters {
    return {
      ...this.counters,
      ...this.#sends,
      max_packet_bytes: Math.min(this.maxPayload + 28, MDNS_MAX_PACKET),
      sending: this.#sending,
      last_send_error: this.#lastSendError,
      recovered_at: this.#recoveredAt,
    };
  }

  #fault(err: Error): void {
    if (this.state === 'failed') return;
    this.state = 'failed';
    this.error = `mDNS socket: ${err.message}`;
    this.#log.error(`mDNS not available: ${err.message}`);
  }

  #malformed(why: string): void {
    this.counters.malformed += 1;
    this.#drops.write(`mDNS: dropped a packet: ${why}`);
  }

  /** Counts a record the browser found unusable (a TXT too large, ...). */
  dropped(why: string): void {
    this.#malformed(why);
  }

  query(name: string, type: string): void {
    if (this.state !== 'running') return;
    this.counters.queries_sent += 1;
    this.mdns.query([{ name, type }], undefined, () => {});
  }

  /** Sends goodbyes for everything published, then closes the socket. */
  async close(): Promise<void> {
    this.#closed = true;
    this.#responder.stop();
    if (this.#retry) clearTimeout(this.#retry);
    this.#retry = null;
    if (this.state === 'running') {
      const goodbyes = this.book.releaseAll().map((r) => ({ ...r, ttl: 0 }));
      if (goodbyes.length > 0) {
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, 1000);
          this.mdns.respond(goodbyes, () => {
            clearTimeout(timer);
            resolve();
          });
        });
      }
    }
    await new Promise<void>((resolve) => {
      try {
        this.bonjour.destroy(() => resolve());
      } catch {
        resolve();
      }
    });
    this.state = 'off';
  }
}

/**
 * Whether a warning of multicast-dns is about the socket or an interface (a failed system call:
 * joining the group on an interface that went away), not a packet. A packet that does not
 * decode can fail with a code too (a read past its end: ERR_OUT_OF_RANGE, about 1 in 66,000
 * random packets), and is counted as malformed like any other.
 */
export function isSocketTrouble(err: NodeJS.ErrnoException): boolean {
  return typeof err.syscall === 'string';
}
