// The memoised solver (issue 10): the same answers as enumerating every chain, in time that
// grows with the groups' reach instead of the number of chains. Nested groups sharing members
// (G0={S}, Hk={Gk-1}, Gk={Gk-1,Hk}) have 2^k chains: depth 16 took 0.8 s, depth 25 about nine
// minutes, blocking the event loop. `npm run bench -- solver` measures it.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import fc from 'fast-check';
import { largeHouse } from '../../scripts/solver-workloads.js';
import { EQ_BAND_KEYS, type Equalizer } from '../../src/schema/common.js';
import { solve } from '../../src/solver/solve.js';
import type { SolverOutput } from '../../src/solver/types.js';
import { config, route, sink, source } from './arbitrary.js';
import { referenceSolve } from './reference-solve.js';

const run = promisify(execFile);

// Values that tie exactly and volumes of 0 (every path through one ties on loudness) are the
// interesting cases, so they are drawn often. Other volumes stay at or above 1e-3 (-60 dB a
// stage): a chain of them is then at least 1e-48, a normal double. Subnormal volumes (below
// 2.2e-308, all silent) round to different products in different multiplication orders with
// only a few bits of precision left (seed 231330476: 0.25 x 0.25 x 4.4e-323 is 0 one way and
// 5e-324 the other; seed -393584534: a source at 7.4e-323), so which of two silent paths is
// "louder" depends on the order, and either answer is right.
const volume = fc.oneof(
  fc.constantFrom(0, 0.25, 0.5, 1),
  fc.double({ min: 1e-3, max: 1, noNaN: true }),
);
const delay = fc.oneof(fc.constantFrom(0, 10, 20), fc.integer({ min: 0, max: 5000 }));
const level = fc.record({
  volume,
  delay,
  enabled: fc.constantFrom(true, true, true, true, false),
  b1: fc.constantFrom(0.5, 1, 2),
});

/** Acyclic configurations: group i draws members from the real entries and groups < i. */
const arbDag = fc
  .record({
    reals: fc.tuple(fc.integer({ min: 1, max: 4 }), fc.integer({ min: 1, max: 4 })),
    sinkGroups: fc.array(fc.array(fc.nat(30), { minLength: 1, maxLength: 3 }), { maxLength: 7 }),
    sourceGroups: fc.array(fc.array(fc.nat(30), { minLength: 1, maxLength: 3 }), { maxLength: 7 }),
    routes: fc.array(fc.tuple(fc.nat(30), fc.nat(30)), { minLength: 1, maxLength: 6 }),
    levels: fc.array(level, { minLength: 64, maxLength: 64 }),
  })
  .map((r) => {
    let n = 0;
    const lv = () => {
      const { b1, ...rest } = r.levels[n++ % r.levels.length]!;
      return { ...rest, equalizer: { ...eqFlat(), b1 } };
    };
    const build = <T>(
      prefix: string,
      reals: number,
      groups: number[][],
      make: (name: string, extra: object) => T,
    ) => {
      const names = [...Array(reals).keys()].map((i) => `${prefix}${i}`);
      const out = names.map((name) => make(name, lv()));
      groups.forEach((members, i) => {
        // Members from the real entries and the groups made before this one: no cycles.
        const pool = out.map((e) => (e as { name: string }).name);
        const chosen = [...new Set(members.map((m) => pool[m % pool.length]!))];
        out.push(
          make(`${prefix.toUpperCase()}${i}`, { ...lv(), is_group: true, group_members: chosen }),
        );
      });
      return out;
    };
    const sinks = build('k', r.reals[0], r.sinkGroups, (name, extra) => sink(name, extra));
    const sources = build('s', r.reals[1], r.sourceGroups, (name, extra) => source(name, extra));
    const routes = r.routes.map(([a, b], i) =>
      route(`r${i}`, sources[a % sources.length]!.name, sinks[b % sinks.length]!.name, lv()),
    );
    return config(sinks, sources, routes);
  });

function eqFlat(): Equalizer {
  return Object.fromEntries(EQ_BAND_KEYS.map((k) => [k, 1])) as Equalizer;
}

describe('memoised solver', () => {
  test('answers what enumerating every chain answers (fast-check, acyclic nested groups)', () => {
    fc.assert(
      fc.property(arbDag, (c) => {
        const ours = solve(c);
        const reference = referenceSolve(c);
        const byId = new Map([...c.sinks, ...c.sources, ...c.routes].map((e) => [e.config_id, e]));
        const raw = (via: readonly { config_id: string }[]) => {
          const levels = via.map((v) => byId.get(v.config_id)!);
          return {
            volume: levels.reduce((v, l) => v * l.volume, 1),
            delay: levels.reduce((d, l) => d + l.delay, 0),
          };
        };
        assert.deepEqual(
          ours.sinks.map((s) => s.name),
          reference.sinks.map((s) => s.name),
        );
        ours.sinks.forEach((s, i) => {
          const want = reference.sinks[i]!;
          assert.deepEqual(
            s.paths.map((p) => p.source),
            want.paths.map((p) => p.source),
            `sources on ${s.name}`,
          );
          s.paths.forEach((p, j) => {
            const w = want.paths[j]!;
            if (p.route === w.route && p.via.length === w.via.length) {
              // The same path: the same answer, to the last bit.
              if (p.via.every((v, k) => v.config_id === w.via[k]!.config_id)) {
                assert.deepEqual(p, w);
                return;
              }
            }
            // Another path: only if it ties (products differing in rounding alone). Then the
            // rounding of each algorithm's multiplication order decides which is louder, so the
            // delays may differ.
            const [a, b] = [raw(p.via), raw(w.via)];
            assert.ok(Math.abs(a.volume - b.volume) <= 1e-12, `${p.source} -> ${s.name} volume`);
            assert.notEqual(
              a.volume,
              b.volume,
              `${p.source} -> ${s.name}: an exact tie goes to the first path`,
            );
          });
        });
      }),
      { numRuns: 500 },
    );
  });

  test('nesting depth 25 (33 million chains) and 1,000 entities solve, each within 10 s', async () => {
    // In a process of its own, killed after 10 s: the enumerating solver took minutes here.
    const worker = fileURLToPath(new URL('./solve-worker.ts', import.meta.url));
    const solveBounded = async (workload: 'nested' | 'house', size: number) => {
      const { stdout } = await run(
        process.execPath,
        ['--import', 'tsx', worker, workload, `${size}`],
        {
          timeout: 10_000,
          maxBuffer: 64 * 1024 * 1024,
        },
      );
      return JSON.parse(stdout) as SolverOutput;
    };
    const out = await solveBounded('nested', 25);
    assert.equal(out.sinks.length, 1);
    const [path] = out.sinks[0]!.paths;
    // The loudest chain is the direct one: S, G0 .. G25 (the H groups play at 0.9).
    assert.deepEqual(
      path!.via.map((v) => v.name),
      ['S', ...[...Array(26).keys()].map((k) => `G${k}`), 'R', 'K'],
    );
    assert.equal(path!.volume, 1);
    const solved = await solveBounded('house', 1000);
    assert.deepEqual(solved, referenceSolve(largeHouse(1000)));
  });
});
