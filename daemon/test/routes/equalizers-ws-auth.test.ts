import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { parse } from 'yaml';
import { build } from '../helpers.js';

describe('/equalizers', () => {
  test('list, get, add (bands default to flat), 409 on a taken name, delete', async (t) => {
    const app = await build(t);
    const list = await app.inject('/equalizers');
    assert.equal(list.statusCode, 200);
    assert.ok(list.json().some((p: { name: string }) => p.name === 'Flat'));
    const added = await app.inject({
      method: 'POST',
      url: '/equalizers',
      payload: { name: 'Mine', b1: 1.5 },
    });
    assert.equal(added.statusCode, 201);
    assert.equal(added.json().b1, 1.5);
    assert.equal(added.json().b18, 1);
    const onDisk = parse(readFileSync(join(app.dir, 'equalizers.yaml'), 'utf8'));
    assert.ok(
      onDisk.equalizers.some(
        (p: { name: string; b1: number }) => p.name === 'Mine' && p.b1 === 1.5,
      ),
    );
    assert.equal((await app.inject('/equalizers/Mine')).json().b1, 1.5);
    const dup = await app.inject({ method: 'POST', url: '/equalizers', payload: { name: 'Mine' } });
    assert.equal(dup.statusCode, 409);
    const bad = await app.inject({
      method: 'POST',
      url: '/equalizers',
      payload: { name: 'X', b7: 2.5 },
    });
    assert.equal(bad.statusCode, 400);
    assert.equal(bad.json().details[0].message, 'b7 must be <= 2 (got 2.5)');
    assert.equal((await app.inject({ method: 'DELETE', url: '/equalizers/Mine' })).json(), true);
    assert.equal((await app.inject({ method: 'DELETE', url: '/equalizers/Mine' })).statusCode, 404);
    assert.equal((await app.inject('/equalizers/Mine')).statusCode, 404);
  });
});

describe('/ws/config and /api/config', () => {
  test('the WebSocket pushes the full state with its revision on connect, then after each change', async (t) => {
    const app = await build(t);
    const messages: { type: string; revision: number; config: { sinks: { name: string }[] } }[] =
      [];
    const ws = await app.injectWS(
      '/ws/config',
      {},
      {
        onInit: (socket) =>
          socket.on('message', (data) => messages.push(JSON.parse(data.toString()))),
      },
    );
    const wait = async (n: number) => {
      const end = Date.now() + 3000;
      while (messages.length < n && Date.now() < end) await new Promise((r) => setTimeout(r, 10));
      assert.equal(messages.length, n);
    };
    const closed = new Promise<number>((resolve) => ws.on('close', resolve));
    t.after(async () => assert.equal(await closed, 1001, 'closed with Going Away on shutdown'));
    await wait(1);
    assert.equal(messages[0]!.type, 'config');
    assert.deepEqual(messages[0]!.config.sinks, []);
    const first = messages[0]!.revision;
    await app.inject({ method: 'POST', url: '/sinks', payload: { name: 'Kitchen' } });
    await wait(2);
    assert.equal(messages[1]!.revision, first + 1);
    assert.deepEqual(
      messages[1]!.config.sinks.map((s) => s.name),
      ['Kitchen'],
    );
    const polled = (await app.inject('/api/config')).json();
    assert.deepEqual(polled, messages[1]);
  });
});

describe('API_TOKEN', () => {
  test('every request needs the token (bearer or cookie) when it is set; compared exactly', async (t) => {
    const app = await build(t, { apiToken: 's3cret' });
    const none = await app.inject('/sinks');
    assert.equal(none.statusCode, 401);
    assert.equal(none.json().code, 'TRIBUTARY_UNAUTHORIZED');
    assert.equal(
      (await app.inject({ url: '/sinks', headers: { authorization: 'Bearer wrong' } })).statusCode,
      401,
    );
    assert.equal(
      (await app.inject({ url: '/sinks', headers: { authorization: 'Bearer s3cret' } })).statusCode,
      200,
    );
    assert.equal(
      (await app.inject({ url: '/sinks', headers: { cookie: 'a=b; tributary_token=s3cret' } }))
        .statusCode,
      200,
    );
    assert.equal(
      (await app.inject({ url: '/api/health', headers: { cookie: 'tributary_token=s3cre' } }))
        .statusCode,
      401,
    );
    assert.equal(
      (await app.inject('/sinks/no/such/route')).statusCode,
      401,
      'no probing of API routes without the token',
    );
    await assert.rejects(app.injectWS('/ws/config'), /401|Unexpected server response/);
    const ws = await app.injectWS('/ws/config', { headers: { authorization: 'Bearer s3cret' } });
    ws.terminate();
  });

  test('without API_TOKEN the API is open, as documented', async (t) => {
    const app = await build(t);
    assert.equal((await app.inject('/sinks')).statusCode, 200);
  });
});
