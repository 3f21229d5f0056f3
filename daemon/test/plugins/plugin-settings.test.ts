// A folder plugin's own settings, plugins.NAME in config.yaml: handed to it at start
// (context.settings()) and after each change (load's second argument), checked against the
// schema it declares with its defaults filled in; settings that break the schema disable that
// plugin alone, with the field and the rule in the log and GET /api/stats, and a mended file
// starts it again; the section of a plugin that is not installed is kept.
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { build, tempDir } from '../helpers.js';
import { until } from './harness.js';

// A plugin with a settings schema (plain JSON Schema, as a TypeBox schema is), recording what it
// was handed.
const greeter = `
const seen = [];
let context;
export default {
  name: 'greeter',
  settings: {
    type: 'object',
    properties: {
      greeting: { type: 'string', maxLength: 20, default: 'hello' },
      volume: { type: 'integer', minimum: 0, maximum: 10, default: 5 },
    },
    additionalProperties: false,
  },
  start(c) { context = c; seen.push({ at: 'start', settings: c.settings() }); },
  load(config, settings) {
    seen.push({ at: 'load', settings, same: settings === context.settings() });
  },
  stop() { seen.push({ at: 'stop' }); },
  unload() { seen.push({ at: 'unload' }); },
  routes: async (fastify) => { fastify.get('/seen', async () => seen); },
};`;

// A plugin without a schema: its section as written.
const plain = `
let context;
export default {
  name: 'plain',
  start(c) { context = c; },
  routes: async (fastify) => { fastify.get('/settings', async () => context.settings()); },
};`;

async function withPlugins(
  t: import('node:test').TestContext,
  configYaml: string,
  logs?: string[],
) {
  const plugins = tempDir(t);
  writeFileSync(join(plugins, 'greeter.mjs'), greeter);
  writeFileSync(join(plugins, 'plain.mjs'), plain);
  const dir = tempDir(t);
  writeFileSync(join(dir, 'config.yaml'), configYaml);
  const app = await build(t, { dir, plugins: { directory: plugins }, ...(logs ? { logs } : {}) });
  const state = async (name: string) =>
    (
      (await app.inject('/api/stats')).json().plugins.plugins as {
        name: string;
        state: string;
        error: string | null;
      }[]
    ).find((p) => p.name === name);
  const edit = async (text: string) => {
    writeFileSync(join(dir, 'config.yaml'), text);
    await app.configStore.reload();
  };
  return { app, dir, state, edit };
}

test('a plugin gets its settings, defaults filled in, at start and after a reload', async (t) => {
  const { app, state, edit } = await withPlugins(
    t,
    'plugins:\n  greeter:\n    greeting: hi there\n  plain:\n    anything: [1, 2]\n',
  );
  assert.deepEqual(await state('greeter'), {
    name: 'greeter',
    builtin: false,
    state: 'running',
    error: null,
  });
  assert.deepEqual((await app.inject('/plugins/greeter/seen')).json(), [
    { at: 'start', settings: { greeting: 'hi there', volume: 5 } },
  ]);
  assert.deepEqual((await app.inject('/plugins/plain/settings')).json(), { anything: [1, 2] });

  await edit('plugins:\n  greeter:\n    greeting: hi there\n    volume: 9\n  plain:\n    x: 1\n');
  await until('the load after the edit', async () => {
    const seen = (await app.inject('/plugins/greeter/seen')).json();
    return seen.length === 2;
  });
  assert.deepEqual((await app.inject('/plugins/greeter/seen')).json()[1], {
    at: 'load',
    settings: { greeting: 'hi there', volume: 9 },
    same: true,
  });
  assert.deepEqual((await app.inject('/plugins/plain/settings')).json(), { x: 1 });
});

test('settings that break the schema disable that plugin alone, naming the field; mended, it starts again', async (t) => {
  const logs: string[] = [];
  const { app, state, edit } = await withPlugins(
    t,
    'plugins:\n  greeter:\n    volume: 50\n    shout: true\n',
    logs,
  );
  const reason =
    'settings: plugins.greeter.shout is not a known field (got true); ' +
    'plugins.greeter.volume must be <= 10 (got 50)';
  assert.deepEqual(await state('greeter'), {
    name: 'greeter',
    builtin: false,
    state: 'failed',
    error: reason,
  });
  assert.ok(
    logs.some((l) => JSON.parse(l).msg === `plugin greeter disabled: ${reason}`),
    logs.join(''),
  );
  const refused = await app.inject('/plugins/greeter/seen');
  assert.equal(refused.statusCode, 503, refused.body);
  assert.match(refused.json().message, /plugins\.greeter\.volume must be <= 10 \(got 50\)/);
  // The others run, and the daemon answers.
  assert.equal((await state('plain'))?.state, 'running');
  assert.equal((await state('playurl'))?.state, 'running');
  assert.equal((await app.inject('/api/config')).json().config.plugins.greeter.volume, 50);

  // Mended by hand: started, with the mended settings.
  await edit('plugins:\n  greeter:\n    volume: 7\n');
  await until('greeter started', async () => (await state('greeter'))?.state === 'running');
  assert.deepEqual((await app.inject('/plugins/greeter/seen')).json(), [
    { at: 'start', settings: { greeting: 'hello', volume: 7 } },
  ]);

  // Broken again while it runs: stopped and unloaded, disabled with the new reason.
  await edit('plugins:\n  greeter:\n    greeting: 12\n');
  await until('greeter disabled', async () => (await state('greeter'))?.state === 'failed');
  assert.equal(
    (await state('greeter'))?.error,
    'settings: plugins.greeter.greeting must be string (got 12)',
  );
  assert.equal((await state('plain'))?.state, 'running');
  await edit('plugins:\n  greeter: {}\n');
  await until('greeter started again', async () => (await state('greeter'))?.state === 'running');
  assert.deepEqual(
    ((await app.inject('/plugins/greeter/seen')).json() as { at: string }[]).map((s) => s.at),
    ['start', 'stop', 'unload', 'start'],
  );
});

test('the settings of a plugin that is not installed are kept through changes and restarts', async (t) => {
  const dir = tempDir(t);
  const file = join(dir, 'config.yaml');
  writeFileSync(file, 'plugins:\n  absent:\n    level: 3\n    rooms: [Kitchen, Hall]\n');
  const first = await build(t, { dir });
  const section = { level: 3, rooms: ['Kitchen', 'Hall'] };
  assert.deepEqual((await first.inject('/api/config')).json().config.plugins.absent, section);
  const res = await first.inject({ method: 'POST', url: '/sinks', payload: { name: 'Kitchen' } });
  assert.equal(res.statusCode, 201, res.body);
  const put = await first.inject({
    method: 'PUT',
    url: '/api/plugins/playurl/settings',
    payload: { max_playing: 3 },
  });
  assert.equal(put.statusCode, 200, put.body);
  assert.match(readFileSync(file, 'utf8'), /^ {2}absent:\n {4}level: 3\n/m);
  await first.close();
  const second = await build(t, { dir });
  const plugins = (await second.inject('/api/config')).json().config.plugins;
  assert.deepEqual(plugins.absent, section);
  assert.equal(plugins.playurl.max_playing, 3);
});

test('a plugin section that is not a mapping is refused by the file check, naming it', async (t) => {
  const logs: string[] = [];
  const app = await build(t, { logs });
  writeFileSync(join(app.dir, 'config.yaml'), 'plugins:\n  greeter: 5\n');
  await app.configStore.reload();
  assert.ok(
    logs.some((l) => l.includes('plugins.greeter must be object (got 5)')),
    logs.join(''),
  );
});

test('the example silence detector takes its settings from config.yaml and refuses bad ones', async (t) => {
  const dir = tempDir(t);
  const file = join(dir, 'config.yaml');
  writeFileSync(file, 'plugins:\n  silence-detector:\n    quiet_after_s: 2\n');
  const examples = join(import.meta.dirname, '../../examples/plugins');
  const app = await build(t, { dir, plugins: { directory: examples } });
  const view = async () => (await app.inject('/plugins/silence-detector/')).json();
  assert.deepEqual(await view(), { threshold_dbfs: -50, quiet_after_s: 2, sources: [] });
  writeFileSync(file, 'plugins:\n  silence-detector:\n    threshold_dbfs: -40\n');
  await app.configStore.reload();
  await until('the new threshold', async () => (await view()).threshold_dbfs === -40);
  assert.equal((await view()).quiet_after_s, 10, 'left out: its default');
  // A PUT holds until the section changes, not through a change of another part.
  const put = await app.inject({
    method: 'PUT',
    url: '/plugins/silence-detector/',
    payload: { threshold_dbfs: -30, quiet_after_s: 3 },
  });
  assert.equal(put.statusCode, 200, put.body);
  const sink = await app.inject({ method: 'POST', url: '/sinks', payload: { name: 'Kitchen' } });
  assert.equal(sink.statusCode, 201, sink.body);
  await sleep(300); // load runs within microtasks of the save; give it ample time
  assert.equal((await view()).threshold_dbfs, -30);
  writeFileSync(file, 'plugins:\n  silence-detector:\n    threshold_dbfs: 6\n');
  await app.configStore.reload();
  const state = async () =>
    (
      (await app.inject('/api/stats')).json().plugins.plugins as { name: string; error: string }[]
    ).find((p) => p.name === 'silence-detector');
  await until('disabled', async () => (await state())?.error !== null);
  assert.equal(
    (await state())?.error,
    'settings: plugins.silence-detector.threshold_dbfs must be <= 0 (got 6)',
  );
  assert.equal((await app.inject('/plugins/silence-detector/')).statusCode, 503);
});
