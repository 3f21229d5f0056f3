// A meter on every source card (issue 31, finding 3: one could not see which PC is sending). A
// tone from one sender moves its card's meter and leaves the other source's still.
import assert from 'node:assert/strict';
import type { Socket } from 'node:dgram';
import { after, before, describe, test } from 'node:test';
import { receivers, sendScream } from './harness/audio';
import { type Running, ready, start } from './harness/dashboard';

let run: Running;
let sockets: Socket[] = [];
let screamPort: number;
before(async () => {
  run = await start();
  sockets = await receivers(1);
  const port = (sockets[0]!.address() as { port: number }).port;
  await run.api('POST', '/sinks', { name: 'Kitchen', ip: '127.0.0.1', port });
  await run.api('POST', '/sources', { name: 'PC', ip: '127.0.0.1' });
  await run.api('POST', '/sources', { name: 'TV', ip: '127.0.0.2' });
  await run.api('POST', '/routes', { name: 'a', source: 'PC', sink: 'Kitchen' });
  await run.api('POST', '/routes', { name: 'b', source: 'TV', sink: 'Kitchen' });
  const stats = await run.api('GET', '/api/stats');
  screamPort = (stats.body as { engine: { ports: { scream: number[] } } }).engine.ports.scream[0]!;
});
after(async () => {
  for (const s of sockets) s.close();
  await run?.close();
});

describe('source cards', () => {
  test("each source card's meter shows what that source sends", async () => {
    const { page, context, errors } = await run.open('/', { width: 1280, height: 800 });
    await ready(page);
    const pc = page.getByRole('article', { name: 'PC', exact: true }).getByRole('meter');
    const tv = page.getByRole('article', { name: 'TV', exact: true }).getByRole('meter');
    assert.equal(await pc.getAttribute('aria-label'), 'Level of PC');
    assert.equal(await tv.getAttribute('aria-valuetext'), 'silent');
    const stop = await sendScream(screamPort, ['127.0.0.1']);
    try {
      // The harness's tone: 440 Hz at 6000/32767 of full scale, -14.7 dBFS RMS.
      await page.waitForFunction(
        () =>
          /^-14\.[5-9] dB$/.test(
            document
              .querySelector('article[aria-labelledby] [aria-label="Level of PC"]')
              ?.getAttribute('aria-valuetext') ?? '',
          ),
        undefined,
        { timeout: 10_000 },
      );
      assert.equal(await tv.getAttribute('aria-valuetext'), 'silent', 'TV sends nothing');
    } finally {
      stop();
    }
    assert.deepEqual(errors, []);
    await context.close();
  });
});
