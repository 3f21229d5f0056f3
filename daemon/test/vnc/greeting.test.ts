// The VNC bridge is not a TCP proxy (issue 26, part 3): nothing passes either way until the
// server on the source's vnc_ip:vnc_port has greeted with an RFB ProtocolVersion. Against
// services that are not VNC servers (an HTTP server, the daemon's own port, a service with a
// banner, a silent one, one that hangs up) the socket closes with a code and a reason, the
// browser's bytes never reach the service and the service's never reach the browser; against
// servers greeting with the versions real ones send, what the browser sent early is delivered
// after the greeting.
import assert from 'node:assert/strict';
import { once } from 'node:events';
import { createServer as createHttpServer } from 'node:http';
import { createServer, type Server, type Socket } from 'node:net';
import { describe, type TestContext, test } from 'node:test';
import type { WebSocket } from 'ws';
import { CLOSE_NO_GREETING, CLOSE_NOT_VNC, CLOSE_TOO_EARLY } from '../../src/routes/vnc/bridge.js';
import { build } from '../helpers.js';

interface Peer {
  readonly port: number;
  /** Bytes the service received from the bridge. */
  received(): Buffer;
}

/** A TCP service on 127.0.0.1 that does `greet` with each connection and records what it gets. */
async function service(t: TestContext, greet: (socket: Socket) => void): Promise<Peer> {
  const chunks: Buffer[] = [];
  const server: Server = createServer((socket) => {
    socket.on('data', (c) => chunks.push(c));
    socket.on('error', () => {});
    greet(socket);
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  t.after(() => new Promise((r) => server.close(r)));
  return {
    port: (server.address() as { port: number }).port,
    received: () => Buffer.concat(chunks),
  };
}

/** The app with a source PC whose VNC server is 127.0.0.1:`port`. */
async function appFor(t: TestContext, port: number) {
  const fastify = await build(t);
  const res = await fastify.inject({
    method: 'POST',
    url: '/sources',
    payload: { name: 'PC', vnc_ip: '127.0.0.1', vnc_port: port },
  });
  assert.equal(res.statusCode, 201, res.body);
  return fastify;
}

/** Opens /ws/vnc/PC, sends `early` at once, and collects what arrives until the socket closes. */
async function session(fastify: Awaited<ReturnType<typeof appFor>>, early: Buffer[]) {
  const opened = Date.now();
  const ws: WebSocket = await fastify.injectWS('/ws/vnc/PC');
  const chunks: Buffer[] = [];
  ws.on('message', (d: Buffer) => chunks.push(Buffer.from(d)));
  for (const c of early) ws.send(c);
  const closed = new Promise<{ code: number; reason: string; ms: number }>((resolve) =>
    ws.on('close', (code, reason) =>
      resolve({ code, reason: reason.toString(), ms: Date.now() - opened }),
    ),
  );
  return { ws, closed, received: () => Buffer.concat(chunks) };
}

const HTTP_REQUEST = Buffer.from('GET /api/config HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n');

describe('the VNC bridge relays only to a server that greets as a VNC server', {
  concurrency: true,
}, () => {
  test('an HTTP server: nothing relayed either way, closed after 5 s with the reason', async (t) => {
    let requests = 0;
    let bytes = 0;
    const http = createHttpServer((_req, res) => {
      requests++;
      res.end('secret');
    });
    http.on('connection', (s) => s.on('data', (c: Buffer) => (bytes += c.length)));
    http.listen(0, '127.0.0.1');
    await once(http, 'listening');
    t.after(() => new Promise((r) => http.close(r)));
    const port = (http.address() as { port: number }).port;
    const fastify = await appFor(t, port);
    const s = await session(fastify, [HTTP_REQUEST]);
    const closed = await s.closed;
    assert.equal(closed.code, CLOSE_NO_GREETING);
    assert.equal(
      closed.reason,
      `127.0.0.1:${port} sent no VNC greeting within 5 s: is it a VNC server?`,
    );
    assert.ok(closed.ms >= 4900 && closed.ms < 8000, `closed after ${closed.ms} ms`);
    assert.deepEqual([requests, bytes, s.received().length], [0, 0, 0]);
    const { refusals } = (await fastify.inject('/api/stats')).json();
    assert.equal(refusals.vnc_not_rfb, 1);
    assert.match(
      refusals.last.message,
      /^VNC bridge of source 'PC' closed: .* \(received nothing\)$/,
    );
  });

  test("the daemon's own port: its API is never reached through the bridge", async (t) => {
    const fastify = await appFor(t, 1);
    await fastify.listen({ host: '127.0.0.1', port: 0 });
    const port = (fastify.server.address() as { port: number }).port;
    let requests = 0;
    fastify.server.on('request', () => requests++);
    const put = await fastify.inject({
      method: 'PUT',
      url: '/sources/PC',
      payload: { vnc_port: port },
    });
    assert.equal(put.statusCode, 200, put.body);
    const s = await session(fastify, [HTTP_REQUEST]);
    const closed = await s.closed;
    assert.equal(closed.code, CLOSE_NO_GREETING);
    assert.deepEqual([requests, s.received().length], [0, 0]);
  });

  test('a service with a banner (SSH): closed at once, the banner not relayed, the browser bytes not sent', async (t) => {
    const banner = 'SSH-2.0-OpenSSH_9.2p1 Debian-2+deb12u3\r\n';
    const peer = await service(t, (socket) => socket.write(banner));
    const fastify = await appFor(t, peer.port);
    const s = await session(fastify, [Buffer.from('RFB 003.008\n')]);
    const closed = await s.closed;
    assert.equal(closed.code, CLOSE_NOT_VNC);
    assert.equal(
      closed.reason,
      `127.0.0.1:${peer.port} is not a VNC server: it did not greet with an RFB protocol version`,
    );
    assert.ok(closed.ms < 2000, `closed after ${closed.ms} ms`);
    assert.deepEqual([s.received().length, peer.received().length], [0, 0]);
    const { refusals } = (await fastify.inject('/api/stats')).json();
    assert.equal(refusals.vnc_not_rfb, 1);
    // The log (and /api/stats) show what it sent instead; the browser does not get it.
    assert.ok(
      refusals.last.message.includes('it sent "SSH-2.0-OpenSSH_9.2p1 Debian-2+d"... instead of'),
      refusals.last.message,
    );
  });

  test('a silent service: closed after 5 s; one that hangs up: closed at once', async (t) => {
    const silent = await service(t, () => {});
    const hangsUp = await service(t, (socket) => socket.end());
    const [a, b] = await Promise.all([
      appFor(t, silent.port).then((f) => session(f, [Buffer.from('RFB 003.008\n')])),
      appFor(t, hangsUp.port).then((f) => session(f, [])),
    ]);
    const [quiet, gone] = await Promise.all([a.closed, b.closed]);
    assert.equal(quiet.code, CLOSE_NO_GREETING);
    assert.equal(silent.received().length, 0);
    assert.equal(gone.code, CLOSE_NOT_VNC);
    assert.equal(
      gone.reason,
      `127.0.0.1:${hangsUp.port} closed the connection without a VNC greeting: is it a VNC server?`,
    );
    assert.ok(gone.ms < 2000, `closed after ${gone.ms} ms`);
  });

  test('more than 4096 bytes from the browser before the greeting: closed (1009), none sent', async (t) => {
    const silent = await service(t, () => {});
    const fastify = await appFor(t, silent.port);
    const s = await session(fastify, [Buffer.alloc(3000, 1), Buffer.alloc(1500, 2)]);
    const closed = await s.closed;
    assert.equal(closed.code, CLOSE_TOO_EARLY);
    assert.match(
      closed.reason,
      /^the viewer sent more than 4096 bytes before 127\.0\.0\.1:\d+ greeted$/,
    );
    assert.ok(closed.ms < 2000, `closed after ${closed.ms} ms`);
    assert.equal(silent.received().length, 0);
  });

  test('the versions VNC servers greet with, at once or in pieces: the greeting reaches the browser, then what it sent early reaches the server, then bytes flow', async (t) => {
    for (const version of ['003.003', '003.007', '003.008', '003.889', '004.001', '005.000']) {
      const greeting = `RFB ${version}\n`;
      const peer = await service(t, (socket) => {
        // Late and in two pieces, so the browser's version is sent first and must wait.
        setTimeout(() => socket.write(greeting.slice(0, 5)), 100);
        setTimeout(() => socket.write(greeting.slice(5)), 200);
        socket.on('data', () => socket.write(Buffer.from([1, 1])));
      });
      const fastify = await appFor(t, peer.port);
      const s = await session(fastify, [Buffer.from('RFB 003.008\n')]);
      const end = Date.now() + 5000;
      while (s.received().length < 14 && Date.now() < end) {
        await new Promise((r) => setTimeout(r, 20));
      }
      assert.equal(s.received().toString('latin1'), `${greeting}\x01\x01`, version);
      assert.equal(peer.received().toString('latin1'), 'RFB 003.008\n', version);
      s.ws.terminate();
    }
  });
});
