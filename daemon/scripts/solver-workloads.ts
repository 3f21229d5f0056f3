// Configurations that stress the solver, for its test and its benchmark
// (`npm run bench -- solver`).
import { EQ_BAND_KEYS, type Equalizer } from '../src/schema/common.js';
import type { Config } from '../src/schema/files.js';
import type { Route } from '../src/schema/route.js';
import type { Sink } from '../src/schema/sink.js';
import type { Source } from '../src/schema/source.js';
import { WEBRTC_DEFAULTS } from '../src/schema/webrtc.js';

type Solvable = Pick<Config, 'sinks' | 'sources' | 'routes'>;

const flat = (): Equalizer => Object.fromEntries(EQ_BAND_KEYS.map((k) => [k, 1])) as Equalizer;
let ids = 0;
const id = () => `00000000-0000-4000-8000-${(ids++).toString(16).padStart(12, '0')}`;

function sink(name: string, members: string[] = [], volume = 1): Sink {
  return {
    config_id: id(),
    name,
    ip: members.length ? null : '10.0.0.2',
    port: 4010,
    protocol: 'scream',
    is_group: members.length > 0,
    enabled: true,
    group_members: members,
    volume,
    unmute_volume: null,
    bit_depth: 16,
    sample_rate: 48000,
    channels: 2,
    channel_layout: 'stereo',
    delay: 0,
    volume_normalization: false,
    time_sync: false,
    time_sync_delay: 0,
    payload_type: null,
    mp3: { bitrate: 320, max_listeners: 32 },
    webrtc: { ...WEBRTC_DEFAULTS, ice_servers: [] },
    auto_added: null,
    equalizer: flat(),
  };
}

function source(name: string, members: string[] = [], volume = 1): Source {
  return {
    config_id: id(),
    name,
    ip: members.length ? null : '10.0.1.2',
    tag: null,
    is_group: members.length > 0,
    enabled: true,
    group_members: members,
    volume,
    unmute_volume: null,
    delay: 0,
    vnc_ip: null,
    vnc_port: 5900,
    auto_added: null,
    rtp: null,
    plugin_format: null,
    equalizer: flat(),
  };
}

function route(name: string, from: string, to: string): Route {
  return {
    config_id: id(),
    name,
    source: from,
    sink: to,
    enabled: true,
    volume: 1,
    unmute_volume: null,
    delay: 0,
    equalizer: flat(),
  };
}

/**
 * The report's worst case: G0 = {S}, Hk = {Gk-1}, Gk = {Gk-1, Hk} for k = 1..depth, routed
 * from the top to one sink: 2^depth chains from the top group to S. The H groups play at 0.9,
 * so the loudest chain is the direct one, G_depth .. G0, S.
 */
export function nestedGroups(depth: number): Solvable {
  const sources = [source('S'), source('G0', ['S'])];
  for (let k = 1; k <= depth; k++) {
    sources.push(source(`H${k}`, [`G${k - 1}`], 0.9));
    sources.push(source(`G${k}`, [`G${k - 1}`, `H${k}`]));
  }
  return { sinks: [sink('K')], sources, routes: [route('R', `G${depth}`, 'K')] };
}

/** A deterministic pseudo-random sequence (an LCG), so every run solves the same house. */
function random(seed: number): () => number {
  let x = seed >>> 0;
  return () => {
    x = (Math.imul(x, 1664525) + 1013904223) >>> 0;
    return x / 2 ** 32;
  };
}

/**
 * A large house of `entities` entries in all: 30 % real sinks, 30 % real sources, 10 % sink
 * groups and 10 % source groups (each of 2-6 members drawn from the real entries and the groups
 * before it, so groups nest), 20 % routes from any source or group to any sink or group.
 */
export function largeHouse(entities: number, seed = 1): Solvable {
  const r = random(seed);
  const pick = <T>(xs: T[]) => xs[Math.floor(r() * xs.length)]!;
  const n = (share: number) => Math.max(1, Math.round(entities * share));
  const group = <T extends { name: string }>(
    pool: T[],
    count: number,
    make: (name: string, members: string[]) => T,
    prefix: string,
  ) => {
    for (let i = 0; i < count; i++) {
      const members = new Set<string>();
      const size = 2 + Math.floor(r() * 5);
      while (members.size < size) members.add(pick(pool).name);
      pool.push(make(`${prefix}${i}`, [...members]));
    }
  };
  const sinks = [...Array(n(0.3)).keys()].map((i) => sink(`k${i}`));
  const sources = [...Array(n(0.3)).keys()].map((i) => source(`s${i}`));
  group(sinks, n(0.1), (name, m) => sink(name, m, 0.5 + r() / 2), 'K');
  group(sources, n(0.1), (name, m) => source(name, m, 0.5 + r() / 2), 'S');
  const routes = [...Array(n(0.2)).keys()].map((i) =>
    route(`r${i}`, pick(sources).name, pick(sinks).name),
  );
  return { sinks, sources, routes };
}
