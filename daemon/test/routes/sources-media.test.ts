import assert from 'node:assert/strict';
import { createSocket } from 'node:dgram';
import { once } from 'node:events';
import { test } from 'node:test';
import { build } from '../helpers.js';

test('play, nexttrack and prevtrack send P, n, p by UDP to the source vnc_ip', async (t) => {
  const receiver = createSocket('udp4');
  receiver.bind(0, '127.0.0.1');
  await once(receiver, 'listening');
  t.after(() => receiver.close());
  const received: string[] = [];
  receiver.on('message', (msg) => received.push(msg.toString('latin1')));

  const app = await build(t, { mediaCommandPort: receiver.address().port });
  assert.equal(
    (
      await app.inject({
        method: 'POST',
        url: '/sources',
        payload: { name: 'PC', vnc_ip: '127.0.0.1' },
      })
    ).statusCode,
    201,
  );
  for (const command of ['play', 'nexttrack', 'prevtrack']) {
    const res = await app.inject(`/sources/PC/${command}`);
    assert.equal(res.statusCode, 200, res.body);
    assert.equal(res.json(), true);
  }
  const deadline = Date.now() + 2000;
  while (received.length < 3 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10));
  assert.deepEqual(
    received,
    ['P', 'n', 'p'],
    'one single-character datagram per command, in order',
  );
});

test('media commands: 409 without vnc_ip, 404 for an unknown source, 502 when sending fails', async (t) => {
  const app = await build(t);
  await app.inject({ method: 'POST', url: '/sources', payload: { name: 'Radio' } });
  const none = await app.inject('/sources/Radio/play');
  assert.equal(none.statusCode, 409);
  assert.equal(none.json().code, 'TRIBUTARY_NO_MEDIA_HOST');
  assert.equal((await app.inject('/sources/Nobody/nexttrack')).statusCode, 404);
  // The kernel refuses a broadcast send on a socket without SO_BROADCAST (nothing leaves the
  // machine), which stands for any send failure: the API answers 502 naming the destination.
  await app.inject({
    method: 'PUT',
    url: '/sources/Radio',
    payload: { vnc_ip: '255.255.255.255' },
  });
  const failed = await app.inject('/sources/Radio/prevtrack');
  assert.equal(failed.statusCode, 502);
  assert.equal(failed.json().code, 'TRIBUTARY_MEDIA_COMMAND_FAILED');
  assert.match(failed.json().message, /255\.255\.255\.255/);
});
