// The SAP listener: one UDP socket on the SAP port, joined to the configured multicast groups on
// every interface; each announcement becomes (or refreshes) an entry of the stream registry, a
// deletion from the host that announced the stream removes it, silence longer than
// cleanup_timeout forgets it. What any host can send is bounded: packets beyond a rate per
// sender address are dropped unread, new streams beyond the registry's capacity are not kept.
// Dropped and refused packets are counted by reason and logged at a bounded rate; socket errors
// are logged and reported, never thrown.
import { createSocket, type RemoteInfo, type Socket } from 'node:dgram';
import { SAP_SENDER_RATE, SenderRateLimit } from './limits.js';
import { type DiscoveryLog, DropSummary, interfaceAddresses } from './log.js';
import type { DiscoveredRegistry } from './registry.js';
import { decodeSap, type SapPacket, SapPacketError, SDP_TYPE } from './sap-packet.js';
import { originOf, parseStream, SdpError, type StreamDescription } from './sdp.js';

/** A stream as the registry holds it: its description and where it was heard. */
export interface SapStream extends StreamDescription {
  readonly id: string;
  readonly sap_source: string;
  readonly sender: string;
  readonly hash: number;
}

export interface SapListenerOptions {
  readonly port: number;
  readonly groups: readonly string[];
  /** Seconds of silence after which a stream is forgotten. */
  readonly cleanupTimeoutS: number;
  /** True for packets Tributary sent itself (source address and hash). */
  readonly isOwn: (source: string, hash: number) => boolean;
}

/**
 * A stream's identity: origin user and session id, which survive an address change. A session
 * id of 0 (ffmpeg) names nothing, so then the origin address and the destination count too.
 */
export function streamId(
  origin: StreamDescription['origin'],
  destination?: { address: string | null; port: number },
): string {
  const base = `${origin.username} ${origin.session_id}`;
  if (origin.session_id !== '0') return base;
  const where = destination ? ` ${destination.address ?? '-'}:${destination.port}` : '';
  return `${base} ${origin.address}${where}`;
}

/** What the listener counts: datagrams, what they held, and what it dropped. */
export interface SapCounters {
  packets: number;
  announcements: number;
  deletions: number;
  malformed: number;
  unsupported: number;
  own: number;
  rate_limited: number;
  over_capacity: number;
  deletions_refused: number;
}

/** The counters before anything is heard, and those reported while no listener runs. */
export const NO_SAP_COUNTERS: Readonly<SapCounters> = Object.freeze({
  packets: 0,
  announcements: 0,
  deletions: 0,
  malformed: 0,
  unsupported: 0,
  own: 0,
  rate_limited: 0,
  over_capacity: 0,
  deletions_refused: 0,
});

export class SapListener {
  readonly #registry: DiscoveredRegistry<SapStream>;
  readonly #options: SapListenerOptions;
  readonly #log: DiscoveryLog;
  readonly #drops: DropSummary;
  readonly #rate = new SenderRateLimit();
  #socket: Socket | null = null;
  #expiry: NodeJS.Timeout | null = null;
  #rejoin: NodeJS.Timeout | null = null;
  /** `${sap source}/${hash}` of announcements heard -> stream id, for deletions without SDP. */
  readonly #byHash = new Map<string, string>();
  readonly groups = new Map<string, string | null>();
  state: 'off' | 'running' | 'failed' = 'off';
  error: string | null = null;
  readonly counters: SapCounters = { ...NO_SAP_COUNTERS };
  lastProblem: string | null = null;

  constructor(
    registry: DiscoveredRegistry<SapStream>,
    options: SapListenerOptions,
    log: DiscoveryLog,
  ) {
    this.#registry = registry;
    this.#options = options;
    this.#log = log;
    this.#drops = new DropSummary((m) => log.warn(m), 'SAP');
    for (const g of options.groups) this.groups.set(g, 'not joined yet');
  }

  get port(): number {
    return this.#options.port;
  }

  /** Binds and joins; on failure the state is 'failed' with the reason (nothing is thrown). */
  async start(): Promise<void> {
    // A large receive buffer rides out bursts (a flood is read and counted, not lost unseen).
    const socket = createSocket({ type: 'udp4', reuseAddr: true, recvBufferSize: 1 << 20 });
    this.#socket = socket;
    socket.on('message', (msg, rinfo) => this.handle(msg, rinfo));
    try {
      await new Promise<void>((resolve, reject) => {
        socket.once('error', reject);
        socket.bind(this.#options.port, () => {
          socket.off('error', reject);
          resolve();
        });
      });
    } catch (err) {
      this.#fail(`cannot listen on UDP port ${this.#options.port}: ${(err as Error).message}`);
      socket.close();
      this.#socket = null;
      return;
    }
    socket.on('error', (err) => {
      this.error = err.message;
      this.#log.error(`SAP listener socket error: ${err.message}`);
    });
    this.state = 'running';
    this.#join();
    const { port } = this.#options;
    const joined = [...this.groups].filter(([, e]) => e === null).map(([g]) => g);
    this.#log.info(`SAP: listening on UDP ${port}, groups ${joined.join(', ') || 'none'}`);
    // Groups that could not be joined (no multicast route yet) are tried again.
    this.#rejoin = setInterval(() => this.#join(), 10_000);
    this.#rejoin.unref();
    const timeoutMs = this.#options.cleanupTimeoutS * 1000;
    this.#expiry = setInterval(() => this.#registry.expire(timeoutMs), Math.min(250, timeoutMs));
    this.#expiry.unref();
  }

  #fail(message: string): void {
    this.state = 'failed';
    this.error = message;
    this.#log.error(`SAP listener not started: ${message}`);
  }

  #join(): void {
    const socket = this.#socket;
    if (!socket) return;
    const interfaces = interfaceAddresses();
    for (const [group, error] of this.groups) {
      if (error === null) continue;
      const failures: string[] = [];
      let joined = false;
      for (const iface of interfaces) {
        try {
          socket.addMembership(group, iface.address);
          joined = true;
        } catch (err) {
          failures.push(`${iface.address}: ${(err as NodeJS.ErrnoException).code ?? err}`);
        }
      }
      const why = interfaces.length === 0 ? 'no IPv4 interface' : failures.join(', ');
      if (joined) this.groups.set(group, null);
      else if (why !== error) {
        this.groups.set(group, why);
        this.#log.warn(`SAP: cannot join ${group} (${why}); trying again every 10 s`);
      }
    }
  }

  async stop(): Promise<void> {
    if (this.#expiry) clearInterval(this.#expiry);
    if (this.#rejoin) clearInterval(this.#rejoin);
    this.#expiry = this.#rejoin = null;
    const socket = this.#socket;
    this.#socket = null;
    if (socket) await new Promise<void>((resolve) => socket.close(() => resolve()));
    this.#drops.stop();
    this.state = 'off';
  }

  #drop(
    kind: 'malformed' | 'unsupported' | 'rate_limited' | 'over_capacity',
    from: string,
    why: string,
  ): void {
    this.counters[kind] += 1;
    this.lastProblem = `${from}: ${why}`;
    this.#drops.write(kind, `dropped a packet from ${from} (${kind}): ${why}`);
  }

  /** One datagram: decoded, and the registry told. Never throws. */
  handle(datagram: Buffer, rinfo: Pick<RemoteInfo, 'address'>): void {
    this.counters.packets += 1;
    if (!this.#rate.allow(rinfo.address)) {
      this.#drop('rate_limited', rinfo.address, `over ${SAP_SENDER_RATE} packets/s`);
      return;
    }
    let packet: ReturnType<typeof decodeSap>;
    try {
      packet = decodeSap(datagram);
    } catch (err) {
      const reason = err instanceof SapPacketError ? err.reason : 'malformed';
      this.#drop(reason, rinfo.address, (err as Error).message);
      return;
    }
    if (packet.payloadType !== SDP_TYPE) {
      this.#drop('unsupported', rinfo.address, `payload type ${packet.payloadType.slice(0, 40)}`);
      return;
    }
    if (this.#options.isOwn(packet.source, packet.hash)) {
      this.counters.own += 1;
      return;
    }
    const hashKey = `${packet.source}/${packet.hash}`;
    try {
      if (packet.type === 'delete') {
        this.#delete(packet, rinfo.address, hashKey);
        return;
      }
      const description = parseStream(packet.payload);
      const stream: SapStream = {
        ...description,
        id: streamId(description.origin, description),
        sap_source: packet.source,
        sender: rinfo.address,
        hash: packet.hash,
      };
      this.counters.announcements += 1;
      if (this.#registry.heard(stream) === 'full') {
        const cap = this.#registry.capacity;
        this.#drop(
          'over_capacity',
          rinfo.address,
          `'${stream.name}' not kept: ${cap} streams kept`,
        );
        return;
      }
      this.#byHash.set(hashKey, stream.id);
      if (this.#byHash.size > 4096) this.#byHash.delete(this.#byHash.keys().next().value!);
    } catch (err) {
      const why = err instanceof SdpError ? `SDP ${err.message}` : (err as Error).message;
      this.#drop('malformed', rinfo.address, why);
    }
  }

  /**
   * A deletion removes its stream only when it comes from the address that announced it and
   * names the same originating source; any other is refused, counted and logged.
   */
  #delete(packet: SapPacket, from: string, hashKey: string): void {
    this.counters.deletions += 1;
    const id = this.#byHash.get(hashKey) ?? this.#deletedId(packet.payload);
    const stream = id === null ? undefined : this.#registry.get(id)?.item;
    if (!stream) return;
    if (stream.sender !== from || stream.sap_source !== packet.source) {
      this.counters.deletions_refused += 1;
      const why =
        `refused a deletion of '${stream.name}' from ${from} (origin ${packet.source}): ` +
        `announced by ${stream.sender} (origin ${stream.sap_source})`;
      this.lastProblem = `${from}: ${why}`;
      this.#drops.write('deletions_refused', why);
      return;
    }
    this.#registry.remove(stream.id, 'deleted by its sender');
    this.#byHash.delete(hashKey);
  }

  /** The stream a deletion names by its SDP (full, or only the o= line). */
  #deletedId(payload: string): string | null {
    try {
      const description = parseStream(payload);
      return streamId(description.origin, description);
    } catch {
      const origin = originOf(payload);
      if (!origin) return null;
      const id = streamId(origin);
      if (origin.session_id !== '0') return id;
      // A weak id needs the destination the o= line lacks: the one stream from that origin.
      const match = this.#registry.find((s) => s.id.startsWith(`${id} `));
      return match?.item.id ?? null;
    }
  }
}
