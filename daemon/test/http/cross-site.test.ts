// Requests another site's page can make (issue 26, part 2): every change, whatever its method and
// content type, every GET setter and every WebSocket upgrade is refused (403) when Origin or
// Sec-Fetch-Site says another site, API_TOKEN or not; programs (no Origin, Sec-Fetch-Site: none)
// and the same origin keep working. The route table is walked, so a route added later is
// covered by these tests without being named in them.
import assert from 'node:assert/strict';
import { createSocket } from 'node:dgram';
import { once } from 'node:events';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { describe, type TestContext, test } from 'node:test';
import Fastify, { type InjectOptions, type RouteOptions } from 'fastify';
import { type AppOptions, app, fastifyOptions } from '../../src/app.js';
import { tempDir } from '../helpers.js';

/** What tells a page of another site: each alone must be enough. */
const CROSS_SITE: Record<string, string>[] = [
  { origin: 'https://evil.example', 'sec-fetch-site': 'cross-site' },
  { origin: 'https://evil.example' },
  { origin: 'null' },
  { 'sec-fetch-site': 'cross-site' },
  { 'sec-fetch-site': 'same-site' },
  // Same host, another port: another program's page on this machine.
  { origin: 'http://localhost:8080' },
];
/** Bodies a page can send without asking the daemon first (no CORS preflight), and JSON. */
const BODIES: { type?: string; payload?: string }[] = [
  {},
  { type: 'text/plain', payload: '{"name":"Evil","volume":1}' },
  { type: 'application/x-www-form-urlencoded', payload: 'name=Evil' },
  { type: 'multipart/form-data; boundary=x', payload: '--x\r\n\r\nEvil\r\n--x--\r\n' },
  { type: 'application/json', payload: '{"name":"Evil"}' },
];
const SAFE = new Set(['GET', 'HEAD', 'OPTIONS']);

interface Built {
  readonly fastify: Awaited<ReturnType<typeof Fastify>>;
  readonly routes: RouteOptions[];
  /** Media command datagrams received (the sources' vnc_ip is 127.0.0.1). */
  readonly datagrams: string[];
  /** Resolves once every media command sent so far is in `datagrams` (see `drained`). */
  readonly drained: () => Promise<void>;
  readonly logs: string[];
}

/** The app on an un-listened instance, with its route table, a UDP receiver for media
 * commands, a few entries of each kind, and its log lines. */
async function built(t: TestContext, options: Partial<AppOptions> = {}): Promise<Built> {
  const receiver = createSocket('udp4');
  receiver.bind(0, '127.0.0.1');
  await once(receiver, 'listening');
  t.after(() => receiver.close());
  const datagrams: string[] = [];
  let marked: (() => void) | undefined;
  receiver.on('message', (m) => {
    const text = m.toString('latin1');
    if (text === MARKER) marked?.();
    else datagrams.push(text);
  });
  const drained = () => drain(receiver.address().port, (arrived) => (marked = arrived));
  const logs: string[] = [];
  const stream = new Writable({
    write(chunk, _encoding, done) {
      logs.push(String(chunk));
      done();
    },
  });
  const fastify = Fastify({ ...fastifyOptions, logger: { level: 'warn', stream } });
  const routes: RouteOptions[] = [];
  fastify.addHook('onRoute', (route) => {
    routes.push(route);
  });
  const dir = tempDir(t);
  await fastify.register(app, {
    configPath: join(dir, 'config.yaml'),
    equalizerPath: join(dir, 'equalizers.yaml'),
    reloadTimeoutMs: 60_000,
    mediaCommandPort: receiver.address().port,
    ...options,
  });
  await fastify.ready();
  t.after(() => fastify.close());
  const auth = options.apiToken ? { authorization: `Bearer ${options.apiToken}` } : {};
  for (const [url, payload] of [
    ['/sinks', { name: 'A', ip: '127.0.0.1' }],
    ['/sources', { name: 'S', ip: '127.0.0.2', vnc_ip: '127.0.0.1' }],
    ['/routes', { name: 'R', source: 'S', sink: 'A' }],
  ] as const) {
    const res = await fastify.inject({ method: 'POST', url, payload, headers: auth });
    assert.equal(res.statusCode, 201, res.body);
  }
  return { fastify, routes, datagrams, drained, logs };
}

/** A route's URL with its parameters filled in with the entries `built` made. */
function concrete(url: string): string {
  const kind = url.split('/')[1];
  const name = kind === 'sinks' ? 'A' : kind === 'routes' ? 'R' : kind === 'ws' ? 'S' : 'S';
  return url
    .replace(/:name\b/g, name)
    .replace(/:volume\b/g, '0.1')
    .replace(/:delay\b/g, '100')
    .replace(/:ip\b/g, '127.0.0.1')
    .replace(/:[a-z_]+/g, 'x')
    .replace(/\*/g, 'x');
}

/** Everything a change could touch: the configuration, the presets, the favorites. */
async function state(b: Built, headers: Record<string, string> = {}) {
  const read = async (url: string) => (await b.fastify.inject({ url, headers })).body;
  return {
    config: await read('/api/config'),
    equalizers: await read('/equalizers'),
    favorites: await read('/api/favorites'),
  };
}

function methodsOf(route: RouteOptions): string[] {
  return [route.method].flat().map((m) => m.toUpperCase());
}

const isWebSocket = (route: RouteOptions) =>
  (route as { wsHandler?: unknown }).wsHandler !== undefined;

/** A datagram no route sends, marking the end of what came before it. */
const MARKER = 'marker: everything before me has arrived';

/**
 * The witness that a refused request sent no media command, instead of a fixed sleep: the
 * routes answer only once their datagram is handed to the kernel (`await sendMediaCommand`),
 * so a command a request sent went out before its answer; a marker sent after the answers, to
 * the same receiver over loopback, arrives after it. Resolves when the marker has arrived
 * (`onArrival` is called with the resolver); fails after 5 s.
 */
async function drain(port: number, onArrival: (arrived: () => void) => void): Promise<void> {
  const arrived = new Promise<void>((resolve, reject) => {
    const late = setTimeout(
      () => reject(new Error('the marker datagram did not arrive in 5 s')),
      5000,
    );
    onArrival(() => {
      clearTimeout(late);
      resolve();
    });
  });
  const sender = createSocket('udp4');
  await new Promise<void>((resolve, reject) =>
    sender.send(MARKER, port, '127.0.0.1', (err) => (err ? reject(err) : resolve())),
  );
  sender.close();
  await arrived;
}

describe('requests from another site', () => {
  test('the issue: POST /sources/{name}/play|nexttrack|prevtrack as text/plain from evil.example is 403 and sends nothing; a script still can', async (t) => {
    const b = await built(t);
    for (const command of ['play', 'nexttrack', 'prevtrack']) {
      const res = await b.fastify.inject({
        method: 'POST',
        url: `/sources/S/${command}`,
        headers: {
          'content-type': 'text/plain',
          origin: 'https://evil.example',
          'sec-fetch-site': 'cross-site',
        },
        payload: 'x',
      });
      assert.equal(res.statusCode, 403, `${command}: ${res.body}`);
      assert.equal(res.json().code, 'TRIBUTARY_CROSS_SITE');
      assert.equal(
        res.json().message,
        `POST /sources/S/${command} is refused from another site's page ` +
          "(Sec-Fetch-Site: cross-site): changes come from the dashboard's own pages or from " +
          'programs, which send no Origin (or Sec-Fetch-Site: none)',
      );
    }
    await b.drained();
    assert.deepEqual(b.datagrams, [], 'no media command was sent');
    for (const headers of [{}, { 'sec-fetch-site': 'none' }]) {
      const res = await b.fastify.inject({ method: 'POST', url: '/sources/S/play', headers });
      assert.equal(res.statusCode, 200, res.body);
    }
    await b.drained();
    assert.deepEqual(b.datagrams, ['P', 'P']);
  });

  test("walking the route table: every change (any method but GET/HEAD/OPTIONS), in every content type, is refused from another site's page and changes nothing", async (t) => {
    const b = await built(t);
    const before = await state(b);
    const unsafe = b.routes.flatMap((route) =>
      methodsOf(route)
        .filter((m) => !SAFE.has(m))
        .map((method) => ({ method, url: route.url! })),
    );
    // The API has changes of every kind: entries, setters, media commands, presets, discovery,
    // favorites, WebRTC sessions.
    assert.ok(unsafe.length >= 30, `${unsafe.length} changing routes`);
    for (const method of ['POST', 'PUT', 'DELETE', 'PATCH']) {
      assert.ok(
        unsafe.some((r) => r.method === method),
        `the route table has ${method} routes`,
      );
    }
    let refused = 0;
    for (const { method, url } of unsafe) {
      for (const headers of CROSS_SITE) {
        for (const body of BODIES) {
          const options: InjectOptions = {
            method: method as 'POST',
            url: concrete(url),
            headers: { ...headers, ...(body.type ? { 'content-type': body.type } : {}) },
            ...(body.payload === undefined ? {} : { payload: body.payload }),
          };
          const res = await b.fastify.inject(options);
          const what = `${method} ${url} ${JSON.stringify(options.headers)}`;
          assert.equal(res.statusCode, 403, `${what}: ${res.body.slice(0, 200)}`);
          assert.equal(res.json().code, 'TRIBUTARY_CROSS_SITE', what);
          refused++;
        }
      }
    }
    await b.drained();
    assert.deepEqual(await state(b), before, 'nothing changed');
    assert.deepEqual(b.datagrams, []);
    const stats = (await b.fastify.inject('/api/stats')).json();
    assert.equal(stats.refusals.cross_site, refused);
    t.diagnostic(
      `${unsafe.length} changing routes x ${CROSS_SITE.length} x ${BODIES.length}: ${refused} refused`,
    );
  });

  test('walking the route table: no GET or HEAD changes anything when another site sends it (the setters are refused); from a script the setters do change', async (t) => {
    const b = await built(t);
    const before = await state(b);
    const reads = b.routes
      .filter((r) => !isWebSocket(r))
      .flatMap((route) =>
        methodsOf(route)
          .filter((m) => m === 'GET' || m === 'HEAD')
          .map((method) => ({ method, url: route.url!, setter: route.config?.changes })),
      );
    const setters = reads.filter((r) => r.setter && r.method === 'GET');
    // enable, disable, volume, delay of sinks, sources and routes, the three media commands,
    // and playing a URL (the playurl plugin's GET, whose safe form is another route's POST).
    assert.equal(setters.length, 4 * 3 + 3 + 1, setters.map((s) => s.url).join(', '));
    for (const { method, url, setter } of reads) {
      for (const headers of CROSS_SITE) {
        const res = await b.fastify.inject({
          method: method as 'GET',
          url: concrete(url),
          headers,
        });
        const what = `${method} ${url} ${JSON.stringify(headers)}`;
        if (setter) {
          assert.equal(res.statusCode, 403, `${what}: ${res.body.slice(0, 200)}`);
          if (method === 'GET') {
            assert.match(res.json().message, new RegExp(`; use ${setter}( |$)`));
          }
        } else {
          assert.notEqual(res.statusCode, 403, what);
        }
      }
    }
    await b.drained();
    assert.deepEqual(await state(b), before, 'nothing changed');
    assert.deepEqual(b.datagrams, []);
    // The walk would have seen a change: the same setters from a script make them (playing a
    // URL needs a URL, a sink and the engine: test/plugins/ plays them).
    for (const { url } of setters.filter((s) => !s.url.startsWith('/plugins/'))) {
      const res = await b.fastify.inject(concrete(url));
      assert.equal(res.statusCode, 200, `${url}: ${res.body}`);
    }
    await b.drained();
    assert.notDeepEqual((await state(b)).config, before.config);
    assert.deepEqual(b.datagrams.sort(), ['P', 'n', 'p']);
  });

  test('walking the route table: every WebSocket is refused before the upgrade from another site, opened from the same origin and from programs', async (t) => {
    const b = await built(t);
    const sockets = b.routes
      .filter((r) => isWebSocket(r) && methodsOf(r).includes('GET'))
      .map((r) => concrete(r.url!));
    assert.deepEqual(
      [...sockets].sort(),
      ['/ws/config', '/ws/levels', '/ws/stats', '/ws/vnc/S'],
      'the WebSockets there are today (a new one is walked too)',
    );
    for (const url of sockets) {
      for (const headers of CROSS_SITE) {
        await assert.rejects(
          b.fastify.injectWS(url, { headers: { host: 'localhost:80', ...headers } }),
          /Unexpected server response: 403/,
          `${url} ${JSON.stringify(headers)}`,
        );
      }
      for (const headers of [
        {},
        { host: 'localhost:80', origin: 'http://localhost:80' },
        { host: 'localhost:80', origin: 'http://localhost', 'sec-fetch-site': 'same-origin' },
        { host: 'localhost:80', 'sec-fetch-site': 'none' },
      ]) {
        const ws = await b.fastify.injectWS(url, { headers });
        ws.terminate();
      }
    }
    const stats = (await b.fastify.inject('/api/stats')).json();
    assert.equal(stats.refusals.cross_site, sockets.length * CROSS_SITE.length);
  });

  test('with API_TOKEN the check stays: the token cookie of a same-site page does not make a change from it acceptable', async (t) => {
    const b = await built(t, { apiToken: 'sesame' });
    const cookie = 'tributary_token=sesame';
    const from = (origin: string) => ({ cookie, host: 'localhost:80', origin });
    const setVolume = (volume: number, headers: Record<string, string>) =>
      b.fastify.inject({ method: 'PUT', url: `/sinks/A/volume/${volume}`, headers });
    const evil = await setVolume(0.2, from('http://localhost:3000'));
    assert.equal(evil.statusCode, 403, evil.body);
    const noToken = await setVolume(0.2, { origin: 'https://evil.example' });
    assert.equal(noToken.statusCode, 403, 'refused as cross-site before the token is asked for');
    await assert.rejects(
      b.fastify.injectWS('/ws/config', { headers: from('http://localhost:3000') }),
      /403/,
    );
    const sinkVolume = async () =>
      (await b.fastify.inject({ url: '/sinks/A', headers: { cookie } })).json().volume;
    assert.equal(await sinkVolume(), 1);
    const own = await setVolume(0.2, from('http://localhost:80'));
    assert.equal(own.statusCode, 200, own.body);
    const script = await setVolume(0.3, { authorization: 'Bearer sesame' });
    assert.equal(script.statusCode, 200);
    assert.equal(await sinkVolume(), 0.3);
    const ws = await b.fastify.injectWS('/ws/config', { headers: from('http://localhost:80') });
    ws.terminate();
  });

  test('refusals are counted in /api/stats and logged at a bounded rate', async (t) => {
    const b = await built(t);
    for (let i = 0; i < 40; i++) {
      const res = await b.fastify.inject({
        method: 'DELETE',
        url: '/sinks/A',
        headers: { origin: 'https://evil.example' },
      });
      assert.equal(res.statusCode, 403);
    }
    const { refusals } = (await b.fastify.inject('/api/stats')).json();
    assert.equal(refusals.cross_site, 40);
    assert.equal(refusals.unknown_host, 0);
    assert.equal(refusals.last.kind, 'cross_site');
    assert.match(
      refusals.last.message,
      /^refused DELETE \/sinks\/A from 127\.0\.0\.1: .*Origin: https:\/\/evil\.example/,
    );
    const lines = b.logs.filter((l) => l.includes('refused DELETE'));
    assert.ok(lines.length >= 1 && lines.length <= 5, `${lines.length} log lines for 40 refusals`);
  });
});
