// The solver: configuration in, for every real enabled sink the real enabled sources that reach
// it with their effective volume, equalizer and delay. A pure function: no I/O, no state.
//
// Groups are solved once each (memoised): for every entry, the best chain from it down to each
// real member it reaches. A group's answer is built from its members' answers, so the work is
// the sum over groups of their members' reach, not the number of chains: nested groups that
// share members (G0={S}, Hk={Gk-1}, Gk={Gk-1,Hk}) have 2^k chains, and enumerating them took
// seconds at depth 18.
import {
  DELAY_MAX_MS,
  DELAY_MIN_MS,
  EQ_BAND_KEYS,
  EQ_GAIN_MAX,
  EQ_GAIN_MIN,
  VOLUME_MAX,
  VOLUME_MIN,
} from '../schema/constants.js';
import type { Config } from '../schema/files.js';
import type { Route } from '../schema/route.js';
import type { Sink } from '../schema/sink.js';
import type { Source } from '../schema/source.js';
import type { PathStep, SolvedPath, SolvedSink, SolverOutput } from './types.js';

type Member = Sink | Source;

const clamp = (v: number, lo: number, hi: number) => Math.min(hi, Math.max(lo, v));

/** A chain from an entry down to a real entry: `[entry, ..., real]`, shared as a linked list. */
interface Chain<T> {
  readonly entry: T;
  readonly next: Chain<T> | null;
  /** Product of the volumes and sum of the delays of every entry on the chain. */
  readonly volume: number;
  readonly delay: number;
}

/**
 * The chains an entry keeps per real member it reaches: the loudest (then the shortest delay,
 * then the first in member order), and the shortest (then the first), which wins when every
 * chain of a path is silent (a volume of 0 somewhere makes every chain through it tie on
 * loudness).
 */
interface Best<T> {
  loudest: Chain<T>;
  shortest: Chain<T>;
}

function louder<T>(a: Chain<T>, b: Chain<T>): boolean {
  if (a.volume !== b.volume) return a.volume > b.volume;
  return a.delay < b.delay;
}

function extend<T extends Member>(entry: T, chain: Chain<T>): Chain<T> {
  return {
    entry,
    next: chain,
    volume: chain.volume * entry.volume,
    delay: chain.delay + entry.delay,
  };
}

/**
 * For every entry of one kind, the best chains to each real, enabled entry it reaches, in the
 * order first reached. Disabled entries reach nothing; missing names reach nothing; a group met
 * again while it is being solved (a cycle, which validation rejects) adds nothing, so this
 * terminates on any input.
 */
class Reach<T extends Member> {
  readonly #byName: Map<string, T>;
  readonly #solved = new Map<string, Map<string, Best<T>>>();
  readonly #solving = new Set<string>();
  static readonly #none = new Map<string, never>();

  constructor(entries: readonly T[]) {
    this.#byName = new Map(entries.map((e) => [e.name, e]));
  }

  of(name: string): ReadonlyMap<string, Best<T>> {
    const done = this.#solved.get(name);
    if (done) return done;
    const entry = this.#byName.get(name);
    if (!entry?.enabled || this.#solving.has(name)) return Reach.#none;
    const out = new Map<string, Best<T>>();
    if (!entry.is_group) {
      const chain: Chain<T> = { entry, next: null, volume: entry.volume, delay: entry.delay };
      out.set(entry.config_id, { loudest: chain, shortest: chain });
    } else {
      this.#solving.add(name);
      for (const member of entry.group_members) {
        for (const [id, best] of this.of(member)) {
          const loudest = extend(entry, best.loudest);
          const shortest = extend(entry, best.shortest);
          const current = out.get(id);
          if (!current) {
            out.set(id, { loudest, shortest });
            continue;
          }
          if (louder(loudest, current.loudest)) current.loudest = loudest;
          if (shortest.delay < current.shortest.delay) current.shortest = shortest;
        }
      }
      this.#solving.delete(name);
    }
    this.#solved.set(name, out);
    return out;
  }
}

/** The best path of one source to one sink so far: its chains, route, volume and delay. */
interface Choice {
  readonly source: Chain<Source>;
  readonly route: Route;
  readonly sink: Chain<Sink>;
  readonly volume: number;
  /** Before the cap. */
  readonly delay: number;
}

/** The entries of a chain, first (the named entry) to last (the real one). */
function entriesOf<T>(chain: Chain<T>): T[] {
  const out: T[] = [];
  for (let c: Chain<T> | null = chain; c; c = c.next) out.push(c.entry);
  return out;
}

/**
 * Solves the configuration.
 *
 * - A route links a source (or source group) to a sink (or sink group). Groups expand to their
 *   members, recursively, to any depth. Every entry on a path must be enabled.
 * - Levels are applied in the order source -> source group(s) -> route -> sink group(s) ->
 *   sink, each once: volumes multiply, equalizer gains multiply band by band, delays add. The
 *   results are clamped to the documented bounds (volume 0-1, band 0-2, delay 0-5000 ms).
 * - When one source reaches one sink by several paths (two routes, or a source in two groups
 *   a route covers), the loudest path wins; equal volumes go to the shorter total delay (before
 *   the 5000 ms cap), then to the path found first (routes in configuration order, group
 *   members in list order). Playing the same audio twice with different delays would only
 *   comb-filter it.
 */
export function solve(config: Pick<Config, 'sinks' | 'sources' | 'routes'>): SolverOutput {
  const sinks = new Reach(config.sinks);
  const sources = new Reach(config.sources);
  // sink config_id -> source config_id -> the best path so far (made into a SolvedPath once).
  const best = new Map<string, Map<string, Choice>>();

  for (const route of config.routes) {
    if (!route.enabled) continue;
    const from = sources.of(route.source);
    if (from.size === 0) continue;
    const to = sinks.of(route.sink);
    for (const [sinkId, k] of to) {
      let forSink = best.get(sinkId);
      if (!forSink) {
        forSink = new Map();
        best.set(sinkId, forSink);
      }
      for (const [sourceId, s] of from) {
        // The loudest chains each side make the loudest path, unless that is silent anyway:
        // then every path ties on volume and the shortest chains make the shortest one.
        const loud = s.loudest.volume * route.volume * k.loudest.volume > 0;
        const [sc, kc] = loud ? [s.loudest, k.loudest] : [s.shortest, k.shortest];
        const volume = sc.volume * route.volume * kc.volume;
        const delay = sc.delay + route.delay + kc.delay;
        const current = forSink.get(sourceId);
        if (
          current &&
          (current.volume > volume || (current.volume === volume && current.delay <= delay))
        ) {
          continue;
        }
        forSink.set(sourceId, { source: sc, route, sink: kc, volume, delay });
      }
    }
  }

  return output(config, (sinkId) =>
    [...(best.get(sinkId)?.values() ?? [])].map((b) =>
      pathThrough(entriesOf(b.source).reverse(), b.route, entriesOf(b.sink)),
    ),
  );
}

/**
 * The solver's output: every real, enabled sink in configuration order with `paths(its
 * config_id)`, ordered as their sources are in the configuration.
 */
export function output(
  config: Pick<Config, 'sinks' | 'sources'>,
  paths: (sinkId: string) => SolvedPath[],
): SolverOutput {
  const sourceOrder = new Map(config.sources.map((s, i) => [s.config_id, i]));
  const out: SolvedSink[] = [];
  for (const sink of config.sinks) {
    if (sink.is_group || !sink.enabled) continue;
    out.push({
      name: sink.name,
      config_id: sink.config_id,
      ip: sink.ip,
      port: sink.port,
      protocol: sink.protocol,
      sample_rate: sink.sample_rate,
      bit_depth: sink.bit_depth,
      channels: sink.channels,
      channel_layout: sink.channel_layout,
      volume_normalization: sink.volume_normalization,
      payload_type: sink.payload_type,
      paths: paths(sink.config_id).sort(
        (a, b) => sourceOrder.get(a.source_config_id)! - sourceOrder.get(b.source_config_id)!,
      ),
    });
  }
  return { sinks: out };
}

/**
 * The path through `sourceLevels` (real source first), `route` and `sinkLevels` (real last):
 * levels applied in that order, each once.
 */
export function pathThrough(
  sourceLevels: Member[],
  route: Route,
  sinkLevels: Member[],
): SolvedPath {
  const source = sourceLevels[0] as Source;
  const via: PathStep[] = [];
  let volume = 1;
  let delay = 0;
  const eq = EQ_BAND_KEYS.map(() => 1);
  const apply = (kind: PathStep['kind'], level: Member | Route) => {
    via.push({ kind, name: level.name, config_id: level.config_id });
    volume *= level.volume;
    delay += level.delay;
    for (let i = 0; i < EQ_BAND_KEYS.length; i++) eq[i]! *= level.equalizer[EQ_BAND_KEYS[i]!];
  };
  for (const level of sourceLevels) apply(level.is_group ? 'source group' : 'source', level);
  apply('route', route);
  for (const level of sinkLevels) apply(level.is_group ? 'sink group' : 'sink', level);
  return {
    source: source.name,
    source_config_id: source.config_id,
    ip: source.ip,
    tag: source.tag,
    rtp: source.rtp,
    route: route.name,
    route_config_id: route.config_id,
    via,
    volume: clamp(volume, VOLUME_MIN, VOLUME_MAX),
    eq: eq.map((g) => clamp(g, EQ_GAIN_MIN, EQ_GAIN_MAX)),
    delay_ms: clamp(delay, DELAY_MIN_MS, DELAY_MAX_MS),
  };
}
