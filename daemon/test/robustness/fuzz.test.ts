// A bounded HTTP fuzzer (issue 10): 5,000 requests built from the API's own vocabulary and the
// inputs that broke it (±Infinity and 1e309 in setters, deep nesting, undecodable cookies,
// IPv6 zone ids, bad percent-encoding, huge bodies, wrong methods and content types, cross-site
// headers, names the rule of names refuses in bodies and URLs), against a daemon with API_TOKEN set and a house already configured. No answer may
// be a 5xx; every error must be in our format; and what was saved must load again.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { test } from 'node:test';
import type { InjectOptions } from 'fastify';
import { ConfigStore } from '../../src/config/store.js';
import { build } from '../helpers.js';
import { seededRandom as random } from '../seeded-random.js';
import { BAD_NAMES } from './bad-names.js';

const REQUESTS = 5000;
const TOKEN = 'fuzz-token';
/** FUZZ_SEED=n replays another sequence (a failure names its request number). */
const SEED = Number(process.env.FUZZ_SEED ?? 10);

const NAMES = ['Kitchen', 'Den', 'Downstairs', 'PC', 'PCs', 'PC to Downstairs', 'Nowhere'];
/** One name of each class the rule of names refuses: lone surrogates, controls, "/", "." ... */
const BAD_NAME_TEXTS = BAD_NAMES.map((b) => b.name);
const NAMES_AND_BAD = [...NAMES, ...NAMES, ...BAD_NAME_TEXTS];
const ODD_NAMES = [
  '%ZZ',
  '%',
  '%E0%A4%A',
  '%00',
  '%2F',
  '..',
  '.',
  'a%2Fb',
  '%F0%9F%8E%B5'.repeat(64),
  'x'.repeat(70),
  'x'.repeat(800),
  'x'.repeat(3000),
  '%20lead',
  'trail%20',
  'K%C3%BCche',
  '%7B%7D',
  // Names the rule refuses (issue 26; test/robustness/names.test.ts checks each answer): a lone
  // surrogate's bytes, C0, DEL, C1, a bidirectional override, a zero-width space, dot segments.
  '%ED%BF%BF',
  'a%ED%A0%BD',
  '%07',
  'a%7F',
  '%C2%85',
  'x%E2%80%AEy',
  '%E2%80%8B',
  '%2E',
  '%2E%2E',
];
const NUMBERS = [
  'Infinity',
  '-Infinity',
  '1e309',
  '-1e309',
  'NaN',
  '0x1',
  '%20',
  '1e',
  '-0',
  '0',
  '0.5',
  '1',
  '1.5',
  '5000',
  '5001',
  '2.5e-1',
  '1e-400',
  '99999999999999999999999',
  '+1',
  '.5',
  '1.',
  'true',
];
const IPS = [
  '::1%1',
  'fe80::1%eth0',
  '::1',
  '127.0.0.1',
  '10.0.0.300',
  '1.2.3',
  '::ffff:1.2.3.4',
  '',
  '[::1]',
  'localhost',
  '01.2.3.4',
  '1::2::3',
];
const VALUES: unknown[] = [
  null,
  true,
  false,
  0,
  -1,
  0.5,
  1,
  2,
  1e308,
  -1e308,
  5000,
  65536,
  '',
  'x',
  'x'.repeat(300),
  [],
  {},
  [1, 2],
  { a: 1 },
  'stereo',
  '5.1',
  'scream',
  'rtp',
  48000,
  24,
];
const FIELDS = [
  'name',
  'ip',
  'port',
  'protocol',
  'volume',
  'delay',
  'enabled',
  'is_group',
  'group_members',
  'bit_depth',
  'sample_rate',
  'channels',
  'channel_layout',
  'equalizer',
  'config_id',
  'source',
  'sink',
  'tag',
  'rtp',
  'vnc_ip',
  'vnc_port',
  'b1',
  'b18',
  'time_sync',
  '__proto__',
  'constructor',
];

function nested(depth: number, array: boolean): string {
  return array
    ? `${'['.repeat(depth)}${']'.repeat(depth)}`
    : `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`;
}

/** Plausible values per field, so that many changes go through and later ones meet them. */
const GOOD: Record<string, readonly unknown[]> = {
  ip: ['127.0.0.1', '::1', '192.168.1.50', null],
  port: [4010, 5000, 65535],
  volume: [0, 0.25, 1],
  delay: [0, 250, 5000],
  enabled: [true, false],
  channels: [1, 2, 6],
  channel_layout: ['mono', 'stereo', '5.1'],
  protocol: ['scream', 'rtp'],
  bit_depth: [16, 24],
  equalizer: [{ b1: 1.5 }, {}],
  vnc_ip: ['127.0.0.1', null],
  source: NAMES,
  sink: NAMES,
};
const FIELDS_OF: Record<string, readonly string[]> = {
  sinks: ['ip', 'port', 'volume', 'delay', 'enabled', 'channels', 'channel_layout', 'protocol'],
  sources: ['ip', 'volume', 'delay', 'enabled', 'equalizer', 'vnc_ip'],
  routes: ['source', 'sink', 'volume', 'delay', 'enabled', 'equalizer'],
};

function body(r: ReturnType<typeof random>, kind: string): { payload?: string; type?: string } {
  const roll = r.next();
  if (roll < 0.08)
    return {
      payload: nested(r.pick([10, 33, 100, 5000, 20000]), r.chance(0.5)),
      type: 'application/json',
    };
  if (roll < 0.12)
    return {
      payload: r.pick(['{', '}', '[', 'null', '"x"', '1e309', 'NaN', '{"a":1e309}', '\u0000', '']),
      type: 'application/json',
    };
  if (roll < 0.15)
    return {
      payload: 'x'.repeat(r.pick([10, 1024 * 1024 + 1, 2 * 1024 * 1024])),
      type: r.pick(['application/json', 'text/plain', 'application/octet-stream']),
    };
  if (roll < 0.18)
    return {
      payload: 'name=x&volume=1',
      type: r.pick(['application/x-www-form-urlencoded', 'multipart/form-data', 'text/plain']),
    };
  const object: Record<string, unknown> = {};
  if (r.chance(0.5)) {
    // A plausible change: a new or existing name and good values of the kind's fields.
    object.name = r.chance(0.5) ? `F${Math.floor(r.next() * 50)}` : r.pick(NAMES);
    for (const field of FIELDS_OF[kind] ?? []) {
      if (r.chance(0.3)) object[field] = r.pick(GOOD[field]!);
    }
    if (kind === 'routes' && r.chance(0.7)) {
      Object.assign(object, { source: r.pick(NAMES), sink: r.pick(NAMES) });
    }
    if (kind !== 'routes' && r.chance(0.15)) {
      Object.assign(object, { is_group: true, group_members: [r.pick(NAMES)], ip: null });
    }
    return { payload: JSON.stringify(object), type: 'application/json' };
  }
  if (r.chance(0.7))
    object.name = r.chance(0.8)
      ? `F${Math.floor(r.next() * 50)}`
      : r.pick([...NAMES, 'x'.repeat(65), '', ' lead', 'a/b', '\u0007', ...BAD_NAME_TEXTS]);
  for (let i = 0, n = Math.floor(r.next() * 5); i < n; i++) {
    const field = r.pick(FIELDS);
    object[field] =
      field === 'ip' || field === 'vnc_ip'
        ? r.pick(IPS)
        : field === 'group_members'
          ? Array.from({ length: r.pick([0, 1, 3, 200]) }, () => r.pick(NAMES_AND_BAD))
          : field === 'source' || field === 'sink'
            ? r.pick(NAMES_AND_BAD)
            : r.pick(VALUES);
  }
  let text = JSON.stringify(object);
  // Numbers JSON.stringify cannot write.
  if (r.chance(0.1))
    text = text.replace(
      /}$/,
      `${text === '{}' ? '' : ','}"volume":${r.pick(['1e309', '-1e309', '1e-400'])}}`,
    );
  return {
    payload: text,
    type: r.pick([
      'application/json',
      'application/json',
      'application/json; charset=utf-8',
      'text/plain',
    ]),
  };
}

function request(r: ReturnType<typeof random>): InjectOptions {
  const kind = r.pick(['sinks', 'sources', 'routes']);
  const name = r.chance(0.75) ? encodeURIComponent(r.pick(NAMES)) : r.pick(ODD_NAMES);
  const templates: [string, readonly string[]][] = [
    [`/${kind}`, ['GET', 'POST']],
    [`/${kind}/${name}`, ['GET', 'PUT', 'DELETE']],
    [`/${kind}/${name}/enable`, ['GET', 'PUT']],
    [`/${kind}/${name}/disable`, ['GET', 'PUT']],
    [`/${kind}/${name}/volume/${r.pick(NUMBERS)}`, ['GET', 'PUT']],
    [`/${kind}/${name}/delay/${r.pick(NUMBERS)}`, ['GET', 'PUT']],
    [`/${kind}/${name}/equalizer`, ['GET', 'POST']],
    [`/sources/${name}/play`, ['GET', 'POST']],
    ['/equalizers', ['GET', 'POST']],
    [`/equalizers/${name}`, ['GET', 'DELETE']],
    ['/api/health', ['GET']],
    ['/api/config', ['GET']],
    ['/api/stats', ['GET']],
    ['/api/openapi.json', ['GET']],
    ['/ws/config', ['GET']],
    ['/ws/stats', ['GET']],
    [`/${name}`, ['GET']],
    [`/sinks?${name}=1`, ['GET']],
  ];
  const [url, methods] = r.pick(templates);
  const method = r.chance(0.8)
    ? r.pick(methods)
    : r.pick(['GET', 'POST', 'PUT', 'DELETE', 'PATCH', 'HEAD', 'OPTIONS']);
  const headers: Record<string, string> = {};
  const auth = r.next();
  if (auth < 0.6) headers.authorization = `Bearer ${TOKEN}`;
  else if (auth < 0.75) headers.cookie = `tributary_token=${encodeURIComponent(TOKEN)}`;
  else if (auth < 0.9)
    headers.cookie = r.pick([
      'tributary_token=%',
      'tributary_token=%E0%A4%A',
      'tributary_token=%%25',
      'tributary_token=',
      '=;;=',
      `tributary_token=${TOKEN}; tributary_token=%`,
    ]);
  else if (auth < 0.95)
    headers.authorization = r.pick([
      'Bearer',
      'Bearer ',
      'Basic x',
      `bearer ${TOKEN}x`,
      'Bearer \u00e9',
    ]);
  if (r.chance(0.15))
    headers.origin = r.pick(['https://evil.example', 'null', 'http://localhost:80', '::::']);
  if (r.chance(0.1))
    headers['sec-fetch-site'] = r.pick([
      'cross-site',
      'same-site',
      'same-origin',
      'none',
      'garbage',
    ]);
  const options: InjectOptions = { method: method as 'GET', url, headers };
  if (method === 'POST' || method === 'PUT' || method === 'PATCH' || r.chance(0.05)) {
    const b = body(r, kind);
    if (b.payload !== undefined) options.payload = b.payload;
    if (b.type) headers['content-type'] = b.type;
  }
  return options;
}

test(`HTTP fuzzing: ${REQUESTS} requests, no 5xx, every error in our format`, {
  timeout: 300_000,
}, async (t) => {
  const app = await build(t, { apiToken: TOKEN });
  const auth = { authorization: `Bearer ${TOKEN}` };
  for (const [url, payload] of [
    ['/sinks', { name: 'Kitchen', ip: '127.0.0.1' }],
    ['/sinks', { name: 'Den', ip: '::1' }],
    ['/sinks', { name: 'Downstairs', is_group: true, group_members: ['Kitchen', 'Den'] }],
    ['/sources', { name: 'PC', ip: '127.0.0.2', vnc_ip: '127.0.0.1' }],
    ['/sources', { name: 'PCs', is_group: true, group_members: ['PC'] }],
    ['/routes', { name: 'PC to Downstairs', source: 'PCs', sink: 'Downstairs' }],
  ] as const) {
    assert.equal(
      (await app.inject({ method: 'POST', url, payload, headers: auth })).statusCode,
      201,
    );
  }
  const r = random(SEED);
  const statuses = new Map<number, number>();
  const started = Date.now();
  for (let i = 0; i < REQUESTS; i++) {
    const options = request(r);
    const res = await app.inject(options);
    statuses.set(res.statusCode, (statuses.get(res.statusCode) ?? 0) + 1);
    const what = `#${i} ${options.method} ${String(options.url).slice(0, 120)} ${JSON.stringify(options.headers).slice(0, 200)}`;
    assert.ok(
      res.statusCode < 500,
      `${what} answered ${res.statusCode}: ${res.body.slice(0, 300)}`,
    );
    if (res.statusCode >= 400 && options.method !== 'HEAD') {
      const error = res.json();
      assert.equal(error.statusCode, res.statusCode, what);
      assert.match(error.code, /^TRIBUTARY_[A-Z_]+$/, `${what}: ${res.body.slice(0, 300)}`);
      assert.equal(typeof error.message, 'string', what);
      assert.ok(res.body.length < 64 * 1024, `${what}: a ${res.body.length}-byte error`);
    }
  }
  const seconds = (Date.now() - started) / 1000;
  // What was saved loads again, and everything still answers.
  const reopened = await ConfigStore.open({
    configPath: join(app.dir, 'config.yaml'),
    equalizerPath: join(app.dir, 'equalizers.yaml'),
    watch: false,
  });
  await reopened.close();
  for (const url of ['/sinks', '/sources', '/routes', '/equalizers', '/api/config', '/api/stats']) {
    assert.equal((await app.inject({ method: 'GET', url, headers: auth })).statusCode, 200, url);
  }
  const histogram = [...statuses].sort(([a], [b]) => a - b).map(([s, n]) => `${s}: ${n}`);
  t.diagnostic(`${REQUESTS} requests in ${seconds.toFixed(1)} s, 0 5xx; ${histogram.join(', ')}`);
});
