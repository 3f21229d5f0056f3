import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import { validateConfig } from '../../src/config/model.js';
import { EQ_BAND_KEYS, type Equalizer, FLAT_EQUALIZER } from '../../src/schema/common.js';
import type { Config } from '../../src/schema/files.js';
import type { Route } from '../../src/schema/route.js';
import type { Sink } from '../../src/schema/sink.js';
import type { Source } from '../../src/schema/source.js';
import { solve } from '../../src/solver/solve.js';

const eq = (bands: Partial<Equalizer> = {}): Equalizer => ({ ...FLAT_EQUALIZER, ...bands });
const base = { volume: 1, delay: 0, enabled: true, equalizer: eq() };
const sink = (name: string, extra: Partial<Sink> = {}): Sink => ({
  ...base,
  config_id: randomUUID(),
  name,
  ip: '10.0.0.2',
  port: 4010,
  protocol: 'scream',
  is_group: false,
  group_members: [],
  bit_depth: 16,
  sample_rate: 48000,
  channels: 2,
  channel_layout: 'stereo',
  volume_normalization: false,
  time_sync: false,
  time_sync_delay: 0,
  ...extra,
});
const source = (name: string, extra: Partial<Source> = {}): Source => ({
  ...base,
  config_id: randomUUID(),
  name,
  ip: '10.0.0.10',
  tag: null,
  is_group: false,
  group_members: [],
  vnc_ip: null,
  vnc_port: 5900,
  rtp: null,
  ...extra,
});
const route = (name: string, from: string, to: string, extra: Partial<Route> = {}): Route => ({
  ...base,
  config_id: randomUUID(),
  name,
  source: from,
  sink: to,
  ...extra,
});
const config = (sinks: Sink[], sources: Source[], routes: Route[]) => ({ sinks, sources, routes });

describe('solver', () => {
  test('levels apply in order, once each: volumes and bands multiply, delays add', () => {
    const out = solve(
      config(
        [
          sink('Kitchen', { volume: 0.5, delay: 10, equalizer: eq({ b1: 2 }) }),
          sink('Downstairs', {
            is_group: true,
            group_members: ['Kitchen'],
            volume: 0.8,
            delay: 20,
          }),
          sink('House', {
            is_group: true,
            group_members: ['Downstairs'],
            volume: 0.5,
            equalizer: eq({ b1: 0.5, b2: 1.5 }),
          }),
        ],
        [
          source('PC', { volume: 0.9, delay: 5, equalizer: eq({ b2: 1.2 }) }),
          source('PCs', { is_group: true, group_members: ['PC'], ip: null, volume: 0.5, delay: 1 }),
        ],
        [route('R', 'PCs', 'House', { volume: 0.5, delay: 100, equalizer: eq({ b18: 0.5 }) })],
      ),
    );
    assert.equal(out.sinks.length, 1, 'groups never appear as sinks');
    const [kitchen] = out.sinks;
    assert.equal(kitchen!.name, 'Kitchen');
    assert.equal(kitchen!.paths.length, 1);
    const [path] = kitchen!.paths;
    assert.equal(path!.source, 'PC');
    assert.ok(Math.abs(path!.volume - 0.9 * 0.5 * 0.5 * 0.5 * 0.8 * 0.5) < 1e-12);
    assert.equal(path!.delay_ms, 5 + 1 + 100 + 0 + 20 + 10);
    assert.equal(path!.eq[0], 2 * 0.5);
    assert.ok(Math.abs(path!.eq[1]! - 1.2 * 1.5) < 1e-12);
    assert.equal(path!.eq[17], 0.5);
    assert.deepEqual(
      path!.via.map((s) => `${s.kind}:${s.name}`),
      [
        'source:PC',
        'source group:PCs',
        'route:R',
        'sink group:House',
        'sink group:Downstairs',
        'sink:Kitchen',
      ],
    );
  });

  test('disabled entries anywhere on a path drop it; disabled sinks are not output', () => {
    const sinks = [
      sink('A'),
      sink('B', { enabled: false }),
      sink('G', { is_group: true, group_members: ['A', 'B'] }),
    ];
    const sources = [source('S'), source('T', { enabled: false })];
    const solved = (routes: Route[], s = sinks, so = sources) => solve(config(s, so, routes));
    assert.deepEqual(
      solved([route('r', 'S', 'G')]).sinks.map((k) => [k.name, k.paths.length]),
      [['A', 1]],
    );
    assert.equal(solved([route('r', 'T', 'A')]).sinks[0]!.paths.length, 0, 'disabled source');
    assert.equal(
      solved([route('r', 'S', 'A', { enabled: false })]).sinks[0]!.paths.length,
      0,
      'disabled route',
    );
    const offGroup = [sinks[0]!, sinks[1]!, { ...sinks[2]!, enabled: false }];
    assert.equal(
      solved([route('r', 'S', 'G')], offGroup).sinks[0]!.paths.length,
      0,
      'disabled group',
    );
  });

  test('one source reaching one sink by several paths: the loudest path wins, then the shortest delay', () => {
    const sinks = [sink('A'), sink('G', { is_group: true, group_members: ['A'] })];
    const sources = [source('S')];
    const out = solve(
      config(sinks, sources, [
        route('quiet', 'S', 'A', { volume: 0.3 }),
        route('loud', 'S', 'G', { volume: 0.9, delay: 50 }),
        route('loud and early', 'S', 'A', { volume: 0.9, delay: 10 }),
      ]),
    );
    assert.equal(out.sinks[0]!.paths.length, 1);
    assert.equal(out.sinks[0]!.paths[0]!.route, 'loud and early');
  });

  test('a real sink nothing plays on is still output (it plays silence)', () => {
    assert.deepEqual(
      solve(config([sink('A')], [], [])).sinks.map((s) => s.paths),
      [[]],
    );
  });

  test('the output carries what the engine needs per sink and per path', () => {
    const rtp = {
      listen_ip: null,
      port: 5004,
      format: 'L24' as const,
      sample_rate: 96000 as const,
      channels: 2,
      payload_type: null,
      time_sync: false,
      sap: false,
    };
    const out = solve(
      config(
        [
          sink('A', {
            protocol: 'rtp',
            sample_rate: 96000,
            bit_depth: 24,
            channels: 6,
            channel_layout: '5.1',
          }),
        ],
        [source('S', { tag: 'tag1', rtp })],
        [route('r', 'S', 'A')],
      ),
    );
    const [a] = out.sinks;
    assert.deepEqual(
      { ...a!, paths: undefined, config_id: undefined },
      {
        name: 'A',
        config_id: undefined,
        ip: '10.0.0.2',
        port: 4010,
        protocol: 'rtp',
        sample_rate: 96000,
        bit_depth: 24,
        channels: 6,
        channel_layout: '5.1',
        volume_normalization: false,
        paths: undefined,
      },
    );
    const [p] = a!.paths;
    assert.equal(p!.tag, 'tag1');
    assert.deepEqual(p!.rtp, rtp);
    assert.equal(p!.eq.length, 18);
  });
});

// Random configurations: up to 6 real sinks and sources, up to 4 groups of each (members drawn
// from everything of the kind, so nesting and cycles occur), up to 8 routes naming anything.
const unit = fc.double({ min: 0, max: 1, noNaN: true });
const gain = fc.double({ min: 0, max: 2, noNaN: true });
const levels = fc.record({
  volume: unit,
  delay: fc.integer({ min: 0, max: 5000 }),
  enabled: fc.boolean(),
  equalizer: fc
    .tuple(...EQ_BAND_KEYS.map(() => gain))
    .map((g) => Object.fromEntries(EQ_BAND_KEYS.map((k, i) => [k, g[i]])) as Equalizer),
});
const arbConfig = fc
  .record({
    realSinks: fc.integer({ min: 0, max: 6 }),
    realSources: fc.integer({ min: 0, max: 6 }),
    sinkGroups: fc.array(fc.array(fc.nat(9), { maxLength: 4 }), { maxLength: 4 }),
    sourceGroups: fc.array(fc.array(fc.nat(9), { maxLength: 4 }), { maxLength: 4 }),
    routes: fc.array(fc.tuple(fc.nat(9), fc.nat(9)), { maxLength: 8 }),
    levels: fc.array(levels, { minLength: 40, maxLength: 40 }),
  })
  .map((r) => {
    let n = 0;
    const lv = () => r.levels[n++ % r.levels.length]!;
    const sinkNames = [...Array(r.realSinks).keys()].map((i) => `k${i}`);
    const sourceNames = [...Array(r.realSources).keys()].map((i) => `s${i}`);
    const allSinks = [...sinkNames, ...r.sinkGroups.map((_, i) => `K${i}`)];
    const allSources = [...sourceNames, ...r.sourceGroups.map((_, i) => `S${i}`)];
    const pick = (names: string[], i: number) => names[i % Math.max(names.length, 1)] ?? 'missing';
    const uniq = (xs: string[]) => [...new Set(xs)];
    const c: Config = {
      sinks: [
        ...sinkNames.map((name) => sink(name, lv())),
        ...r.sinkGroups.map((m, i) =>
          sink(`K${i}`, {
            ...lv(),
            is_group: true,
            group_members: uniq(m.map((j) => pick(allSinks, j))),
          }),
        ),
      ],
      sources: [
        ...sourceNames.map((name) => source(name, lv())),
        ...r.sourceGroups.map((m, i) =>
          source(`S${i}`, {
            ...lv(),
            is_group: true,
            group_members: uniq(m.map((j) => pick(allSources, j))),
          }),
        ),
      ],
      routes: r.routes.map(([a, b], i) =>
        route(`r${i}`, pick(allSources, a), pick(allSinks, b), lv()),
      ),
      equalizers: [],
      favorites: [],
    };
    return c;
  });

describe('solver properties (fast-check)', () => {
  test('terminates on any input, cycles included; outputs only real enabled sinks and sources', () => {
    fc.assert(
      fc.property(arbConfig, (c) => {
        const out = solve(c);
        const realSinks = new Set(
          c.sinks.filter((s) => !s.is_group && s.enabled).map((s) => s.name),
        );
        const realSources = new Set(
          c.sources.filter((s) => !s.is_group && s.enabled).map((s) => s.name),
        );
        assert.deepEqual(
          out.sinks.map((s) => s.name),
          [...realSinks],
        );
        for (const s of out.sinks) {
          const seen = new Set<string>();
          for (const p of s.paths) {
            assert.ok(realSources.has(p.source), `${p.source} is a real enabled source`);
            assert.ok(!seen.has(p.source), 'at most one path per source');
            seen.add(p.source);
          }
        }
      }),
      { numRuns: 300 },
    );
  });

  test('values stay within bounds after clamping and equal the product/sum of the path', () => {
    fc.assert(
      fc.property(arbConfig, (c) => {
        const byId = new Map([...c.sinks, ...c.sources, ...c.routes].map((e) => [e.config_id, e]));
        for (const s of solve(c).sinks) {
          for (const p of s.paths) {
            assert.ok(p.volume >= 0 && p.volume <= 1);
            assert.ok(p.delay_ms >= 0 && p.delay_ms <= 5000 && Number.isInteger(p.delay_ms));
            assert.equal(p.eq.length, 18);
            assert.ok(p.eq.every((g) => g >= 0 && g <= 2));
            const entries = p.via.map((v) => byId.get(v.config_id)!);
            assert.ok(
              entries.every((e) => e.enabled),
              'every level on the path is enabled',
            );
            assert.equal(
              new Set(p.via.map((v) => v.config_id)).size,
              p.via.length,
              'each level once',
            );
            const volume = entries.reduce((v, e) => v * e.volume, 1);
            assert.ok(Math.abs(p.volume - volume) < 1e-9);
            assert.equal(
              p.delay_ms,
              Math.min(
                5000,
                entries.reduce((d, e) => d + e.delay, 0),
              ),
            );
            EQ_BAND_KEYS.forEach((k, i) => {
              const g = Math.min(
                2,
                entries.reduce((v, e) => v * e.equalizer[k], 1),
              );
              assert.ok(Math.abs(p.eq[i]! - g) < 1e-9);
            });
            assert.equal(p.via[0]!.kind, 'source');
            assert.equal(p.via.at(-1)!.kind, 'sink');
            assert.equal(p.via.filter((v) => v.kind === 'route').length, 1);
          }
        }
      }),
      { numRuns: 300 },
    );
  });

  test('pure and idempotent: same input, same output; input not modified', () => {
    fc.assert(
      fc.property(arbConfig, (c) => {
        const copy = structuredClone(c);
        const a = solve(c);
        assert.deepEqual(solve(c), a);
        assert.deepEqual(c, copy);
      }),
      { numRuns: 200 },
    );
  });

  test('on valid configurations (no cycles, no missing names) every route that can play does', () => {
    fc.assert(
      fc.property(
        arbConfig.filter((c) => validateConfig(c).length === 0),
        (c) => {
          const out = solve(c);
          for (const r of c.routes) {
            const src = c.sources.find((s) => s.name === r.source)!;
            const dst = c.sinks.find((s) => s.name === r.sink)!;
            if (!r.enabled || !src.enabled || !dst.enabled || src.is_group || dst.is_group)
              continue;
            const k = out.sinks.find((s) => s.name === dst.name)!;
            assert.ok(
              k.paths.some((p) => p.source === src.name),
              `${src.name} -> ${dst.name} plays`,
            );
          }
        },
      ),
      { numRuns: 200 },
    );
  });
});
