import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, type TestContext, test } from 'node:test';
import { parse } from 'yaml';
import { build } from '../helpers.js';

type Json = Record<string, unknown>;

async function withHouse(t: TestContext) {
  const app = await build(t);
  const call = async (method: string, url: string, payload?: unknown) => {
    const res = await app.inject({
      method: method as 'GET',
      url,
      ...(payload === undefined ? {} : { payload: payload as Json }),
    });
    return {
      status: res.statusCode,
      body: res.body ? res.json() : undefined,
      headers: res.headers,
    };
  };
  for (const [url, body] of [
    ['/sinks', { name: 'Kitchen', ip: '192.168.1.20' }],
    ['/sinks', { name: 'Den', ip: '192.168.1.21' }],
    ['/sinks', { name: 'Downstairs', is_group: true, group_members: ['Kitchen', 'Den'] }],
    ['/sources', { name: 'PC', ip: '192.168.1.10' }],
    ['/sources', { name: 'PCs', is_group: true, group_members: ['PC'] }],
    ['/routes', { name: 'PC to Downstairs', source: 'PCs', sink: 'Downstairs' }],
  ] as const) {
    const res = await call('POST', url, body);
    assert.equal(res.status, 201, JSON.stringify(res.body));
  }
  const disk = () => parse(readFileSync(join(app.dir, 'config.yaml'), 'utf8'));
  return { app, call, disk };
}

const kinds = [
  {
    path: '/sinks',
    list: 'sinks',
    name: 'Kitchen',
    create: { name: 'Garage', ip: '192.168.1.30' },
    group: 'Downstairs',
  },
  {
    path: '/sources',
    list: 'sources',
    name: 'PC',
    create: { name: 'Laptop', ip: '192.168.1.11' },
    group: 'PCs',
  },
  {
    path: '/routes',
    list: 'routes',
    name: 'PC to Downstairs',
    create: { name: 'PC to Kitchen', source: 'PC', sink: 'Kitchen' },
    group: null,
  },
] as const;

for (const kind of kinds) {
  const one = `${kind.path}/${encodeURIComponent(kind.name)}`;
  describe(kind.path, () => {
    test('GET lists and gets one; unknown names are a JSON 404', async (t) => {
      const { call } = await withHouse(t);
      const list = await call('GET', kind.path);
      assert.equal(list.status, 200);
      assert.ok((list.body as Json[]).some((e) => e.name === kind.name));
      const got = await call('GET', one);
      assert.equal(got.status, 200);
      assert.equal((got.body as Json).name, kind.name);
      assert.match(String((got.body as Json).config_id), /^[0-9a-f-]{36}$/);
      const missing = await call('GET', `${kind.path}/Nowhere`);
      assert.equal(missing.status, 404);
      assert.deepEqual(missing.body, {
        statusCode: 404,
        code: 'TRIBUTARY_NOT_FOUND',
        error: 'Not Found',
        message: `No ${kind.list.slice(0, -1)} named 'Nowhere'`,
      });
    });

    test('POST answers 201 with every default, saved before the answer; 409 on a taken name; 400 names the field', async (t) => {
      const { call, disk } = await withHouse(t);
      const created = await call('POST', kind.path, kind.create);
      assert.equal(created.status, 201);
      const body = created.body as Json;
      assert.equal(body.enabled, true);
      assert.equal(body.volume, 1);
      assert.equal(body.delay, 0);
      assert.equal(Object.keys(body.equalizer as Json).length, 18);
      assert.ok(
        disk()[kind.list].some(
          (e: Json) => e.name === kind.create.name && e.config_id === body.config_id,
        ),
      );
      const again = await call('POST', kind.path, kind.create);
      assert.equal(again.status, 409);
      assert.equal((again.body as Json).code, 'TRIBUTARY_DUPLICATE_NAME');
      const bad = await call('POST', kind.path, {
        ...kind.create,
        name: 'X',
        volume: 1.01,
        delay: -1,
        bogus: true,
      });
      assert.equal(bad.status, 400);
      const details = (bad.body as { details: Json[] }).details;
      assert.deepEqual(
        details.map((d) => [d.path, d.rule, d.value]),
        [
          ['bogus', 'is not a known field', true],
          ['volume', 'must be <= 1', 1.01],
          ['delay', 'must be >= 0', -1],
        ],
      );
      const noName = await call('POST', kind.path, {});
      assert.equal(noName.status, 400);
      assert.equal((noName.body as { details: Json[] }).details[0]!.message, 'name is required');
      const notObject = await call('POST', kind.path, [1]);
      assert.equal(notObject.status, 400);
      assert.match(String((notObject.body as Json).message), /^body must be object/);
    });

    test('PUT is partial: fields left out keep their value; config_id cannot change', async (t) => {
      const { call } = await withHouse(t);
      const before = (await call('GET', one)).body as Json;
      const put = await call('PUT', one, { volume: 0.4, equalizer: { b5: 1.7 } });
      assert.equal(put.status, 200);
      const after = put.body as Json;
      assert.equal(after.volume, 0.4);
      assert.equal((after.equalizer as Json).b5, 1.7);
      assert.equal((after.equalizer as Json).b6, 1);
      assert.deepEqual({ ...after, volume: before.volume, equalizer: before.equalizer }, before);
      const same = await call('PUT', one, { config_id: before.config_id });
      assert.equal(same.status, 200);
      const changed = await call('PUT', one, { config_id: '0b6e5f0c-3f5c-4a8e-9a63-2f1f8c2f7d11' });
      assert.equal(changed.status, 400);
      assert.equal((changed.body as { details: Json[] }).details[0]!.path, 'config_id');
      assert.equal((await call('PUT', `${kind.path}/Nowhere`, { volume: 0.5 })).status, 404);
      assert.equal((await call('PUT', one, { volume: 'loud' })).status, 400);
    });

    test('PUT renames, keeping config_id and rewriting references in the same save', async (t) => {
      const { call, disk } = await withHouse(t);
      const before = (await call('GET', one)).body as Json;
      const renamed = await call('PUT', one, { name: 'Renamed' });
      assert.equal(renamed.status, 200);
      assert.equal((renamed.body as Json).config_id, before.config_id);
      assert.equal((await call('GET', one)).status, 404);
      const saved = disk();
      if (kind.list === 'sinks') {
        assert.deepEqual(saved.sinks.find((s: Json) => s.name === 'Downstairs').group_members, [
          'Renamed',
          'Den',
        ]);
      }
      if (kind.list === 'sources') {
        assert.deepEqual(saved.sources.find((s: Json) => s.name === 'PCs').group_members, [
          'Renamed',
        ]);
      }
      const taken = await call('PUT', '/sinks/Den', { name: 'Downstairs' });
      assert.equal(taken.status, 409);
    });

    test('setters: enable, disable, volume, delay, equalizer (true, 400 out of bounds, 404 unknown)', async (t) => {
      const { call } = await withHouse(t);
      const get = async () => (await call('GET', one)).body as Json;
      assert.deepEqual((await call('GET', `${one}/disable`)).body, true);
      assert.equal((await get()).enabled, false);
      assert.deepEqual((await call('GET', `${one}/enable`)).body, true);
      assert.equal((await get()).enabled, true);
      assert.deepEqual((await call('GET', `${one}/volume/0.25`)).body, true);
      assert.equal((await get()).volume, 0.25);
      for (const [value, rule] of [
        ['1.5', 'must be <= 1'],
        ['-0.1', 'must be >= 0'],
        ['loud', 'must be a finite decimal number'],
      ]) {
        const res = await call('GET', `${one}/volume/${value}`);
        assert.equal(res.status, 400, value);
        assert.equal((res.body as { details: Json[] }).details[0]!.rule, rule);
        assert.equal((res.body as { details: Json[] }).details[0]!.path, 'volume');
      }
      assert.deepEqual((await call('GET', `${one}/delay/5000`)).body, true);
      assert.equal((await get()).delay, 5000);
      assert.equal((await call('GET', `${one}/delay/5001`)).status, 400);
      assert.equal((await call('GET', `${one}/delay/2.5`)).status, 400);
      const bands = Object.fromEntries(Array.from({ length: 18 }, (_, i) => [`b${i + 1}`, i / 10]));
      assert.deepEqual((await call('POST', `${one}/equalizer`, bands)).body, true);
      assert.deepEqual((await call('GET', `${one}/equalizer`)).body, bands);
      const partial = await call('POST', `${one}/equalizer`, { b1: 1 });
      assert.equal(partial.status, 400);
      assert.equal((partial.body as { details: Json[] }).details[0]!.path, 'b2');
      assert.equal((await call('POST', `${one}/equalizer`, { ...bands, b3: 2.5 })).status, 400);
      assert.equal((await call('GET', `${kind.path}/Nowhere/enable`)).status, 404);
      assert.equal((await call('GET', `${kind.path}/Nowhere/volume/0.5`)).status, 404);
    });

    test('DELETE answers true; 404 unknown; 409 while referenced, saying by what', async (t) => {
      const { call, disk } = await withHouse(t);
      if (kind.group) {
        const refused = await call('DELETE', one);
        assert.equal(refused.status, 409);
        assert.equal((refused.body as Json).code, 'TRIBUTARY_IN_USE');
        assert.match(String((refused.body as Json).message), new RegExp(`group '${kind.group}'`));
        const group = await call('DELETE', `${kind.path}/${kind.group}`);
        assert.equal(group.status, 409, 'the group itself is named by the route');
        assert.match(String((group.body as Json).message), /route 'PC to Downstairs'/);
        assert.equal((await call('DELETE', '/routes/PC%20to%20Downstairs')).status, 200);
        assert.equal((await call('DELETE', `${kind.path}/${kind.group}`)).status, 200);
      }
      const deleted = await call('DELETE', one);
      assert.equal(deleted.status, 200);
      assert.equal(deleted.body, true);
      assert.ok(!disk()[kind.list].some((e: Json) => e.name === kind.name));
      assert.equal((await call('DELETE', one)).status, 404);
    });
  });
}

describe('API details', () => {
  test('a route must name an existing source and sink; a group members that exist; no cycles', async (t) => {
    const { call } = await withHouse(t);
    const route = await call('POST', '/routes', { name: 'R', source: 'Nobody', sink: 'Kitchen' });
    assert.equal(route.status, 400);
    assert.deepEqual(
      (route.body as { details: Json[] }).details.map((d) => d.path),
      ['source'],
    );
    const cycle = await call('PUT', '/sinks/Downstairs', {
      group_members: ['Kitchen', 'Downstairs'],
    });
    assert.equal(cycle.status, 400);
    assert.equal((cycle.body as { details: Json[] }).details[0]!.keyword, 'cycle');
  });

  test('trailing slashes work as documented (/stream/{ip}/ style paths)', async (t) => {
    const { call } = await withHouse(t);
    assert.equal((await call('GET', '/sinks/')).status, 200);
    assert.equal((await call('GET', '/sinks/Kitchen/enable/')).status, 200);
  });

  test('malformed JSON is a 400, an unknown route a JSON 404, a wrong method 405, never a 500', async (t) => {
    const { app } = await withHouse(t);
    const res = await app.inject({
      method: 'POST',
      url: '/sinks',
      headers: { 'content-type': 'application/json' },
      payload: '{"name":',
    });
    assert.equal(res.statusCode, 400);
    assert.equal(res.json().code, 'TRIBUTARY_INVALID_REQUEST');
    const unknown = await app.inject({ method: 'GET', url: '/sinks/Kitchen/colour' });
    assert.equal(unknown.statusCode, 404);
    assert.equal(unknown.json().message, 'No route GET /sinks/Kitchen/colour');
    const wrong = await app.inject({ method: 'PATCH', url: '/sinks/Kitchen' });
    assert.equal(wrong.statusCode, 405);
    assert.equal(
      wrong.json().message,
      'PATCH is not allowed on /sinks/Kitchen; use DELETE, GET, HEAD, PUT',
    );
  });

  test('names with spaces and non-ASCII letters round-trip through URLs', async (t) => {
    const { call } = await withHouse(t);
    assert.equal((await call('POST', '/sinks', { name: 'Küche oben', ip: '::1' })).status, 201);
    assert.equal(
      (await call('GET', `/sinks/${encodeURIComponent('Küche oben')}/volume/0.5`)).status,
      200,
    );
    assert.equal(
      ((await call('GET', `/sinks/${encodeURIComponent('Küche oben')}`)).body as Json).volume,
      0.5,
    );
  });
});

test('a 64-character non-ASCII name works in every URL', async (t) => {
  const app = await build(t);
  const name = 'ü'.repeat(64);
  assert.equal(
    (await app.inject({ method: 'POST', url: '/sinks', payload: { name } })).statusCode,
    201,
  );
  const res = await app.inject(`/sinks/${encodeURIComponent(name)}/volume/0.5`);
  assert.equal(res.statusCode, 200, res.body);
});
