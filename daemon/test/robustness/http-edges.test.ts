// The HTTP edges of issue 10: every odd request answers in our error format with the right
// status, never a 500 and never an empty or Fastify-shaped body.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { InjectOptions } from 'fastify';
import { build } from '../helpers.js';

async function app(t: Parameters<typeof build>[0], options = {}) {
  const built = await build(t, options);
  const call = async (opts: InjectOptions) => {
    const res = await built.inject(opts);
    const body = res.body ? res.json() : undefined;
    return { status: res.statusCode, body, headers: res.headers, size: res.body.length };
  };
  return { built, call };
}

/** Our Error schema: status, TRIBUTARY_* code, status text, message. */
function ours(
  body: { statusCode: number; code: string; error: string; message: string },
  status: number,
) {
  assert.equal(body.statusCode, status);
  assert.match(body.code, /^TRIBUTARY_[A-Z_]+$/);
  assert.equal(typeof body.error, 'string');
  assert.equal(typeof body.message, 'string');
}

describe('odd requests', () => {
  test('an undecodable token cookie is 401, a well encoded one works', async (t) => {
    const { call } = await app(t, { apiToken: 'sécret' });
    for (const cookie of ['tributary_token=%', 'tributary_token=%E0%A4%A', 'tributary_token=%%']) {
      const res = await call({ method: 'GET', url: '/sinks', headers: { cookie } });
      assert.equal(res.status, 401, cookie);
      ours(res.body, 401);
    }
    const good = `tributary_token=${encodeURIComponent('sécret')}`;
    assert.equal(
      (await call({ method: 'GET', url: '/sinks', headers: { cookie: good } })).status,
      200,
    );
  });

  test('deeply nested JSON is 400 naming the bound; ordinary nesting is validated as usual', async (t) => {
    const { call } = await app(t);
    const json = { 'content-type': 'application/json' };
    for (const payload of [
      `${'['.repeat(5000)}${']'.repeat(5000)}`,
      `${'{"a":'.repeat(5000)}1${'}'.repeat(5000)}`,
      `{"name":"x","equalizer":${'['.repeat(40)}${']'.repeat(40)}}`,
    ]) {
      const res = await call({ method: 'POST', url: '/sinks', headers: json, payload });
      assert.equal(res.status, 400);
      ours(res.body, 400);
      assert.equal(res.body.details[0].keyword, 'depth');
      assert.match(res.body.message, /more than 32 levels deep/);
    }
    // Brackets inside strings do not count.
    const name = '[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[';
    const res = await call({
      method: 'POST',
      url: '/sinks',
      headers: json,
      payload: JSON.stringify({ name }),
    });
    assert.equal(res.status, 201, JSON.stringify(res.body));
  });

  test('bad percent-encoding and over-long path segments answer in our format', async (t) => {
    const { call } = await app(t);
    const bad = await call({ method: 'GET', url: '/sinks/%ZZ' });
    assert.equal(bad.status, 400);
    ours(bad.body, 400);
    assert.equal(bad.body.code, 'TRIBUTARY_BAD_URL');
    const long = await call({ method: 'GET', url: `/sinks/${'a'.repeat(2000)}` });
    assert.equal(long.status, 414);
    ours(long.body, 414);
    assert.equal(long.body.code, 'TRIBUTARY_URL_TOO_LONG');
    // The longest name there is (64 characters of 4-byte UTF-8, 768 percent-encoded) works.
    const name = '🎵'.repeat(64); // 64 characters (code points), 768 percent-encoded
    const created = await call({ method: 'POST', url: '/sinks', payload: { name } });
    assert.equal(created.status, 201, JSON.stringify(created.body));
    const got = await call({ method: 'GET', url: `/sinks/${encodeURIComponent(name)}` });
    assert.equal(got.status, 200);
  });

  test('WebSocket URLs without the upgrade answer 426 with Upgrade: websocket', async (t) => {
    const { call } = await app(t);
    for (const url of ['/ws/config', '/ws/stats']) {
      const res = await call({ method: 'GET', url });
      assert.equal(res.status, 426, url);
      assert.equal(res.headers.upgrade, 'websocket');
      ours(res.body, 426);
      assert.equal(res.body.code, 'TRIBUTARY_UPGRADE_REQUIRED');
    }
  });

  test('a known URL with the wrong method is 405 with Allow; an unknown URL stays 404', async (t) => {
    const { call } = await app(t);
    await call({ method: 'POST', url: '/sinks', payload: { name: 'A' } });
    for (const [method, url, allow] of [
      ['PATCH', '/sinks', 'GET, HEAD, POST'],
      ['DELETE', '/api/config', 'GET, HEAD'],
      ['POST', '/sinks/A', 'DELETE, GET, HEAD, PUT'],
      ['DELETE', '/sinks/A/volume/0.5', 'GET, HEAD, PUT'],
      ['POST', '/ws/config', 'GET, HEAD'],
    ] as const) {
      const res = await call({ method, url });
      assert.equal(res.status, 405, `${method} ${url}`);
      assert.equal(res.headers.allow, allow, `${method} ${url}`);
      ours(res.body, 405);
      assert.equal(res.body.code, 'TRIBUTARY_METHOD_NOT_ALLOWED');
    }
    // Paths outside the API's prefixes are the dashboard's client routes (index.html).
    const missing = await call({ method: 'GET', url: '/api/nowhere' });
    assert.equal(missing.status, 404);
    ours(missing.body, 404);
  });

  test('400 answers cap their details and the values they echo', async (t) => {
    const { call } = await app(t);
    const members = Array.from({ length: 60_000 }, (_, i) => `member ${i}`);
    const many = await call({
      method: 'POST',
      url: '/sinks',
      payload: { name: 'G', is_group: true, group_members: members },
    });
    assert.equal(many.status, 400);
    assert.equal(many.body.details.length, 20);
    assert.match(many.body.message, /and 59999 more problems/);
    assert.ok(many.size < 20_000, `${many.size} bytes`);
    const big = await call({
      method: 'POST',
      url: '/sinks',
      payload: { name: 'x'.repeat(1_000_000) },
    });
    assert.equal(big.status, 400);
    assert.ok(big.size < 2_000, `${big.size} bytes`);
    assert.match(big.body.details[0].value, /\(1000002 characters as JSON\)$/);
  });
});

describe('changes through GET', () => {
  test('refused from another site, accepted from the same origin, a bookmark or a script', async (t) => {
    const { call } = await app(t);
    await call({ method: 'POST', url: '/sinks', payload: { name: 'A' } });
    await call({ method: 'POST', url: '/sources', payload: { name: 'S', vnc_ip: '127.0.0.1' } });
    const host = 'localhost:80'; // inject's Host
    for (const headers of [
      { origin: 'https://evil.example' },
      { origin: 'null' },
      { 'sec-fetch-site': 'cross-site' },
      { 'sec-fetch-site': 'same-site' },
    ]) {
      for (const url of ['/sinks/A/volume/0.1', '/sinks/A/disable', '/sources/S/play']) {
        const res = await call({ method: 'GET', url, headers });
        assert.equal(res.status, 403, `${url} ${JSON.stringify(headers)}`);
        ours(res.body, 403);
        assert.equal(res.body.code, 'TRIBUTARY_CROSS_SITE');
        assert.match(
          res.body.message,
          url.endsWith('play') ? /use POST \/sources\/S\/play/ : /use PUT /,
        );
      }
    }
    assert.equal((await call({ method: 'GET', url: '/sinks/A' })).body.volume, 1, 'unchanged');
    for (const headers of [
      {},
      { 'sec-fetch-site': 'none' },
      { 'sec-fetch-site': 'same-origin', origin: `http://${host}` },
    ]) {
      const res = await call({ method: 'GET', url: '/sinks/A/volume/0.3', headers });
      assert.equal(res.status, 200, JSON.stringify(headers));
    }
    // The same through PUT: refused from another site's page too (every change is), taken
    // from a script.
    const refused = await call({
      method: 'PUT',
      url: '/sinks/A/volume/0.7',
      headers: { origin: 'https://x.example' },
    });
    assert.equal(refused.status, 403);
    assert.match(
      refused.body.message,
      /^PUT \/sinks\/A\/volume\/0\.7 is refused from another site's page \(Origin: https:\/\/x\.example\)/,
    );
    const put = await call({ method: 'PUT', url: '/sinks/A/volume/0.7' });
    assert.equal(put.status, 200);
    assert.equal((await call({ method: 'GET', url: '/sinks/A' })).body.volume, 0.7);
    assert.equal((await call({ method: 'PUT', url: '/sinks/A/disable' })).status, 200);
    assert.equal((await call({ method: 'GET', url: '/sinks/A' })).body.enabled, false);
    assert.equal((await call({ method: 'PUT', url: '/sinks/A/delay/250' })).status, 200);
    assert.equal((await call({ method: 'GET', url: '/sinks/A' })).body.delay, 250);
  });
});
