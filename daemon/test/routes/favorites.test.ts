// /api/favorites: the starred entries, kept in config.yaml by config_id, validated like every
// other change, pruned when their entry goes, and part of /api/config (and so of /ws/config).
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { parse } from 'yaml';
import { ConfigStore } from '../../src/config/store.js';
import { build } from '../helpers.js';

async function seed(app: Awaited<ReturnType<typeof build>>) {
  const sink = (
    await app.inject({ method: 'POST', url: '/sinks', payload: { name: 'Kitchen' } })
  ).json();
  const source = (
    await app.inject({ method: 'POST', url: '/sources', payload: { name: 'PC' } })
  ).json();
  const route = (
    await app.inject({
      method: 'POST',
      url: '/routes',
      payload: { name: 'PC to Kitchen', source: 'PC', sink: 'Kitchen' },
    })
  ).json();
  return { sink: sink.config_id, source: source.config_id, route: route.config_id } as {
    sink: string;
    source: string;
    route: string;
  };
}

const put = (app: Awaited<ReturnType<typeof build>>, favorites: unknown) =>
  app.inject({ method: 'PUT', url: '/api/favorites', payload: { favorites } });

describe('/api/favorites', () => {
  test('starts empty; PUT saves the order in config.yaml and /api/config shows it', async (t) => {
    const app = await build(t);
    assert.deepEqual((await app.inject('/api/favorites')).json(), { favorites: [] });
    const ids = await seed(app);
    const saved = await put(app, [ids.route, ids.sink, ids.source]);
    assert.equal(saved.statusCode, 200, saved.body);
    assert.deepEqual(saved.json(), { favorites: [ids.route, ids.sink, ids.source] });
    assert.deepEqual((await app.inject('/api/config')).json().config.favorites, [
      ids.route,
      ids.sink,
      ids.source,
    ]);
    const onDisk = parse(readFileSync(join(app.dir, 'config.yaml'), 'utf8'));
    assert.deepEqual(onDisk.favorites, [ids.route, ids.sink, ids.source]);
    // A daemon started on that file has them, in that order.
    const store = await ConfigStore.open({
      configPath: join(app.dir, 'config.yaml'),
      equalizerPath: join(app.dir, 'equalizers.yaml'),
      watch: false,
    });
    assert.deepEqual(store.config.favorites, [ids.route, ids.sink, ids.source]);
    await store.close();
  });

  test('bad lists are refused with the field named, and nothing changes', async (t) => {
    const app = await build(t);
    const ids = await seed(app);
    await put(app, [ids.sink]);
    const unknown = await put(app, [ids.source, '0b6e5f0c-3f5c-4a8e-9a63-2f1f8c2f7d11']);
    assert.equal(unknown.statusCode, 400);
    assert.equal(unknown.json().details[0].path, 'favorites[1]');
    assert.match(unknown.json().message, /existing sink, source or route/);
    const twice = await put(app, [ids.sink, ids.sink]);
    assert.equal(twice.statusCode, 400);
    assert.equal(twice.json().details[0].keyword, 'uniqueItems');
    const notId = await put(app, ['Kitchen']);
    assert.equal(notId.statusCode, 400);
    assert.equal(notId.json().details[0].path, 'favorites[0]');
    assert.equal(notId.json().details[0].rule, 'must be a UUID');
    const notList = await app.inject({ method: 'PUT', url: '/api/favorites', payload: {} });
    assert.equal(notList.statusCode, 400);
    assert.deepEqual((await app.inject('/api/favorites')).json(), { favorites: [ids.sink] });
  });

  test('deleting an entry removes its star; a rename keeps it', async (t) => {
    const app = await build(t);
    const ids = await seed(app);
    await put(app, [ids.source, ids.route, ids.sink]);
    const renamed = await app.inject({
      method: 'PUT',
      url: '/sources/PC',
      payload: { name: 'Desktop' },
    });
    assert.equal(renamed.statusCode, 200);
    assert.equal(
      (await app.inject({ method: 'DELETE', url: '/routes/PC to Kitchen' })).statusCode,
      200,
    );
    assert.deepEqual((await app.inject('/api/favorites')).json().favorites, [ids.source, ids.sink]);
  });

  test('a hand edit that removes a starred entry drops the star instead of failing', async (t) => {
    const app = await build(t);
    const ids = await seed(app);
    await put(app, [ids.route, ids.sink]);
    const file = join(app.dir, 'config.yaml');
    const data = parse(readFileSync(file, 'utf8'));
    data.routes = [];
    writeFileSync(file, JSON.stringify(data));
    await app.configStore.reload();
    assert.deepEqual(app.configStore.config.routes, []);
    assert.deepEqual(app.configStore.config.favorites, [ids.sink]);
  });
});
