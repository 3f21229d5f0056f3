// The daemon closes a /ws/config socket that falls more than 1 MiB behind with code 4008 (issue
// 26, daemon/src/services/feeds.ts). The dashboard connects again and shows the latest state:
// here the close comes from Playwright's WebSocket route, on the first socket only.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { type Running, ready, start } from './harness/dashboard';

let run: Running;
before(async () => {
  run = await start();
});
after(() => run?.close());

test('a /ws/config closed with 4008 (too slow) reconnects and shows what changed meanwhile', async () => {
  const { page, errors, context } = await run.open('/', {});
  let sockets = 0;
  let closeFirst: (() => void) | null = null;
  await page.routeWebSocket(/\/ws\/config$/, (ws) => {
    sockets += 1;
    const server = ws.connectToServer();
    if (sockets === 1) {
      closeFirst = () => {
        void ws.close({ code: 4008, reason: 'too slow: more than 1 MiB unsent' });
        void server.close();
      };
    }
  });
  await page.reload();
  await ready(page);
  assert.equal(sockets, 1);
  closeFirst!();
  assert.equal((await run.api('POST', '/sinks', { name: 'Porch' })).status, 201);
  await page.getByRole('article', { name: 'Porch' }).waitFor();
  assert.equal(sockets, 2, 'one new socket');
  assert.deepEqual(errors, []);
  await context.close();
});
