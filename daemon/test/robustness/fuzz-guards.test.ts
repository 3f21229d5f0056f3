// The fuzzer's vocabulary of issue 26 (beside fuzz.test.ts, which checks every answer's form):
// requests with every method and content type to every route of the route table and to unknown
// paths, WebSocket upgrades to every path, cross-site and same-origin Origin and Sec-Fetch-Site
// values, and foreign and own Host headers. Each answer is checked against what the guards must
// do: a foreign Host is 421; otherwise a change, a GET setter or an upgrade that says another
// site is 403 TRIBUTARY_CROSS_SITE; and nothing else is refused by them (not "no 5xx" alone).
// FUZZ_SEED=n replays another sequence (fast-check prints the failing request, shrunk).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import Fastify, { type InjectOptions, type RouteOptions } from 'fastify';
import { app, fastifyOptions } from '../../src/app.js';
import { tempDir } from '../helpers.js';

const RUNS = 3000;
const SEED = Number(process.env.FUZZ_SEED ?? 26);
const TOKEN = 'fuzz-token';

/** Host headers that name this server (inject's own is localhost:80), with the origins that
 * are its own (the app is reached over plain HTTP here). */
const OWN_HOSTS: Record<string, string[]> = {
  'localhost:80': ['http://localhost:80', 'http://localhost', 'http://LOCALHOST'],
  '127.0.0.1:8443': ['http://127.0.0.1:8443'],
  '[::1]:8443': ['http://[::1]:8443', 'http://[0:0::1]:8443'],
  'tributary.local': ['http://tributary.local', 'http://tributary.local:80'],
};
const FOREIGN_HOSTS = [
  'evil.example',
  'evil.example:22443',
  'tributary.local.evil.example',
  'localhost.evil.example',
  '127.0.0.1.nip.io:8443',
  '[::2]',
  '203.0.113.9',
  'evil.example/phish?',
  'user@localhost',
  'a..b',
  'tributary-x.local',
];
const CROSS_ORIGINS = [
  'https://evil.example',
  'null',
  'http://localhost:8080',
  'https://localhost',
  'http://127.0.0.2',
  'http://evil.example:80',
  'file://',
  'garbage',
  '',
  'http://localhost:80.evil.example',
];
const SEC_FETCH_SITE = ['same-origin', 'none', 'cross-site', 'same-site', 'garbage', 'Same-Origin'];
const BODIES: { type?: string; payload?: string }[] = [
  {},
  { type: 'application/json', payload: '{"name":"F1"}' },
  { type: 'text/plain', payload: '{"name":"F2"}' },
  { type: 'application/x-www-form-urlencoded', payload: 'name=F3' },
  { type: 'multipart/form-data; boundary=x', payload: '--x\r\n\r\nF4\r\n--x--\r\n' },
  { type: 'application/sdp', payload: 'v=0\r\n' },
  { type: 'application/octet-stream', payload: '\u0000\u0001' },
];
const METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS'];
const SETTER = /^\/(sinks|sources|routes)\/[^/]+\/(enable|disable|volume\/[^/]+|delay\/[^/]+)$/;
const MEDIA = /^\/sources\/[^/]+\/(play|nexttrack|prevtrack)$/;
/** The playurl plugin's GET, a setter of the specification too. */
const PLAY_URL = /^\/plugins\/playurl\/play$/;

/** A route's URL with its parameters filled in. */
function concrete(url: string, name: string): string {
  return url
    .replace(/:name\b/g, name)
    .replace(/:volume\b/g, '0.5')
    .replace(/:delay\b/g, '10')
    .replace(/:[a-z_]+/g, 'x')
    .replace(/\*/g, 'x');
}

/** What the guards must answer: 421, 403, or null when they let it through. */
function expected(r: Sample): 421 | 403 | null {
  if (!(r.host in OWN_HOSTS)) return 421;
  const site = r.secFetchSite;
  const crossSite =
    (site !== undefined && site !== 'same-origin' && site !== 'none') ||
    (r.origin !== undefined && !OWN_HOSTS[r.host]!.includes(r.origin));
  const path = r.url.split('?')[0]!;
  const setter =
    (r.method === 'GET' || r.method === 'HEAD') &&
    (SETTER.test(path) || MEDIA.test(path) || PLAY_URL.test(path));
  const changes = !['GET', 'HEAD', 'OPTIONS'].includes(r.method) || setter || r.upgrade;
  return crossSite && changes ? 403 : null;
}

interface Sample {
  method: string;
  url: string;
  host: string;
  origin: string | undefined;
  secFetchSite: string | undefined;
  body: { type?: string; payload?: string };
  upgrade: boolean;
  token: boolean;
}

test(`fuzzing the guards: ${RUNS} requests (methods, content types, Origins, Sec-Fetch-Site, Hosts, upgrades), each answered as the guards must`, {
  timeout: 300_000,
}, async (t) => {
  const fastify = Fastify({ ...fastifyOptions, logger: false });
  const routes: RouteOptions[] = [];
  fastify.addHook('onRoute', (route) => {
    routes.push(route);
  });
  const dir = tempDir(t);
  await fastify.register(app, {
    configPath: `${dir}/config.yaml`,
    equalizerPath: `${dir}/equalizers.yaml`,
    reloadTimeoutMs: 60_000,
    apiToken: TOKEN,
    // Media commands to a port nobody listens on (the datagram is sent and lost).
    mediaCommandPort: 9,
  });
  await fastify.ready();
  t.after(() => fastify.close());
  const auth = { authorization: `Bearer ${TOKEN}` };
  for (const [url, payload] of [
    ['/sinks', { name: 'Kitchen', ip: '127.0.0.1' }],
    ['/sources', { name: 'PC', ip: '127.0.0.2', vnc_ip: '127.0.0.1', vnc_port: 9 }],
    ['/routes', { name: 'PC to Kitchen', source: 'PC', sink: 'Kitchen' }],
  ] as const) {
    const res = await fastify.inject({ method: 'POST', url, payload, headers: auth });
    assert.equal(res.statusCode, 201, res.body);
  }
  const paths = [
    ...new Set(routes.map((r) => r.url!).filter((u) => !u.includes('*'))),
    '/nowhere',
    '/ws/nowhere',
    '/sinks/Kitchen/volume/1e309',
    '/sources/Nobody/play',
  ];
  const name = fc.constantFrom('Kitchen', 'PC', 'PC%20to%20Kitchen', 'Nobody', '%2F', '%25');
  const sample: fc.Arbitrary<Sample> = fc.record({
    method: fc.constantFrom(...METHODS),
    url: fc.tuple(fc.constantFrom(...paths), name).map(([p, n]) => concrete(p, n)),
    host: fc.oneof(
      { weight: 3, arbitrary: fc.constantFrom(...Object.keys(OWN_HOSTS)) },
      { weight: 1, arbitrary: fc.constantFrom(...FOREIGN_HOSTS) },
    ),
    origin: fc.option(fc.constantFrom(...CROSS_ORIGINS, ...Object.values(OWN_HOSTS).flat()), {
      nil: undefined,
      freq: 2,
    }),
    secFetchSite: fc.option(fc.constantFrom(...SEC_FETCH_SITE), { nil: undefined, freq: 2 }),
    body: fc.constantFrom(...BODIES),
    upgrade: fc.boolean(),
    token: fc.boolean(),
  });

  const tally = new Map<string, number>();
  let refusedByGuards = 0;
  await fc.assert(
    fc.asyncProperty(sample, async (r) => {
      const headers: Record<string, string> = { host: r.host };
      if (r.origin !== undefined) headers.origin = r.origin;
      if (r.secFetchSite !== undefined) headers['sec-fetch-site'] = r.secFetchSite;
      if (r.token) headers.authorization = `Bearer ${TOKEN}`;
      const want = expected(r);
      let status: number;
      let code: string | undefined;
      if (r.upgrade) {
        // Upgrades are GETs; an opened socket is closed at once.
        r.method = 'GET';
        try {
          const ws = await fastify.injectWS(r.url, { headers });
          ws.terminate();
          status = 101;
        } catch (err) {
          status = Number(/Unexpected server response: (\d+)/.exec(String(err))?.[1] ?? 0);
        }
      } else {
        const options: InjectOptions = { method: r.method as 'GET', url: r.url, headers };
        if (r.body.type) headers['content-type'] = r.body.type;
        if (r.body.payload !== undefined && r.method !== 'GET' && r.method !== 'HEAD') {
          options.payload = r.body.payload;
        }
        const res = await fastify.inject(options);
        status = res.statusCode;
        const json = String(res.headers['content-type']).includes('json') && res.body !== '';
        code = json ? res.json().code : undefined;
      }
      const what = `${JSON.stringify(r)} answered ${status} ${code ?? ''}`;
      assert.ok(status > 0 && status < 500, what);
      if (want !== null) {
        refusedByGuards++;
        assert.equal(status, want, what);
        if (code !== undefined) {
          assert.equal(
            code,
            want === 421 ? 'TRIBUTARY_UNKNOWN_HOST' : 'TRIBUTARY_CROSS_SITE',
            what,
          );
        }
      } else {
        assert.notEqual(status, 421, what);
        assert.ok(
          !(status === 403 && (code === undefined || code === 'TRIBUTARY_CROSS_SITE')),
          what,
        );
      }
      const key = want === null ? `passed ${status}` : `refused ${want}`;
      tally.set(key, (tally.get(key) ?? 0) + 1);
    }),
    { numRuns: RUNS, seed: SEED },
  );
  const { refusals } = (await fastify.inject({ url: '/api/stats', headers: auth })).json();
  // fast-check may run a sample again while shrinking; none failed, so each ran once.
  assert.equal(refusals.unknown_host + refusals.cross_site, refusedByGuards);
  const shown = [...tally].sort().map(([k, n]) => `${k}: ${n}`);
  t.diagnostic(`${RUNS} requests (seed ${SEED}); ${shown.join(', ')}`);
});
