// The audio format of a plugin's permanent sources (plugin_format: sample_rate, bit_depth,
// channels): saved to config.yaml when the plugin adds or opens one, shown by GET /sources, used
// to open the source again after a restart when the plugin gives no format, updated when the
// plugin opens it in another; a bad format is refused naming the field; the API cannot change it.
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { build, localEngine, tempDir } from '../helpers.js';
import { screamSink, until } from './harness.js';

const plugin = `
let context;
export default {
  name: 'fmt',
  start(c) {
    context = c;
    // After a restart: each source opened in the format config.yaml keeps for it.
    for (const s of c.sources.list()) {
      const writer = s.format ? c.sources.open(s.config_id) : null;
      if (writer) writer.writeSamples(new Float32Array(writer.freeFrames * s.format.channels));
    }
  },
  routes: async (fastify) => {
    fastify.post('/add', async (request, reply) =>
      reply.code(201).send(await context.sources.add(request.body.name, request.body.format)));
    fastify.post('/open', async (request) => {
      context.sources.open(request.body.config_id, request.body.format);
      return true;
    });
  },
};`;

test('a plugin source keeps its format in config.yaml, reopens in it, and follows a new one', async (t) => {
  const plugins = tempDir(t);
  writeFileSync(join(plugins, 'fmt.mjs'), plugin);
  const dir = tempDir(t);
  const file = join(dir, 'config.yaml');
  const sink = await screamSink(t);
  const logs: string[] = [];
  const options = { dir, engine: localEngine, plugins: { directory: plugins }, logs };
  const first = await build(t, options);

  const added = await first.inject({
    method: 'POST',
    url: '/plugins/fmt/add',
    payload: { name: 'Mono', format: { sampleRate: 44100, channels: 1, sampleFormat: 's24le' } },
  });
  assert.equal(added.statusCode, 201, added.body);
  const mono = { sample_rate: 44100, bit_depth: 24, channels: 1 };
  const { config_id } = added.json();
  assert.deepEqual(added.json(), { name: 'Mono', config_id, format: mono });
  assert.deepEqual((await first.inject('/sources/Mono')).json().plugin_format, mono);
  assert.match(
    readFileSync(file, 'utf8'),
    /plugin_format:\n {6}sample_rate: 44100\n {6}bit_depth: 24\n {6}channels: 1\n/,
  );
  for (const [url, payload] of [
    ['/sources', { name: 'PC', ip: '127.0.0.1' }],
    ['/sinks', { name: 'Kitchen', ip: '127.0.0.1', port: sink.port }],
    ['/routes', { name: 'Mono to Kitchen', source: 'Mono', sink: 'Kitchen' }],
  ] as const) {
    const res = await first.inject({ method: 'POST', url, payload });
    assert.equal(res.statusCode, 201, res.body);
  }
  assert.equal(
    (await first.inject('/sources/PC')).json().plugin_format,
    null,
    'not a plugin source',
  );

  // The API does not change it: the plugin writes the audio.
  const put = await first.inject({
    method: 'PUT',
    url: '/sources/Mono',
    payload: { plugin_format: { sample_rate: 48000, bit_depth: 16, channels: 2 } },
  });
  assert.equal(put.statusCode, 400, put.body);
  assert.match(put.json().message, /plugin_format is not a known field/);

  // A restart: the plugin opens it without a format, in the one config.yaml keeps.
  await first.close();
  const second = await build(t, options);
  const format = async () =>
    (await second.inject('/api/stats'))
      .json()
      .sources.find((s: { config_id: string }) => s.config_id === config_id)?.format as
      | string
      | undefined;
  await until('the source in the stats', async () => Boolean(await format()));
  assert.match((await format()) ?? '', /^memory s24le 44100 Hz 1 ch/);

  // Opened in another format: config.yaml follows.
  const reopened = await second.inject({
    method: 'POST',
    url: '/plugins/fmt/open',
    payload: { config_id, format: { sampleRate: 96000, channels: 2, sampleFormat: 's32le' } },
  });
  assert.equal(reopened.statusCode, 200, logs.filter((l) => l.includes('"level":50')).join(''));
  const stereo = { sample_rate: 96000, bit_depth: 32, channels: 2 };
  await until(
    'the new format saved',
    async () => (await second.inject('/sources/Mono')).json().plugin_format?.sample_rate === 96000,
  );
  assert.deepEqual((await second.inject('/sources/Mono')).json().plugin_format, stereo);
  assert.match(readFileSync(file, 'utf8'), /plugin_format:\n {6}sample_rate: 96000\n/);
});

test('a bad format is refused naming the field, and nothing is added', async (t) => {
  const plugins = tempDir(t);
  writeFileSync(join(plugins, 'fmt.mjs'), plugin);
  const app = await build(t, { plugins: { directory: plugins } });
  for (const [format, message] of [
    [
      { sampleRate: 48000, channels: 2, sampleFormat: 'u8' },
      'format.sampleFormat must be one of s16le, s16be, l16, s24le, s24be, l24, s32le (got "u8")',
    ],
    [
      { sampleRate: 1000, channels: 2, sampleFormat: 's16le' },
      'format.sample_rate must be >= 8000 (got 1000)',
    ],
    [
      { sampleRate: 48000, channels: 9, sampleFormat: 's16le' },
      'format.channels must be <= 8 (got 9)',
    ],
  ] as const) {
    const res = await app.inject({
      method: 'POST',
      url: '/plugins/fmt/add',
      payload: { name: 'Bad', format },
    });
    assert.equal(res.statusCode, 400, res.body);
    assert.equal(res.json().message, message);
  }
  assert.deepEqual((await app.inject('/sources')).json(), []);
});
