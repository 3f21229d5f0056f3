// The engine service: starts the native audio engine, applies the solver's output on every
// configuration change, reports statistics, and stops the engine with the app.
import { Engine, type EngineState } from '@tributary/native';
import type { ConfigSnapshot } from '../config/store.js';
import { solve } from '../solver/solve.js';
import type { SolverOutput } from '../solver/types.js';
import type { StatsMessage } from './schema.js';
import type { EngineSettings } from './settings.js';

export interface EngineLogger {
  info(msg: string): void;
  warn(msg: string): void;
  error(msg: string): void;
}

/** The solver's output in the binding's shape (nulls become absent fields). */
export function toEngineState(out: SolverOutput): EngineState {
  return {
    sinks: out.sinks.map((s) => ({
      name: s.name,
      config_id: s.config_id,
      ip: s.ip ?? undefined,
      port: s.port ?? undefined,
      protocol: s.protocol,
      sample_rate: s.sample_rate,
      bit_depth: s.bit_depth,
      channels: s.channels,
      channel_layout: s.channel_layout,
      volume_normalization: s.volume_normalization,
      payload_type: s.payload_type,
      paths: s.paths.map((p) => ({
        source: p.source,
        source_config_id: p.source_config_id,
        ip: p.ip ?? undefined,
        tag: p.tag ?? undefined,
        rtp: p.rtp
          ? {
              listen_ip: p.rtp.listen_ip ?? undefined,
              port: p.rtp.port,
              format: p.rtp.format,
              sample_rate: p.rtp.sample_rate,
              channels: p.rtp.channels,
              payload_type: p.rtp.payload_type ?? undefined,
            }
          : undefined,
        volume: p.volume,
        eq: [...p.eq],
        delay_ms: p.delay_ms,
      })),
    })),
  };
}

const EMPTY_PORTS: StatsMessage['engine']['ports'] = { scream: [], tagged: null, rtp: [] };

/** One engine for the daemon's life. `settings` null: ENGINE=off (statistics say so). */
export class EngineService {
  readonly #log: EngineLogger;
  #engine: Engine | null = null;
  #error: string | null = null;
  #problems: string[] = [];
  #cpu = { at: performance.now(), cpuS: 0, percent: 0 };
  readonly #off: boolean;

  constructor(settings: EngineSettings | null, log: EngineLogger) {
    this.#log = log;
    this.#off = settings === null;
    if (settings === null) return;
    try {
      this.#engine = new Engine({
        bind: settings.bind,
        screamPorts: settings.screamPorts,
        taggedPort: settings.taggedPort ?? undefined,
        tagged: settings.taggedPort !== null,
        rtpPorts: settings.rtpPorts,
        multicastGroups: settings.multicastGroups,
        jitterAdaptive: settings.jitterAdaptive,
        jitterMinMs: settings.jitterMinMs,
        jitterMaxMs: settings.jitterMaxMs,
      });
      const p = this.#engine.ports();
      log.info(
        `audio engine listening: Scream UDP ${p.scream.join(', ') || '-'}, tagged Scream ` +
          `${p.tagged ?? '-'}, RTP ${p.rtp.join(', ') || '-'}`,
      );
    } catch (err) {
      // The API stays up (so the user can see and fix the problem); /api/stats says why.
      this.#error = (err as Error).message;
      log.error(`audio engine not started: ${this.#error}`);
    }
  }

  get running(): boolean {
    return this.#engine?.running ?? false;
  }

  /** Plays what the configuration says (the solver's output). */
  apply(snapshot: Pick<ConfigSnapshot, 'config' | 'revision'>): void {
    if (!this.#engine) return;
    try {
      this.#problems = this.#engine.apply(toEngineState(solve(snapshot.config)));
      for (const p of this.#problems) this.#log.warn(`audio engine skipped a sink: ${p}`);
    } catch (err) {
      this.#log.error(
        `audio engine rejected revision ${snapshot.revision}: ${(err as Error).message}`,
      );
    }
  }

  /** Everything GET /api/stats and /ws/stats report. */
  stats(): Omit<StatsMessage, 'discovery'> {
    const engine = this.#engine;
    const s = engine?.running ? engine.stats() : null;
    if (s) {
      const now = performance.now();
      const elapsed = (now - this.#cpu.at) / 1000;
      if (elapsed >= 0.5) {
        this.#cpu = {
          at: now,
          cpuS: s.cpu_s,
          percent: ((s.cpu_s - this.#cpu.cpuS) / elapsed) * 100,
        };
      }
    }
    return {
      type: 'stats',
      engine: {
        state: engine?.running ? 'running' : this.#off ? 'off' : 'failed',
        error: this.#error,
        uptime_s: s?.uptime_s ?? 0,
        cpu_s: s?.cpu_s ?? 0,
        cpu_percent: s ? Math.max(0, this.#cpu.percent) : 0,
        queue_overflows: s?.queue_overflows ?? 0,
        unknown_packets: s?.unknown_packets ?? 0,
        malformed_unknown: s?.malformed_unknown ?? 0,
        problems: [...this.#problems],
        ports: engine?.running ? this.#ports(engine) : EMPTY_PORTS,
      },
      sources: (s?.sources ?? []).map((x) => ({ ...x, format: x.format ?? null })),
      sinks: s?.sinks ?? [],
      unknown_senders: (engine?.running ? engine.unknownSenders() : []).map((u) => ({
        ...u,
        kind: u.kind as 'scream' | 'scream-tagged' | 'rtp',
        tag: u.tag ?? null,
        format: u.format ?? null,
      })),
    };
  }

  #ports(engine: Engine): StatsMessage['engine']['ports'] {
    const p = engine.ports();
    return { scream: p.scream, tagged: p.tagged ?? null, rtp: p.rtp };
  }

  /** Stops the engine's threads and frees its ports. */
  stop(): void {
    this.#engine?.stop();
  }
}
