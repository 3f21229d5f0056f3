// The plugin host: plugins from PLUGINS_DIRECTORY get their routes under /plugins/{name}/ and
// the lifecycle; one that fails to import or start is disabled and shown, and the daemon stays
// up; a play request through GET from another site's page is refused like every GET setter.
import assert from 'node:assert/strict';
import { createSocket } from 'node:dgram';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { build, localEngine, tempDir } from '../helpers.js';
import { audioServer, encodeTone, screamSink } from './harness.js';

const good = `
const calls = [];
export default {
  name: 'hello',
  start(context) { calls.push('start'); context.log.info('hello started'); },
  load(config) { calls.push('load:' + config.sinks.length); },
  stop() { calls.push('stop'); },
  unload() { calls.push('unload'); globalThis.__helloCalls = calls; },
  routes: async (fastify) => {
    fastify.get('/calls', async () => calls);
  },
};`;

test('a folder plugin is started, mounted, told of changes, stopped and unloaded', async (t) => {
  const plugins = tempDir(t);
  writeFileSync(join(plugins, 'hello.mjs'), good);
  const app = await build(t, { plugins: { directory: plugins } });
  const calls = await app.inject('/plugins/hello/calls');
  assert.equal(calls.statusCode, 200, calls.body);
  assert.deepEqual(calls.json(), ['start']);
  const res = await app.inject({ method: 'POST', url: '/sinks', payload: { name: 'Kitchen' } });
  assert.equal(res.statusCode, 201, res.body);
  assert.deepEqual((await app.inject('/plugins/hello/calls')).json(), ['start', 'load:1']);
  const stats = (await app.inject('/api/stats')).json();
  assert.deepEqual(
    stats.plugins.plugins.find((p: { name: string }) => p.name === 'hello'),
    { name: 'hello', builtin: false, state: 'running', error: null },
  );
  await app.close();
  assert.deepEqual((globalThis as { __helloCalls?: string[] }).__helloCalls, [
    'start',
    'load:1',
    'stop',
    'unload',
  ]);
});

test('plugins that throw, do not import, or break the rules are disabled; the daemon runs', async (t) => {
  const plugins = tempDir(t);
  writeFileSync(
    join(plugins, 'broken-start.mjs'),
    `export default { name: 'broken', start() { throw new Error('no sound card'); },
       routes: async (f) => { f.get('/x', async () => 'ran'); } };`,
  );
  writeFileSync(join(plugins, 'syntax.mjs'), 'export default {');
  writeFileSync(join(plugins, 'nameless.mjs'), 'export default { start() {} };');
  writeFileSync(join(plugins, 'thief.mjs'), `export default { name: 'playurl', start() {} };`);
  writeFileSync(
    join(plugins, 'slow.mjs'),
    `export default { name: 'slow', start: () => new Promise(() => {}) };`,
  );
  const app = await build(t, { plugins: { directory: plugins } });
  const states = (await app.inject('/api/stats')).json().plugins.plugins as {
    name: string;
    state: string;
    error: string | null;
  }[];
  const of = (name: string) => states.find((p) => p.name === name);
  assert.equal(of('broken')?.state, 'failed');
  assert.match(of('broken')?.error ?? '', /start: no sound card/);
  assert.match(of('syntax.mjs')?.error ?? '', /^import: /);
  assert.match(of('nameless.mjs')?.error ?? '', /breaks the rule/);
  assert.equal(of('playurl')?.state, 'running', 'the built-in keeps its name');
  assert.ok(states.some((p) => p.name === 'playurl' && p.error === "name 'playurl' is taken"));
  assert.match(of('slow')?.error ?? '', /took longer than 5000 ms/);
  const refused = await app.inject('/plugins/broken/x');
  assert.equal(refused.statusCode, 503);
  assert.match(refused.json().message, /plugin broken is failed: start: no sound card/);
  assert.equal((await app.inject('/api/stats')).statusCode, 200);
});

test("a play request through GET from another site's page is refused (403)", async (t) => {
  const app = await build(t);
  const res = await app.inject({
    url: '/plugins/playurl/play?url=http%3A%2F%2F127.0.0.1%2Fa.mp3&sink=Kitchen',
    headers: { origin: 'https://evil.example', 'sec-fetch-site': 'cross-site' },
  });
  assert.equal(res.statusCode, 403, res.body);
  assert.match(res.json().message, /POST \/plugins\/playurlmultiple\/play/);
});

test('the example doorbell plugin rings through the real engine; its errors are the API statuses', async (t) => {
  const dir = tempDir(t);
  encodeTone(dir, 'chime', 'wav', { seconds: 1 });
  const server = await audioServer(t, dir);
  const sink = await screamSink(t);
  process.env.DOORBELL_URL = server.url('/files/chime.wav');
  process.env.DOORBELL_SINK = 'Kitchen';
  t.after(() => {
    delete process.env.DOORBELL_URL;
    delete process.env.DOORBELL_SINK;
  });
  const examples = join(import.meta.dirname, '../../examples/plugins');
  const app = await build(t, { engine: localEngine, plugins: { directory: examples } });
  const missing = await app.inject({ method: 'POST', url: '/plugins/doorbell/ring' });
  assert.equal(missing.statusCode, 404, 'no sink Kitchen yet');
  assert.match(missing.json().message, /No sink named 'Kitchen'/);
  const added = await app.inject({
    method: 'POST',
    url: '/sinks',
    payload: { name: 'Kitchen', ip: '127.0.0.1', port: sink.port },
  });
  assert.equal(added.statusCode, 201, added.body);
  const rung = await app.inject({ method: 'POST', url: '/plugins/doorbell/ring' });
  assert.equal(rung.statusCode, 200, rung.body);
  assert.match(rung.json().id, /^[0-9a-f]{12}$/);
  assert.equal(rung.json().rings, 2);
});

test('the example silence detector sees a source go quiet after its sender stops', async (t) => {
  const sink = await screamSink(t);
  const examples = join(import.meta.dirname, '../../examples/plugins');
  const app = await build(t, { engine: localEngine, plugins: { directory: examples } });
  for (const [url, payload] of [
    ['/sinks', { name: 'Kitchen', ip: '127.0.0.1', port: sink.port }],
    ['/sources', { name: 'PC', ip: '127.0.0.1' }],
    ['/routes', { name: 'PC to Kitchen', source: 'PC', sink: 'Kitchen' }],
  ] as const) {
    const res = await app.inject({ method: 'POST', url, payload });
    assert.equal(res.statusCode, 201, res.body);
  }
  const set = await app.inject({
    method: 'PUT',
    url: '/plugins/silence-detector/',
    payload: { threshold_dbfs: -40, quiet_after_s: 1 },
  });
  assert.equal(set.statusCode, 200, set.body);
  const port = (await app.inject('/api/stats')).json().engine.ports.scream[0];
  const tx = createSocket('udp4');
  t.after(() => tx.close());
  const state = async () =>
    (await app.inject('/plugins/silence-detector/')).json().sources[0]?.state as string | undefined;
  // A 1 kHz tone at -12 dBFS for 2 s, at the real rate (one 6 ms Scream packet every 6 ms).
  const packet = Buffer.alloc(5 + 1152);
  packet.set([0x01, 16, 2, 0x03, 0x00]);
  const started = performance.now();
  for (let k = 0; k < 333; k++) {
    for (let i = 0; i < 288; i++) {
      const v = Math.round(8000 * Math.sin((2 * Math.PI * 1000 * (k * 288 + i)) / 48000));
      packet.writeInt16LE(v, 5 + 4 * i);
      packet.writeInt16LE(v, 7 + 4 * i);
    }
    tx.send(packet, port, '127.0.0.1');
    await sleep(Math.max(0, started + (k + 1) * 6 - performance.now()));
    if (k === 250) assert.equal(await state(), 'playing', 'playing while the tone plays');
  }
  const stopped = Date.now();
  while ((await state()) !== 'quiet') {
    assert.ok(Date.now() - stopped < 4000, 'quiet within 4 s of the sender stopping');
    await sleep(100);
  }
  // Not before quiet_after_s (1 s) from the last loud moment, which the detector sees at its
  // 500 ms ticks: at the earliest 1000 - 500 ms after the sender's last packet.
  const took = Date.now() - stopped;
  assert.ok(took >= 450, `quiet after ${took} ms, not before quiet_after_s`);
});
