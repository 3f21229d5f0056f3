// A refused WebSocket upgrade (another Host: 421, another site: 403, no token: 401) gets its
// answer and then its connection closed by the server. An upgrade request's socket is taken
// from the HTTP server before the guards run, so nothing else would close it: each refused
// attempt held a file descriptor until the client went away, and the daemon's close waited for
// clients that never did.
import assert from 'node:assert/strict';
import { once } from 'node:events';
import { connect } from 'node:net';
import { test } from 'node:test';
import { build } from '../helpers.js';

const UPGRADE =
  'Upgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Version: 13\r\n' +
  'Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n';

/** Sends an upgrade request over raw TCP and keeps the socket open (never ends it itself). */
async function refusedUpgrade(port: number, path: string, headers: string) {
  const socket = connect(port, '127.0.0.1');
  await once(socket, 'connect');
  let answer = '';
  socket.on('data', (d) => {
    answer += d;
  });
  socket.write(`GET ${path} HTTP/1.1\r\n${UPGRADE}${headers}\r\n`);
  const closed = once(socket, 'close');
  const timeout = new Promise<'open'>((resolve) => setTimeout(() => resolve('open'), 3000));
  const outcome = await Promise.race([closed.then(() => 'closed' as const), timeout]);
  socket.destroy();
  return { status: Number(/^HTTP\/1\.1 (\d{3})/.exec(answer)?.[1]), outcome };
}

test('a refused WebSocket upgrade is answered and its connection closed by the server', async (t) => {
  const app = await build(t, { apiToken: 'sesame' });
  const port = Number(new URL(await app.listen({ host: '127.0.0.1', port: 0 })).port);
  const here = `Host: 127.0.0.1:${port}\r\n`;
  const cases = [
    ['another Host', 'Host: evil.example\r\nAuthorization: Bearer sesame\r\n', 421],
    [
      'another site',
      `${here}Origin: https://evil.example\r\nAuthorization: Bearer sesame\r\n`,
      403,
    ],
    ['no token', here, 401],
  ] as const;
  for (const path of ['/ws/config', '/ws/stats', '/ws/levels', '/ws/vnc/PC']) {
    for (const [why, headers, status] of cases) {
      assert.deepEqual(
        await refusedUpgrade(port, path, headers),
        { status, outcome: 'closed' },
        `${path}, ${why}`,
      );
    }
  }
  // Nothing left holding the close.
  const started = Date.now();
  await app.close();
  assert.ok(Date.now() - started < 2000, `close took ${Date.now() - started} ms`);
});
