// The solver: configuration in, for every real enabled sink the real enabled sources that reach
// it with their effective volume, equalizer and delay. A pure function: no I/O, no state.
import type { Equalizer } from '../schema/common.js';
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
type Levels = {
  volume: number;
  equalizer: Equalizer;
  delay: number;
  name: string;
  config_id: string;
};

const clamp = (v: number, lo: number, hi: number) => Math.min(hi, Math.max(lo, v));

/**
 * Every chain from the named entry down to a real, enabled entry: `[named, ..., real]`. A
 * disabled entry ends its chains; a missing name yields none; a group met again on its own
 * chain (a cycle, which validation rejects) is skipped, so the solver terminates on any input.
 */
function chains<T extends Member>(
  byName: Map<string, T>,
  name: string,
  trail: Set<string> = new Set(),
): T[][] {
  const entry = byName.get(name);
  if (!entry?.enabled || trail.has(name)) return [];
  if (!entry.is_group) return [[entry]];
  const inner = new Set(trail).add(name);
  const out: T[][] = [];
  for (const member of entry.group_members) {
    for (const chain of chains(byName, member, inner)) out.push([entry, ...chain]);
  }
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
 *   a route covers), the loudest path wins; equal volumes go to the shorter total delay, then
 *   to the path found first (routes in configuration order, group members in list order).
 *   Playing the same audio twice with different delays would only comb-filter it.
 */
export function solve(config: Pick<Config, 'sinks' | 'sources' | 'routes'>): SolverOutput {
  const sinks = new Map(config.sinks.map((s) => [s.name, s]));
  const sources = new Map(config.sources.map((s) => [s.name, s]));
  const best = new Map<string, Map<string, SolvedPath>>(); // sink config_id -> source config_id -> path

  for (const route of config.routes) {
    if (!route.enabled) continue;
    const sourceChains = chains(sources, route.source);
    if (sourceChains.length === 0) continue;
    const sinkChains = chains(sinks, route.sink);
    for (const sourceChain of sourceChains) {
      const real = sourceChain.at(-1) as Source;
      for (const sinkChain of sinkChains) {
        const target = sinkChain.at(-1) as Sink;
        const path = combine(real, [...sourceChain].reverse(), route, sinkChain);
        let forSink = best.get(target.config_id);
        if (!forSink) {
          forSink = new Map();
          best.set(target.config_id, forSink);
        }
        const current = forSink.get(real.config_id);
        if (!current || louder(path, current)) forSink.set(real.config_id, path);
      }
    }
  }

  const sourceOrder = new Map(config.sources.map((s, i) => [s.config_id, i]));
  const out: SolvedSink[] = [];
  for (const sink of config.sinks) {
    if (sink.is_group || !sink.enabled) continue;
    const paths = [...(best.get(sink.config_id)?.values() ?? [])].sort(
      (a, b) => sourceOrder.get(a.source_config_id)! - sourceOrder.get(b.source_config_id)!,
    );
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
      paths,
    });
  }
  return { sinks: out };
}

function louder(a: SolvedPath, b: SolvedPath): boolean {
  if (a.volume !== b.volume) return a.volume > b.volume;
  return a.delay_ms < b.delay_ms;
}

function combine(
  source: Source,
  sourceLevels: Member[],
  route: Route,
  sinkLevels: Member[],
): SolvedPath {
  const via: PathStep[] = [];
  let volume = 1;
  let delay = 0;
  const eq = EQ_BAND_KEYS.map(() => 1);
  const apply = (kind: PathStep['kind'], level: Levels) => {
    via.push({ kind, name: level.name, config_id: level.config_id });
    volume *= level.volume;
    delay += level.delay;
    EQ_BAND_KEYS.forEach((key, i) => {
      eq[i]! *= level.equalizer[key];
    });
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
