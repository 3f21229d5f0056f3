// The MP3 streams of all sinks: which sink an address streams, one hub per sink (kept for its
// statistics after the last listener leaves), and hubs ended when their sink changes.
import type { ServerResponse } from 'node:http';
import type { ConfigSnapshot } from '../config/store.js';
import { kernelSendQueue } from '../http/send-queue.js';
import type { Sink } from '../schema/sink.js';
import type { EngineService } from '../services/engine/service.js';
import { Mp3Hub } from './mp3-hub.js';
import type { StreamStats } from './schema.js';

interface Entry {
  readonly hub: Mp3Hub;
  readonly sink: Sink;
}

/** The real, enabled sink at `ip` (the lowest port when several share it), or null. */
export function sinkAt(sinks: readonly Sink[], ip: string): Sink | null {
  const wanted = ip.toLowerCase();
  let best: Sink | null = null;
  for (const s of sinks) {
    if (s.is_group || !s.enabled || s.ip?.toLowerCase() !== wanted) continue;
    if (!best || (s.port ?? 0) < (best.port ?? 0)) best = s;
  }
  return best;
}

/** The kernel's send queue of a response's TCP connection (through TLS too), or 0. */
export function kernelQueued(res: ServerResponse): number {
  return kernelSendQueue(res.socket);
}

/**
 * Whether a hub made for `a` still serves `b`: same address, rate and MP3 settings (players
 * reconnect to a changed stream rather than meet a new format mid-stream).
 */
function sameStream(a: Sink, b: Sink): boolean {
  return (
    a.ip === b.ip &&
    a.sample_rate === b.sample_rate &&
    a.enabled === b.enabled &&
    a.mp3.bitrate === b.mp3.bitrate &&
    a.mp3.max_listeners === b.mp3.max_listeners
  );
}

export class Mp3Streams {
  readonly #engine: EngineService;
  readonly #hubs = new Map<string, Entry>();
  #sinks: readonly Sink[] = [];

  constructor(engine: EngineService) {
    this.#engine = engine;
  }

  /** Follows the configuration: hubs of sinks gone or changed end their listeners. */
  update(snapshot: Pick<ConfigSnapshot, 'config'>): void {
    this.#sinks = snapshot.config.sinks;
    for (const [id, entry] of this.#hubs) {
      const now = this.#sinks.find((s) => s.config_id === id);
      if (!now || !sameStream(entry.sink, now)) {
        entry.hub.close();
        this.#hubs.delete(id);
      }
    }
  }

  /** The sink `ip` streams, or null. */
  find(ip: string): Sink | null {
    return sinkAt(this.#sinks, ip);
  }

  /** The hub of `sink` (made on first use). */
  hub(sink: Sink): Mp3Hub {
    const entry = this.#hubs.get(sink.config_id);
    if (entry) return entry.hub;
    const hub = new Mp3Hub(
      (onFrames) => {
        const stream = this.#engine.listenMp3(sink.config_id, sink.mp3.bitrate, onFrames);
        if (!stream) throw new Error('the audio engine is not running');
        return stream;
      },
      { bitrateKbps: sink.mp3.bitrate, maxListeners: sink.mp3.max_listeners, kernelQueued },
    );
    this.#hubs.set(sink.config_id, { hub, sink });
    return hub;
  }

  stats(): StreamStats[] {
    return [...this.#hubs.values()].map(({ hub, sink }) => ({
      sink: sink.name,
      config_id: sink.config_id,
      ip: sink.ip ?? '',
      format: 'mp3' as const,
      bitrate_kbps: hub.bitrateKbps,
      ...hub.stats(),
    }));
  }

  /** Ends every listener and encoder (the daemon is closing). */
  close(): void {
    for (const { hub } of this.#hubs.values()) hub.close();
    this.#hubs.clear();
  }
}
