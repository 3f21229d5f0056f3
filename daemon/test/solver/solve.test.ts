import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import { validateConfig } from '../../src/config/model.js';
import { EQ_BAND_KEYS } from '../../src/schema/common.js';
import type { Route } from '../../src/schema/route.js';
import { solve } from '../../src/solver/solve.js';
import { arbConfig, config, eq, route, sink, source } from './arbitrary.js';

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
            payload_type: 98,
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
        payload_type: 98,
        paths: undefined,
      },
    );
    const [p] = a!.paths;
    assert.equal(p!.tag, 'tag1');
    assert.deepEqual(p!.rtp, rtp);
    assert.equal(p!.eq.length, 18);
  });
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
