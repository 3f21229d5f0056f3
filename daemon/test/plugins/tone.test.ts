// The tone plugin's permanent source: added to config.yaml, listed and routed like any source,
// measured at its frequency and level on a Scream sink, and there again, playing, after the
// daemon restarts on the same files.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { measureTone } from '../discovery/scenarios/tone.js';
import { build, localEngine, tempDir } from '../helpers.js';
import { screamSink } from './harness.js';

/** The tone measured over the last `seconds` the sink received. */
async function listen(sink: Awaited<ReturnType<typeof screamSink>>, seconds: number) {
  const from = sink.frames();
  await sleep(seconds * 1000);
  return measureTone(sink.left().subarray(from), 48000, { maxSeconds: seconds });
}

test('a tone source is permanent, routable, measured right, and survives a restart', async (t) => {
  const dir = tempDir(t);
  const sink = await screamSink(t);
  const first = await build(t, { dir, engine: localEngine });
  const added = await first.inject({
    method: 'POST',
    url: '/plugins/tone/source',
    payload: { name: 'Test tone' },
  });
  assert.equal(added.statusCode, 201, added.body);
  const { config_id } = added.json();
  const sources = (await first.inject('/sources')).json();
  assert.deepEqual(
    sources.map((s: { name: string; tag: string }) => [s.name, s.tag]),
    [['Test tone', 'plugin:tone']],
  );
  for (const [url, payload] of [
    ['/sinks', { name: 'Kitchen', ip: '127.0.0.1', port: sink.port }],
    ['/routes', { name: 'Tone to Kitchen', source: 'Test tone', sink: 'Kitchen' }],
  ] as const) {
    const res = await first.inject({ method: 'POST', url, payload });
    assert.equal(res.statusCode, 201, res.body);
  }
  await sleep(300);
  const tone = await listen(sink, 1.5);
  assert.ok(Math.abs(tone.hz - 440) <= 0.5, `${tone.hz} Hz`);
  const expected = 10 ** (-18 / 20) / Math.SQRT2;
  assert.ok(Math.abs(20 * Math.log10(tone.rms / expected)) <= 0.3, `RMS ${tone.rms}`);
  assert.equal(tone.unsteady_blocks, 0, 'no dropout while JavaScript writes the ring');

  const set = await first.inject({
    method: 'PUT',
    url: '/plugins/tone/',
    payload: { frequency_hz: 1000, level_dbfs: -12 },
  });
  assert.equal(set.statusCode, 200, set.body);
  await sleep(400);
  assert.ok(Math.abs((await listen(sink, 1)).hz - 1000) <= 0.5);
  const bad = await first.inject({
    method: 'PUT',
    url: '/plugins/tone/',
    payload: { frequency_hz: 5, level_dbfs: 0 },
  });
  assert.equal(bad.statusCode, 400);
  assert.match(bad.json().message, /frequency_hz/);
  await first.close();

  const again = await build(t, { dir, engine: localEngine });
  const kept = (await again.inject('/sources')).json();
  assert.equal(kept[0].config_id, config_id, 'the same source after the restart');
  await sleep(300);
  const after = await listen(sink, 1);
  assert.ok(Math.abs(after.hz - 440) <= 0.5, `after the restart: ${after.hz} Hz`);
  const stats = (await again.inject('/api/stats')).json();
  const source = stats.sources.find((s: { config_id: string }) => s.config_id === config_id);
  assert.match(source.format, /^memory s16le 48000 Hz 2 ch/);
  assert.equal(source.lost, 0);
});
