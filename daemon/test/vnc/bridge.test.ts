// /ws/vnc/{source}: the bridge reaches the VNC server configured on the source (a real Xvnc) and
// passes the RFB exchange both ways once it has greeted (what the viewer sends before waits; the
// services that are not VNC servers are in greeting.test.ts); it refuses unknown sources, sources
// without a VNC host and other sites' pages before upgrading, and closes with the reason when the
// server is unreachable.
import assert from 'node:assert/strict';
import { describe, type TestContext, test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import type { WebSocket } from 'ws';
import { CLOSE_UNREACHABLE } from '../../src/routes/vnc/bridge.js';
import { build } from '../helpers.js';
import { freePort, startXvnc, xvncMissing } from './xvnc.js';

const missing = xvncMissing();

async function app(t: TestContext, vncPort: number) {
  const fastify = await build(t);
  for (const payload of [
    { name: 'PC', ip: '127.0.0.1', vnc_ip: '127.0.0.1', vnc_port: vncPort },
    { name: 'Radio', ip: '127.0.0.2' },
  ]) {
    const res = await fastify.inject({ method: 'POST', url: '/sources', payload });
    assert.equal(res.statusCode, 201, res.body);
  }
  return fastify;
}

/** Collects a socket's binary messages as one growing buffer. */
function received(ws: WebSocket) {
  const chunks: Buffer[] = [];
  ws.on('message', (d: Buffer) => chunks.push(Buffer.from(d)));
  return () => Buffer.concat(chunks);
}

async function until(what: string, check: () => boolean, ms = 5000) {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) assert.fail(`timed out waiting for ${what}`);
    await sleep(20);
  }
}

describe('the VNC bridge', () => {
  test('speaks RFB with the real server on the source: version, security, the desktop size', {
    skip: missing ?? false,
  }, async (t) => {
    const xvnc = await startXvnc(320, 200, 'rgb:ff/00/00');
    t.after(() => xvnc.stop());
    const fastify = await app(t, xvnc.port);
    const ws = await fastify.injectWS('/ws/vnc/PC');
    t.after(() => ws.terminate());
    const data = received(ws);
    await until('the server version', () => data().length >= 12);
    assert.equal(data().subarray(0, 12).toString('latin1'), 'RFB 003.008\n');
    ws.send(Buffer.from('RFB 003.008\n', 'latin1'));
    // Security types: a count, then the types; None (1) is offered.
    await until('the security types', () => data().length >= 14);
    const count = data()[12]!;
    const types = [...data().subarray(13, 13 + count)];
    assert.ok(types.includes(1), `security types ${types}`);
    ws.send(Buffer.from([1]));
    await until('the security result', () => data().length >= 13 + count + 4);
    assert.equal(data().readUInt32BE(13 + count), 0, 'security result OK');
    ws.send(Buffer.from([1])); // ClientInit: shared
    const init = 13 + count + 4;
    await until('ServerInit', () => data().length >= init + 4);
    assert.deepEqual([data().readUInt16BE(init), data().readUInt16BE(init + 2)], [320, 200]);
  });

  test('a viewer that sends its version before the real server has greeted is answered as usual: its bytes wait for the greeting', {
    skip: missing ?? false,
  }, async (t) => {
    const xvnc = await startXvnc(320, 200, 'rgb:00/00/ff');
    t.after(() => xvnc.stop());
    const fastify = await app(t, xvnc.port);
    const ws = await fastify.injectWS('/ws/vnc/PC');
    t.after(() => ws.terminate());
    const data = received(ws);
    ws.send(Buffer.from('RFB 003.008\n', 'latin1')); // before anything arrived
    await until('the security types', () => data().length >= 14);
    assert.equal(data().subarray(0, 12).toString('latin1'), 'RFB 003.008\n');
    const count = data()[12]!;
    assert.ok([...data().subarray(13, 13 + count)].includes(1), 'security None offered');
    const { refusals } = (await fastify.inject('/api/stats')).json();
    assert.equal(refusals.vnc_not_rfb, 0);
  });

  test('refused before the upgrade: unknown source 404, no VNC host 409, another site 403; plain GET 426', async (t) => {
    const fastify = await app(t, 5900);
    const get = (url: string, headers: Record<string, string> = {}) =>
      fastify.inject({ method: 'GET', url, headers });
    const unknown = await get('/ws/vnc/Nobody');
    assert.equal(unknown.statusCode, 404);
    const none = await get('/ws/vnc/Radio');
    assert.equal(none.statusCode, 409);
    assert.match(none.json().message, /Source 'Radio' has no vnc_ip/);
    // Another site's page: refused before the upgrade, as every WebSocket is
    // (test/http/cross-site.test.ts), and nothing is connected.
    await assert.rejects(
      fastify.injectWS('/ws/vnc/PC', {
        headers: { origin: 'https://evil.example', host: 'tributary.local' },
      }),
      /Unexpected server response: 403/,
    );
    assert.equal((await get('/ws/vnc/PC')).statusCode, 426);
    await assert.rejects(fastify.injectWS('/ws/vnc/Radio'));
  });

  test('an unreachable VNC server closes the socket with the reason', async (t) => {
    const fastify = await app(t, await freePort());
    const ws = await fastify.injectWS('/ws/vnc/PC');
    const closed = await new Promise<{ code: number; reason: string }>((resolve) =>
      ws.on('close', (code, reason) => resolve({ code, reason: reason.toString() })),
    );
    assert.equal(closed.code, CLOSE_UNREACHABLE);
    assert.match(closed.reason, /^cannot reach 127\.0\.0\.1:\d+: connect ECONNREFUSED/);
  });
});
