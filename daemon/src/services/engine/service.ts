// The engine service: starts the native audio engine, applies the solver's output (the engine's
// desired state as it is) on every configuration change, reports statistics (the engine's own
// objects: schema/stats.ts is generated from their declarations), writes the engine's own log
// lines to the daemon's log (faults and quarantines are logged there, by the engine, once),
// notes its restarts, and stops the engine with the app.
import { isDeepStrictEqual } from 'node:util';
import {
  type DecodedSource,
  type DecodedSourceOptions,
  Engine,
  type EngineHealth,
  type EngineLevels,
  type EngineLogLine,
  type EngineStats,
  type MemorySource,
  type MemorySourceFormat,
  type Mp3Stream,
  simdDispatch,
} from '@tributary/native';
import type { ConfigSnapshot } from '../../config/store.js';
import { EngineStatsFields } from '../../schema/generated/engine-reports.js';
import type { StatsMessage } from '../../schema/stats.js';
import type { EngineSettings } from '../../settings/engine.js';
import { solve } from '../../solver/solve.js';
import type { SolverOutput } from '../../solver/types.js';
import { CpuMeter } from '../cpu-meter.js';

export interface EngineLogger {
  info(msg: string): void;
  warn(msg: string): void;
  error(msg: string): void;
}

const EMPTY_PORTS: StatsMessage['engine']['ports'] = { scream: [], tagged: null, rtp: [] };

/** The engine's own counters, every one 0 (the engine is off or stopped). */
const NO_COUNTERS = Object.fromEntries(
  Object.keys(EngineStatsFields).map((name) => [name, 0]),
) as unknown as Omit<EngineStats, 'sources' | 'sinks' | 'paths'> & Partial<EngineStats>;

/** The instruction set the DSP kernels run with in this process (decided once, at load). */
const SIMD = (() => {
  const { best, used, problem } = simdDispatch();
  return { best, used, problem: problem ?? null };
})();

/** How often the engine's health and log are read (its lines reach the log at most this late). */
export const HEALTH_POLL_MS = 200;

/** The engine class: the binding's, or (tests only) one built with fault injection. */
export type EngineClass = typeof Engine;

/** What the solver reads of a configuration. */
type SolverInput = Pick<ConfigSnapshot['config'], 'sinks' | 'sources' | 'routes'>;

/**
 * Sources and routes played besides the configuration's and never saved: the temporary
 * sources of product plugins (src/product-plugins/temporary.ts), whose names hold a "/" that
 * no configured name may, so they never meet one.
 */
export interface Overlay {
  readonly sources: SolverInput['sources'];
  readonly routes: SolverInput['routes'];
}

const NO_OVERLAY: Overlay = { sources: [], routes: [] };

/** Writes the engine's log lines (its threads', taken from the binding) to the daemon's log. */
function writeEngineLog(log: EngineLogger, lines: EngineLogLine[]): void {
  for (const { level, message } of lines) {
    if (level === 'error') log.error(message);
    else if (level === 'warn') log.warn(message);
    else log.info(message);
  }
}

/** The engine's WebRTC (WHEP) calls. */
export type WhepEngine = Pick<
  Engine,
  'whepOffer' | 'whepPatch' | 'whepClose' | 'whepSessions' | 'whepStatus'
>;

/** A path's key in the table of routes. */
const pathKey = (sink: string, source: string) => `${sink}\u0000${source}`;

/** One engine for the daemon's life. `settings` null: ENGINE=off (statistics say so). */
export class EngineService {
  readonly #log: EngineLogger;
  #engine: Engine | null = null;
  #error: string | null = null;
  #problems: string[] = [];
  readonly #cpu = new CpuMeter();
  readonly #off: boolean;
  /** The revision the engine plays, and the last one it refused (with why). */
  #revision: number | null = null;
  #rejected: { revision: number; reason: string } | null = null;
  #health: EngineHealth | null = null;
  /** The route of every path the engine plays, by sink and source. */
  #routes = new Map<string, string>();
  #watch: NodeJS.Timeout | null = null;
  readonly #binding: EngineClass;
  /** The last configuration solved and the solver's output for it: a change is solved once,
   * when it is checked before it is saved, and that output is what `apply` plays. */
  #solved: { input: SolverInput; output: SolverOutput } | null = null;
  #webrtcBind: { addresses: string[]; port: number } = { addresses: [], port: 0 };
  /** The last configuration applied, and what plugins play besides it. */
  #applied: Pick<ConfigSnapshot, 'config' | 'revision'> | null = null;
  #overlay: Overlay = NO_OVERLAY;

  constructor(settings: EngineSettings | null, log: EngineLogger, binding: EngineClass = Engine) {
    this.#log = log;
    this.#binding = binding;
    this.#off = settings === null;
    if (settings === null) return;
    if (SIMD.problem) log.warn(`audio engine: ${SIMD.problem}`);
    this.#webrtcBind = { addresses: settings.webrtcAddresses, port: settings.webrtcPort };
    try {
      this.#engine = new binding({
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
      // Its ports are in the startup summary (server.ts) and in /api/stats.
      this.#health = this.#engine.health();
      this.#watch = setInterval(() => this.#watchHealth(), HEALTH_POLL_MS);
      this.#watch.unref();
    } catch (err) {
      // The API stays up (so the user can see and fix the problem); /api/stats says why.
      this.#error = (err as Error).message;
      writeEngineLog(log, binding.takeLog());
      log.error(`audio engine not started: ${this.#error}`);
    }
  }

  /**
   * Writes the engine's log lines since the last look (its faults and quarantines among them,
   * said by the engine, so not again here), and notes a restart (with the revision it plays).
   */
  #watchHealth(): void {
    writeEngineLog(this.#log, this.#binding.takeLog());
    const engine = this.#engine;
    if (!engine?.running) return;
    const before = this.#health;
    const now = engine.health();
    this.#health = now;
    if (!before) return;
    if (now.restarts > before.restarts) {
      const after = now.last_fault?.restart_ms;
      this.#log.warn(
        `audio engine restarted${after === undefined ? '' : ` ${Math.round(after)} ms after the fault`}, ` +
          `playing configuration revision ${this.#revision ?? '-'}`,
      );
    }
  }

  /**
   * The solver's output for `config` with the overlay: the last one when it reads the same
   * configuration and overlay.
   */
  #solve(config: SolverInput): SolverOutput {
    const overlay = this.#overlay;
    const input = {
      sinks: config.sinks,
      sources: overlay.sources.length ? [...config.sources, ...overlay.sources] : config.sources,
      routes: overlay.routes.length ? [...config.routes, ...overlay.routes] : config.routes,
    };
    if (this.#solved && isDeepStrictEqual(this.#solved.input, input)) return this.#solved.output;
    const output = solve(input);
    this.#solved = { input, output };
    return output;
  }

  /** Why the engine would refuse the configuration, or null (nothing is applied). */
  refusal(config: SolverInput): string | null {
    return this.#binding.check(this.#solve(config));
  }

  get running(): boolean {
    return this.#engine?.running ?? false;
  }

  /** Plays what the configuration says (the solver's output). */
  apply(snapshot: Pick<ConfigSnapshot, 'config' | 'revision'>): void {
    this.#applied = snapshot;
    if (!this.#engine) return;
    try {
      const solved = this.#solve(snapshot.config);
      this.#problems = this.#engine.apply(solved);
      this.#revision = snapshot.revision;
      this.#routes = new Map(
        solved.sinks.flatMap((k) =>
          k.paths.map((p) => [pathKey(k.config_id, p.source_config_id), p.route_config_id]),
        ),
      );
      for (const p of this.#problems) this.#log.warn(`audio engine left something out: ${p}`);
    } catch (err) {
      // Changes are checked with the engine before they are saved (refusal), so this is
      // a bug; it is said, and kept in /api/stats until a later revision applies.
      const reason = (err as Error).message;
      this.#rejected = { revision: snapshot.revision, reason };
      this.#log.error(`audio engine rejected revision ${snapshot.revision}: ${reason}`);
    }
  }

  /**
   * Plays `overlay` besides the configuration from now on (the last configuration applied
   * again with it). The overlay's routes name configured sinks or sink groups.
   */
  setOverlay(overlay: Overlay): void {
    this.#overlay = overlay;
    if (this.#applied) this.apply(this.#applied);
  }

  /**
   * Starts decoding into the in-process source `id` (see `Engine.addDecodedSource`); null when
   * the engine is off or stopped. Throws what the engine says (a taken id, bad options).
   */
  addDecodedSource(id: string, options: DecodedSourceOptions): DecodedSource | null {
    return this.#engine?.running ? this.#engine.addDecodedSource(id, options) : null;
  }

  /**
   * Creates the in-process source `id` that JavaScript writes PCM into (see
   * `Engine.addMemorySource`); null when the engine is off or stopped. Throws what the engine
   * says.
   */
  addMemorySource(id: string, format: MemorySourceFormat): MemorySource | null {
    return this.#engine?.running ? this.#engine.addMemorySource(id, format) : null;
  }

  /** Removes the in-process source `id` (its decoder stops); false when there is none. */
  removeMemorySource(id: string): boolean {
    return this.#engine?.running ? this.#engine.removeMemorySource(id) : false;
  }

  /** Everything GET /api/stats and /ws/stats report. */
  stats(): Omit<StatsMessage, 'discovery' | 'streams' | 'feeds' | 'refusals' | 'plugins'> {
    const engine = this.#engine;
    const s = engine?.running ? engine.stats() : null;
    const { sources = [], sinks = [], paths = [], ...counters } = s ?? NO_COUNTERS;
    const cpuPercent = s ? this.#cpu.percent(s.cpu_s) : 0;
    const health = engine?.running ? engine.health() : null;
    const fault = health?.last_fault;
    return {
      type: 'stats',
      engine: {
        state: health?.state === 'running' ? 'running' : this.#off && !engine ? 'off' : 'failed',
        error: health?.reason ?? (health ? null : this.#error),
        revision: this.#revision,
        rejected: this.#rejected,
        restarts: health?.restarts ?? 0,
        last_fault: fault
          ? {
              thread: fault.thread,
              reason: fault.reason,
              culprit: fault.culprit ?? null,
              ms_ago: fault.ms_ago,
              restart_ms: fault.restart_ms ?? null,
            }
          : null,
        quarantined: (health?.quarantined ?? []).map(({ ms_left: _, ...q }) => q),
        // The engine's own counters, whatever it declares (native/engine: its report! structs).
        ...counters,
        cpu_percent: cpuPercent,
        simd: SIMD,
        problems: [...this.#problems, ...formatProblems(sources)],
        ports: engine?.running ? engine.ports() : EMPTY_PORTS,
      },
      sources,
      sinks,
      paths: paths.map((p) => ({
        ...p,
        route_config_id: this.#routes.get(pathKey(p.sink_config_id, p.source_config_id)) ?? null,
      })),
      unknown_senders: engine?.running ? engine.unknownSenders() : [],
    };
  }

  /** Levels of the sinks in `ids` (all when empty): reading them keeps them measured. */
  levels(ids: string[]): EngineLevels[] {
    return this.#engine?.running ? this.#engine.levels(ids) : [];
  }

  /**
   * Levels of the sources in `ids` (all the engine plays when empty), as they enter the graph:
   * reading them keeps them measured. A source no enabled route plays is not reported.
   */
  sourceLevels(ids: string[]): EngineLevels[] {
    return this.#engine?.running ? this.#engine.sourceLevels(ids) : [];
  }

  /**
   * Tests only: makes the engine fail on purpose (`engine-panic`, or `source-panic` for the
   * next `times` packets of a source). Only the binding built with the cargo feature
   * `fault-injection` can; the product's binding cannot, and this answers false.
   */
  injectFault(kind: string, sourceId?: string, times?: number): boolean {
    const engine = this.#engine as
      | (Engine & { injectFault?: (kind: string, id?: string, times?: number) => boolean })
      | null;
    return engine?.injectFault?.(kind, sourceId, times) ?? false;
  }

  /**
   * Starts the MP3 encoder of a playing sink (see `Engine.listenMp3`); null when the engine is
   * off or stopped. Throws what the engine says (unknown sink, bit rate, already streaming).
   */
  listenMp3(sinkId: string, kbps: number, onFrames: (frames: Buffer) => void): Mp3Stream | null {
    return this.#engine?.running ? this.#engine.listenMp3(sinkId, kbps, onFrames) : null;
  }

  /**
   * The engine's WebRTC listening (`whepOffer`, `whepPatch`, `whepClose`, `whepSessions`,
   * `whepStatus`); null when the engine is off or stopped.
   */
  get whep(): WhepEngine | null {
    return this.#engine?.running ? this.#engine : null;
  }

  /** Where WebRTC's UDP sockets bind (WEBRTC_ADDRESSES, WEBRTC_PORT). */
  get webrtcBind(): { addresses: string[]; port: number } {
    return this.#webrtcBind;
  }

  /** Stops the engine's threads and frees its ports. */
  stop(): void {
    if (this.#watch) clearInterval(this.#watch);
    if (!this.#engine) return;
    this.#engine.stop();
    writeEngineLog(this.#log, this.#binding.takeLog());
  }
}

/** A source receiving another format than it is set to, as a problem of the engine. */
function formatProblems(sources: readonly { name: string; format_problem?: string | null }[]) {
  return sources.flatMap((x) =>
    x.format_problem ? [`source '${x.name}': ${x.format_problem}`] : [],
  );
}
