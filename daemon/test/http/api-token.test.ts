// API_TOKEN guards every route but the dashboard's files (issue 27): each streaming and signalling
// endpoint (the MP3 stream, every WHEP route, each WebSocket, the VNC bridge) answers 401 without
// the token and works with it, over a real socket. The route table is walked: a new streaming or
// signalling route without an entry in SIGNALLING fails the first test, and every other route
// is checked for its 401 without one.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { get, type IncomingMessage } from 'node:http';
import { type TestContext, test } from 'node:test';
import type { RouteOptions } from 'fastify';
import WebSocket from 'ws';
import { build, localEngine } from '../helpers.js';
import { udp } from '../streams/mp3-peers.js';

const TOKEN = 'open-sesame-27';
const BEARER = { authorization: `Bearer ${TOKEN}` };
const OFFER = readFileSync(new URL('../streams/chromium-offer.sdp', import.meta.url), 'utf8');

/** The streaming and signalling routes: every route under these prefixes needs an entry. */
const STREAMING = /^\/(stream|ws|api\/whep)\//;

interface Daemon {
  readonly base: string;
  readonly fetch: (path: string, init?: RequestInit, token?: boolean) => Promise<Response>;
  readonly sinkId: string;
  /** A WHEP session made with the token: its Location. */
  session(): Promise<string>;
}

/** Opens a WebSocket; resolves with the upgrade's status and the first message (if 101). */
async function upgrade(url: string, token: boolean): Promise<{ status: number; first?: string }> {
  const ws = new WebSocket(url, { headers: token ? BEARER : {} });
  return new Promise((resolve, reject) => {
    ws.once('unexpected-response', (_req, res) => {
      resolve({ status: res.statusCode ?? 0 });
      res.resume();
      ws.terminate();
    });
    ws.once('open', () => {
      // The first message, or the close of a socket that closes at once (the VNC bridge with no
      // server), or after 2 s the socket still open (a feed with nothing to say yet).
      const quiet = setTimeout(() => {
        resolve({ status: 101, first: 'open, quiet for 2 s' });
        ws.terminate();
      }, 2000);
      ws.once('message', (data) => {
        clearTimeout(quiet);
        resolve({ status: 101, first: String(data).slice(0, 200) });
        ws.close();
      });
      ws.once('close', (code, reason) => {
        clearTimeout(quiet);
        resolve({ status: 101, first: `close ${code} ${reason}` });
      });
    });
    ws.once('error', reject);
  });
}

/** How each streaming and signalling route works with the token (the status it must get). */
const SIGNALLING: Record<string, (d: Daemon) => Promise<{ status: number; what: string }>> = {
  'GET /stream/:ip': async (d) => {
    // node:http, not fetch: the stream never ends, and its socket must close with the test.
    const res = await new Promise<IncomingMessage>((resolve, reject) =>
      get(`${d.base}/stream/127.0.0.1/`, { headers: BEARER }, resolve).once('error', reject),
    );
    const first = await new Promise<Buffer>((resolve) => res.once('data', resolve));
    res.destroy();
    return { status: res.statusCode ?? 0, what: `${res.headers['content-type']} ${first[0]}` };
  },
  'POST /api/whep/sink/:sink_id': async (d) => {
    const res = await d.fetch(`/api/whep/sink/${d.sinkId}`, {
      method: 'POST',
      headers: { 'content-type': 'application/sdp' },
      body: OFFER,
    });
    return { status: res.status, what: res.headers.get('location') ?? '' };
  },
  'PATCH /api/whep/session/:id': async (d) => {
    const res = await d.fetch(await d.session(), {
      method: 'PATCH',
      headers: { 'content-type': 'application/trickle-ice-sdpfrag' },
      body: 'a=ice-ufrag:POmB\r\na=candidate:1 1 udp 2113937151 127.0.0.1 40001 typ host\r\n',
    });
    return { status: res.status, what: await res.text() };
  },
  'DELETE /api/whep/session/:id': async (d) => {
    const res = await d.fetch(await d.session(), { method: 'DELETE' });
    return { status: res.status, what: await res.text() };
  },
  'GET /api/whep/stats/:session_id': async (d) => {
    const id = (await d.session()).split('/').pop();
    const res = await d.fetch(`/api/whep/stats/${id}`);
    return { status: res.status, what: await res.text() };
  },
  'GET /ws/config': async (d) => wsWorks(d, '/ws/config'),
  'GET /ws/stats': async (d) => wsWorks(d, '/ws/stats'),
  'GET /ws/levels': async (d) => wsWorks(d, '/ws/levels'),
  'GET /ws/vnc/:name': async (d) => wsWorks(d, '/ws/vnc/PC'),
};

async function wsWorks(d: Daemon, path: string) {
  const { status, first } = await upgrade(`${d.base.replace('http', 'ws')}${path}`, true);
  return { status, what: first ?? '' };
}

/** What each route must answer with the token, as checked by SIGNALLING. */
const WORKS: Record<string, number> = {
  'GET /stream/:ip': 200,
  'POST /api/whep/sink/:sink_id': 201,
  'PATCH /api/whep/session/:id': 204,
  'DELETE /api/whep/session/:id': 200,
  'GET /api/whep/stats/:session_id': 200,
  'GET /ws/config': 101,
  'GET /ws/stats': 101,
  'GET /ws/levels': 101,
  'GET /ws/vnc/:name': 101,
};

async function daemon(t: TestContext, routes: RouteOptions[]): Promise<Daemon> {
  const app = await build(t, { engine: localEngine, apiToken: TOKEN, routes });
  const rx = await udp(t);
  const base = await app.listen({ host: '127.0.0.1', port: 0 });
  const fetchIt = (path: string, init: RequestInit = {}, token = true) =>
    fetch(`${base}${path}`, {
      ...init,
      headers: { ...(init.headers as Record<string, string>), ...(token ? BEARER : {}) },
    });
  for (const [url, body] of [
    ['/sinks', { name: 'Desk', ip: '127.0.0.1', port: rx.address().port }],
    // A VNC host that is not listening: the bridge closes with "cannot reach" once it is open.
    ['/sources', { name: 'PC', ip: '127.0.0.1', vnc_ip: '127.0.0.1', vnc_port: 9 }],
  ] as const) {
    const res = await fetchIt(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    assert.equal(res.status, 201, await res.text());
  }
  const sinkId = ((await (await fetchIt('/sinks/Desk')).json()) as { config_id: string }).config_id;
  const session = async () => {
    const res = await fetchIt(`/api/whep/sink/${sinkId}`, {
      method: 'POST',
      headers: { 'content-type': 'application/sdp' },
      body: OFFER,
    });
    assert.equal(res.status, 201, await res.text());
    return res.headers.get('location')!;
  };
  return { base, fetch: fetchIt, sinkId, session };
}

const keyOf = (route: RouteOptions, method: string) => `${method} ${route.url}`;
const methodsOf = (route: RouteOptions) => [route.method].flat().filter((m) => m !== 'HEAD');
/** A concrete URL for a route: every parameter filled in. */
const urlOf = (route: RouteOptions) => route.url.replace(/:\w+/g, 'x').replace('*', 'api/x');

test('every streaming and signalling route answers 401 without the token and works with it', async (t) => {
  const routes: RouteOptions[] = [];
  const d = await daemon(t, routes);
  const streaming = routes
    .filter((r) => STREAMING.test(r.url))
    .flatMap((r) => methodsOf(r).map((m) => keyOf(r, m)))
    .sort();
  assert.deepEqual(streaming, Object.keys(SIGNALLING).sort(), 'a route without an entry here');
  for (const key of streaming) {
    const route = routes.find((r) => keyOf(r, methodsOf(r)[0]!) === key)!;
    const method = key.split(' ')[0]!;
    const url = urlOf(route);
    const refused = route.url.startsWith('/ws/')
      ? (await upgrade(`${d.base.replace('http', 'ws')}${url}`, false)).status
      : (await d.fetch(url, { method }, false)).status;
    assert.equal(refused, 401, `${key} without the token`);
    const works = await SIGNALLING[key]!(d);
    assert.equal(works.status, WORKS[key], `${key} with the token: ${works.what}`);
    t.diagnostic(`${key}: 401 without, ${works.status} with (${works.what.slice(0, 60)})`);
  }
});

test('every other route answers 401 without the token; only the dashboard files are public', async (t) => {
  const routes: RouteOptions[] = [];
  const d = await daemon(t, routes);
  const open = routes.filter((r) => (r.config as { public?: unknown } | undefined)?.public);
  assert.deepEqual(
    open.map((r) => `${[r.method].flat().join(',')} ${r.url}`),
    ['GET,HEAD /*'],
    'public routes',
  );
  for (const route of routes.filter((r) => !STREAMING.test(r.url))) {
    for (const method of [route.method].flat()) {
      const res = await d.fetch(urlOf(route), { method }, false);
      assert.equal(res.status, 401, `${method} ${route.url}`);
      await res.arrayBuffer();
    }
  }
  // The public fallback still guards every API path it catches.
  for (const path of ['/api/nothing', '/stream/', '/ws/nothing', '/sinks/a/b/c/d']) {
    assert.equal((await d.fetch(path, {}, false)).status, 401, path);
  }
  const page = await d.fetch('/', {}, false);
  assert.notEqual(page.status, 401, 'the dashboard page itself asks for the token');
});
