// The solver as first written, kept as the oracle of the memoised one: it enumerates every
// chain through the groups (exponential in nesting depth when groups share members) and keeps
// the best path per (source, sink). Same rules, written the obvious way; delays are compared
// before the 5000 ms cap, as `solve` documents.
import type { Config } from '../../src/schema/files.js';
import type { Route } from '../../src/schema/route.js';
import type { Sink } from '../../src/schema/sink.js';
import type { Source } from '../../src/schema/source.js';

type Member = Sink | Source;

function chains<T extends Member>(
  byName: Map<string, T>,
  name: string,
  trail = new Set<string>(),
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

export interface ReferencePath {
  /** Every level's config_id, source first, sink last. */
  readonly via: string[];
  readonly volume: number;
  /** Before the cap. */
  readonly delay: number;
}

/** sink name -> source name -> the best path. */
export function referenceSolve(
  config: Pick<Config, 'sinks' | 'sources' | 'routes'>,
): Map<string, Map<string, ReferencePath>> {
  const sinks = new Map(config.sinks.map((s) => [s.name, s]));
  const sources = new Map(config.sources.map((s) => [s.name, s]));
  const best = new Map<string, Map<string, ReferencePath>>();
  for (const route of config.routes) {
    if (!route.enabled) continue;
    for (const sourceChain of chains(sources, route.source)) {
      for (const sinkChain of chains(sinks, route.sink)) {
        const levels: (Member | Route)[] = [...[...sourceChain].reverse(), route, ...sinkChain];
        const path = {
          via: levels.map((l) => l.config_id),
          volume: levels.reduce((v, l) => v * l.volume, 1),
          delay: levels.reduce((d, l) => d + l.delay, 0),
        };
        const sink = sinkChain.at(-1)!.name;
        const source = sourceChain.at(-1)!.name;
        const forSink = best.get(sink) ?? new Map<string, ReferencePath>();
        best.set(sink, forSink);
        const current = forSink.get(source);
        const better =
          !current ||
          path.volume > current.volume ||
          (path.volume === current.volume && path.delay < current.delay);
        if (better) forSink.set(source, path);
      }
    }
  }
  return best;
}
