// The SAP announcer: every enabled RTP sink is announced every `interval` seconds to the SAP
// groups, with multicast TTL `ttl`; when a sink is removed, disabled or changed so it no longer
// sends RTP, and when the daemon stops, a deletion goes out instead. The SDP says what the
// engine sends: L16 (payload type 127, or 10/11 at 44.1 kHz) or L24 (97), its rate, channels and
// packet time.
import { createSocket, type Socket } from 'node:dgram';
import type { Config } from '../../schema/files.js';
import { type DiscoveryLog, originAddress, RateLimitedLog } from './log.js';
import { encodeSap, sapHash } from './sap-packet.js';
import { type Announcement, announcementSdp } from './sdp.js';

/** Bytes of audio per RTP packet the engine sends (as many whole frames as fit). */
const RTP_PAYLOAD = 1152;
/** Seconds from 1900 (NTP) to 1970: RFC 8866 recommends NTP timestamps for o= versions. */
const NTP_OFFSET = 2_208_988_800;

type Sink = Config['sinks'][number];

/** The sinks that send RTP now: real, enabled, with an address and 16 or 24 bits. */
export function rtpSinks(config: Pick<Config, 'sinks'>): Sink[] {
  return config.sinks.filter(
    (s) =>
      !s.is_group &&
      s.enabled &&
      s.protocol === 'rtp' &&
      s.ip !== null &&
      s.port !== null &&
      (s.bit_depth === 16 || s.bit_depth === 24),
  );
}

/** A stable 32-bit session id from a sink's config_id (never 0). */
export function sessionIdOf(configId: string): string {
  return String(Number.parseInt(configId.replaceAll('-', '').slice(0, 8), 16) || 1);
}

/** What the announcement of `sink` says (without its version). */
export function describeSink(
  sink: Sink,
  origin: string,
  ttl: number,
): Omit<Announcement, 'version'> {
  const bytes = sink.bit_depth === 24 ? 3 : 2;
  const frames = Math.max(1, Math.floor(RTP_PAYLOAD / (bytes * sink.channels)));
  return {
    name: sink.name,
    info: `Tributary RTP sink '${sink.name}'`,
    origin,
    session_id: sessionIdOf(sink.config_id),
    destination: sink.ip!,
    ttl,
    port: sink.port!,
    payload_type: sink.payload_type ?? defaultPayloadType(sink),
    encoding: sink.bit_depth === 24 ? 'L24' : 'L16',
    sample_rate: sink.sample_rate,
    channels: sink.channels,
    ptime: (frames / sink.sample_rate) * 1000,
  };
}

export interface SapAnnouncerOptions {
  readonly groups: readonly string[];
  readonly port: number;
  readonly intervalS: number;
  readonly ttl: number;
}

interface Announced {
  readonly described: Omit<Announcement, 'version'>;
  readonly announce: Buffer;
  readonly remove: Buffer;
  readonly hash: number;
}

export class SapAnnouncer {
  readonly #options: SapAnnouncerOptions;
  readonly #log: DiscoveryLog;
  readonly #errors: RateLimitedLog;
  readonly #announced = new Map<string, Announced>();
  /** Hashes this announcer has used (its own packets, heard back by the listener). */
  readonly #ownHashes = new Set<number>();
  #origin = originAddress();
  #socket: Socket | null = null;
  #timer: NodeJS.Timeout | null = null;
  state: 'off' | 'running' | 'failed' = 'off';
  error: string | null = null;
  readonly counters = { sent: 0, deletions: 0, send_errors: 0 };
  lastError: string | null = null;

  constructor(options: SapAnnouncerOptions, log: DiscoveryLog) {
    this.#options = options;
    this.#log = log;
    this.#errors = new RateLimitedLog((m) => log.warn(m), 3);
  }

  async start(): Promise<void> {
    const socket = createSocket({ type: 'udp4', reuseAddr: true });
    try {
      await new Promise<void>((resolve, reject) => {
        socket.once('error', reject);
        socket.bind(0, () => {
          socket.off('error', reject);
          resolve();
        });
      });
      socket.setMulticastTTL(this.#options.ttl);
      socket.setMulticastLoopback(true);
    } catch (err) {
      this.state = 'failed';
      this.error = `cannot open the announcement socket: ${(err as Error).message}`;
      this.#log.error(`SAP announcer not started: ${this.error}`);
      socket.close();
      return;
    }
    socket.on('error', (err) => this.#sendError(err));
    this.#socket = socket;
    this.state = 'running';
    this.#timer = setInterval(() => this.#announceAll(), this.#options.intervalS * 1000);
    this.#timer.unref();
  }

  /** True for a packet this announcer sent (its origin address and one of its hashes). */
  isOwn(source: string, hash: number): boolean {
    return source === this.#origin && this.#ownHashes.has(hash);
  }

  get announced(): number {
    return this.#announced.size;
  }

  /** Announces exactly these sinks: new ones at once, changed ones with a new version, and a
   * deletion for each one no longer listed. */
  update(sinks: readonly Sink[]): void {
    if (this.state !== 'running') return;
    this.#origin = originAddress();
    const wanted = new Map(sinks.map((s) => [s.config_id, s]));
    for (const [id, old] of this.#announced) {
      if (!wanted.has(id)) {
        this.#send(old.remove, true);
        this.#announced.delete(id);
        this.#log.info(`SAP: stopped announcing '${old.described.name}' (deletion sent)`);
      }
    }
    for (const sink of wanted.values()) {
      const described = describeSink(sink, this.#origin, this.#options.ttl);
      const old = this.#announced.get(sink.config_id);
      if (old && JSON.stringify(old.described) === JSON.stringify(described)) continue;
      if (old) this.#send(old.remove, true);
      const version = Math.floor(Date.now() / 1000) + NTP_OFFSET;
      const sdp = announcementSdp({ ...described, version });
      const hash = sapHash(sdp);
      this.#ownHashes.add(hash);
      const packet = (type: 'announce' | 'delete') =>
        encodeSap({ type, hash, source: this.#origin, payload: sdp });
      const entry = { described, announce: packet('announce'), remove: packet('delete'), hash };
      this.#announced.set(sink.config_id, entry);
      this.#log.info(
        `SAP: announcing '${sink.name}' (${described.encoding}/${described.sample_rate}/` +
          `${described.channels} to ${described.destination}:${described.port})`,
      );
      this.#send(entry.announce, false);
    }
  }

  #announceAll(): void {
    for (const a of this.#announced.values()) this.#send(a.announce, false);
  }

  #send(packet: Buffer, deletion: boolean): void {
    const socket = this.#socket;
    if (!socket) return;
    for (const group of this.#options.groups) {
      socket.send(packet, this.#options.port, group, (err) => {
        if (err) this.#sendError(err);
        else if (deletion) this.counters.deletions += 1;
        else this.counters.sent += 1;
      });
    }
  }

  #sendError(err: Error): void {
    this.counters.send_errors += 1;
    this.lastError = err.message;
    this.#errors.write(`SAP: an announcement could not be sent: ${err.message}`);
  }

  /** Sends a deletion for every announced stream, waits for them to leave, closes. */
  async stop(): Promise<void> {
    if (this.#timer) clearInterval(this.#timer);
    this.#timer = null;
    const socket = this.#socket;
    if (socket) {
      const sends: Promise<void>[] = [];
      for (const a of this.#announced.values()) {
        for (const group of this.#options.groups) {
          sends.push(
            new Promise((resolve) =>
              socket.send(a.remove, this.#options.port, group, (err) => {
                if (!err) this.counters.deletions += 1;
                resolve();
              }),
            ),
          );
        }
      }
      await Promise.all(sends);
      this.#socket = null;
      await new Promise<void>((resolve) => socket.close(() => resolve()));
    }
    this.#announced.clear();
    this.state = 'off';
  }
}

/**
 * The payload type an RTP sink sends when none is set (the engine's rule): the static type of
 * RFC 3551 where its format has one (10: L16 44.1 kHz stereo, 11: mono), else 127 (L16) or 97
 * (L24). 127 because PulseAudio's module-rtp-recv plays L16 only under 10, 11 or 127 (the type it
 * derives from the format, whatever the SDP says); L24 keeps 97, which PulseAudio refuses, where
 * under 127 it would play the L24 bytes as 16-bit noise.
 */
export function defaultPayloadType(sink: {
  bit_depth: number;
  sample_rate: number;
  channels: number;
}): number {
  if (sink.bit_depth === 16 && sink.sample_rate === 44100 && sink.channels <= 2) {
    return sink.channels === 2 ? 10 : 11;
  }
  return sink.bit_depth === 24 ? 97 : 127;
}
