// Permanent sources of a third-party plugin (context.sources), through the example noise plugin
// loaded from a PLUGINS_DIRECTORY: added to config.yaml with the tag plugin:noise, routed like any
// source and heard at its level on a Scream sink, there again after a restart, capped per
// plugin, removed by the plugin (its audio closed), and a plugin cannot remove another's source.
import assert from 'node:assert/strict';
import { cpSync } from 'node:fs';
import { join } from 'node:path';
import { type TestContext, test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { MAX_SOURCES_PER_PLUGIN } from '../../src/product-plugins/plugin-sources.js';
import { type Built, build, localEngine, tempDir } from '../helpers.js';
import { blockRms, screamSink } from './harness.js';

const example = join(import.meta.dirname, '../../examples/plugins/noise.mjs');

/** The level the sink received over the next `seconds`, dBFS RMS (left channel). */
async function level(sink: Awaited<ReturnType<typeof screamSink>>, seconds: number) {
  const from = sink.frames();
  await sleep(seconds * 1000);
  const blocks = blockRms(sink.left().subarray(from));
  const rms = Math.sqrt(blocks.reduce((a, r) => a + r * r, 0) / blocks.length);
  return { db: 20 * Math.log10(rms), quietBlocks: blocks.filter((r) => r < 0.01).length };
}

async function daemon(t: TestContext, dir: string, plugins: string) {
  return build(t, { dir, engine: localEngine, plugins: { directory: plugins } });
}

/** The config_ids of the plugin's sources in config.yaml. */
const noiseIds = async (app: Built): Promise<Map<string, string>> =>
  new Map(
    (await app.inject('/sources'))
      .json()
      .filter((s: { tag: string }) => s.tag === 'plugin:noise')
      .map((s: { name: string; config_id: string }) => [s.name, s.config_id]),
  );

test('a plugin from PLUGINS_DIRECTORY owns permanent sources: routed, heard, kept, capped, removed', async (t) => {
  const plugins = tempDir(t);
  cpSync(example, join(plugins, 'noise.mjs'));
  const dir = tempDir(t);
  const sink = await screamSink(t);
  const first = await daemon(t, dir, plugins);
  const added = await first.inject({
    method: 'POST',
    url: '/plugins/noise/source',
    payload: { name: 'Noise' },
  });
  assert.equal(added.statusCode, 201, added.body);
  const { config_id } = added.json();
  const listed = (await first.inject('/sources')).json();
  assert.deepEqual(
    listed.map((s: { name: string; tag: string; config_id: string }) => [
      s.name,
      s.tag,
      s.config_id,
    ]),
    [['Noise', 'plugin:noise', config_id]],
  );
  for (const [url, payload] of [
    ['/sinks', { name: 'Kitchen', ip: '127.0.0.1', port: sink.port }],
    ['/routes', { name: 'Noise to Kitchen', source: 'Noise', sink: 'Kitchen' }],
  ] as const) {
    const res = await first.inject({ method: 'POST', url, payload });
    assert.equal(res.statusCode, 201, res.body);
  }
  await sleep(300);
  const heard = await level(sink, 1);
  assert.ok(Math.abs(heard.db + 20) <= 0.5, `noise at ${heard.db.toFixed(2)} dBFS, -20 written`);
  assert.equal(heard.quietBlocks, 0, 'no dropout while the plugin writes the ring');
  await first.close();

  // After a restart on the same files: the same source, playing again.
  const app = await daemon(t, dir, plugins);
  assert.equal((await app.inject('/sources')).json()[0].config_id, config_id);
  await sleep(300);
  const again = await level(sink, 1);
  assert.ok(Math.abs(again.db + 20) <= 0.5, `after the restart: ${again.db.toFixed(2)} dBFS`);

  // The cap: the documented 16 per plugin (a literal, so a changed constant fails here at the
  // 17th rather than after as many sources as it allows), then 409 naming the plugin and the cap.
  assert.equal(MAX_SOURCES_PER_PLUGIN, 16, 'the cap plugins.mdx documents');
  for (let i = 2; i <= 16; i++) {
    const res = await app.inject({
      method: 'POST',
      url: '/plugins/noise/source',
      payload: { name: `Noise ${i}` },
    });
    assert.equal(res.statusCode, 201, res.body);
  }
  const over = await app.inject({
    method: 'POST',
    url: '/plugins/noise/source',
    payload: { name: 'One too many' },
  });
  assert.equal(over.statusCode, 409, over.body);
  assert.equal(over.json().code, 'TRIBUTARY_PLUGIN_SOURCE_LIMIT');
  assert.match(over.json().message, /Plugin noise has 16 permanent sources.*\(16\)/);
  assert.equal((await noiseIds(app)).size, 16);
  const ids = await noiseIds(app);

  // Removing: a routed one is refused (409, like DELETE /sources); another is removed with its
  // audio; a source that is not the plugin's is not found.
  const routed = await app.inject({ method: 'DELETE', url: '/plugins/noise/source/Noise' });
  assert.equal(routed.statusCode, 409, routed.body);
  const removed = await app.inject({ method: 'DELETE', url: '/plugins/noise/source/Noise%202' });
  assert.equal(removed.statusCode, 200, removed.body);
  const names = (await app.inject('/sources')).json().map((s: { name: string }) => s.name);
  assert.ok(!names.includes('Noise 2') && names.includes('Noise 3'));
  const pc = await app.inject({ method: 'POST', url: '/sources', payload: { name: 'PC' } });
  assert.equal(pc.statusCode, 201, pc.body);
  const foreign = await app.inject({ method: 'DELETE', url: '/plugins/noise/source/PC' });
  assert.equal(foreign.statusCode, 404, foreign.body);
  assert.match(foreign.json().message, /No plugin:noise source named 'PC'/);

  // A source deleted through the API (not the plugin's route): the host closes its audio too.
  const deleted = await app.inject({ method: 'DELETE', url: '/sources/Noise%203' });
  assert.equal(deleted.statusCode, 200, deleted.body);

  // The engine has an in-process source for each one left, none for the two removed (removing
  // one answers whether it was there; the daemon closes next).
  const open = [...ids].filter(([, id]) => app.engine.removeMemorySource(id)).map(([n]) => n);
  assert.deepEqual(
    open.sort(),
    [...ids.keys()].filter((n) => n !== 'Noise 2' && n !== 'Noise 3').sort(),
  );
});
