// Builders of complete sinks, sources and routes, and random configurations, for the solver's
// tests.
import { randomUUID } from 'node:crypto';
import fc from 'fast-check';
import { settingsDefaults } from '../../src/config/model.js';
import { EQ_BAND_KEYS, type Equalizer, FLAT_EQUALIZER } from '../../src/schema/common.js';
import type { Config } from '../../src/schema/files.js';
import type { Route } from '../../src/schema/route.js';
import type { Sink } from '../../src/schema/sink.js';
import type { Source } from '../../src/schema/source.js';
import { WEBRTC_DEFAULTS } from '../../src/schema/webrtc.js';

export const eq = (bands: Partial<Equalizer> = {}): Equalizer => ({ ...FLAT_EQUALIZER, ...bands });
export const base = { volume: 1, unmute_volume: null, delay: 0, enabled: true, equalizer: eq() };
export const sink = (name: string, extra: Partial<Sink> = {}): Sink => ({
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
  payload_type: null,
  mp3: { bitrate: 320, max_listeners: 32 },
  webrtc: { ...WEBRTC_DEFAULTS, ice_servers: [] },
  auto_added: null,
  ...extra,
});
export const source = (name: string, extra: Partial<Source> = {}): Source => ({
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
  plugin_format: null,
  auto_added: null,
  ...extra,
});
export const route = (
  name: string,
  from: string,
  to: string,
  extra: Partial<Route> = {},
): Route => ({
  ...base,
  config_id: randomUUID(),
  name,
  source: from,
  sink: to,
  ...extra,
});
export const config = (sinks: Sink[], sources: Source[], routes: Route[]) => ({
  sinks,
  sources,
  routes,
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
export const arbConfig = fc
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
      ...settingsDefaults(),
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
