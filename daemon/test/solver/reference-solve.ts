// The solver as first written (daemon/src/solver/solve.ts before issue 10), kept as the oracle
// of the memoised one and as the benchmark's reference: it enumerates every chain through the
// groups (exponential in nesting depth when groups share members) and keeps the best path per
// (source, sink). One change: delays are compared before the 5000 ms cap, as `solve` now
// documents (the first version compared them capped). A path's levels are combined by the
// same `pathThrough`: the choice of path is what is checked.
import type { Config } from '../../src/schema/files.js';
import type { Sink } from '../../src/schema/sink.js';
import type { Source } from '../../src/schema/source.js';
import { output, pathThrough } from '../../src/solver/solve.js';
import type { SolvedPath, SolverOutput } from '../../src/solver/types.js';

type Member = Sink | Source;

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
export function referenceSolve(config: Pick<Config, 'sinks' | 'sources' | 'routes'>): SolverOutput {
  const sinks = new Map(config.sinks.map((s) => [s.name, s]));
  const sources = new Map(config.sources.map((s) => [s.name, s]));
  const best = new Map<string, Map<string, SolvedPath>>(); // sink config_id -> source config_id -> path
  const before = new WeakMap<SolvedPath, number>(); // a path's delay before the cap

  for (const route of config.routes) {
    if (!route.enabled) continue;
    const sourceChains = chains(sources, route.source);
    if (sourceChains.length === 0) continue;
    const sinkChains = chains(sinks, route.sink);
    for (const sourceChain of sourceChains) {
      const real = sourceChain.at(-1) as Source;
      for (const sinkChain of sinkChains) {
        const target = sinkChain.at(-1) as Sink;
        const path = pathThrough([...sourceChain].reverse(), route, sinkChain);
        before.set(
          path,
          [...sourceChain, route, ...sinkChain].reduce((d, l) => d + l.delay, 0),
        );
        let forSink = best.get(target.config_id);
        if (!forSink) {
          forSink = new Map();
          best.set(target.config_id, forSink);
        }
        const current = forSink.get(real.config_id);
        if (!current || louder(path, current, before)) forSink.set(real.config_id, path);
      }
    }
  }

  return output(config, (sinkId) => [...(best.get(sinkId)?.values() ?? [])]);
}

function louder(a: SolvedPath, b: SolvedPath, before: WeakMap<SolvedPath, number>): boolean {
  if (a.volume !== b.volume) return a.volume > b.volume;
  return before.get(a)! < before.get(b)!;
}
