// The one mDNS endpoint (bonjour-service on multicast-dns: UDP 5353, group 224.0.0.251) that the
// advertiser and the browser share. It never takes the daemon down: bind errors (EADDRINUSE,
// EACCES) are reported, undecodable packets counted, and a packet that makes a listener throw
// (bad records) is dropped and counted instead of escaping as an uncaught exception.
import { createSocket } from 'node:dgram';
import { Bonjour } from 'bonjour-service';
import type { DiscoveryLog } from './log.js';
import { RateLimitedLog } from './log.js';

/** The multicast-dns instance inside bonjour-service (not in its types). */
export interface MulticastDns {
  on(event: string, listener: (...args: never[]) => void): void;
  off(event: string, listener: (...args: never[]) => void): void;
  emit(event: string, ...args: unknown[]): boolean;
  query(q: unknown, type?: unknown, cb?: (err: Error | null) => void): void;
  respond(res: unknown, cb?: (err: Error | null) => void): void;
}

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
  readonly counters = { packets: 0, malformed: 0, queries_sent: 0 };
  state: 'off' | 'running' | 'failed' = 'off';
  error: string | null = null;
  readonly #log: DiscoveryLog;
  readonly #drops: RateLimitedLog;

  private constructor(log: DiscoveryLog, options: MdnsEndpointOptions) {
    this.#log = log;
    this.#drops = new RateLimitedLog((m) => log.warn(m));
    // Our own socket (multicast-dns binds it), so every datagram is counted, decodable or not.
    const socket = createSocket({ type: 'udp4', reuseAddr: true, recvBufferSize: 1 << 20 });
    socket.on('message', () => {
      this.counters.packets += 1;
    });
    this.bonjour = new Bonjour({ port: options.port ?? 5353, socket } as never, (err: Error) =>
      this.#fault(err),
    );
    this.mdns = (this.bonjour as unknown as { server: { mdns: MulticastDns } }).server.mdns;
    this.mdns.on('error', (err: Error) => this.#fault(err));
    this.mdns.on('warning', (err: NodeJS.ErrnoException) => {
      // multicast-dns warns about undecodable packets (no code) and interface trouble (a code).
      if (err.code) this.#log.debug(`mDNS: ${err.message}`);
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
    if (this.state === 'running') {
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, 1000);
        this.bonjour.unpublishAll(() => {
          clearTimeout(timer);
          resolve();
        });
      });
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
