// POST /api/equalizer/response: the curve the dashboard draws is the engine's own design.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { eqResponse } from '@tributary/native';
import { EQ_BAND_FREQUENCIES_HZ, EQ_BAND_KEYS } from '../../src/schema/constants.js';
import { build } from '../helpers.js';

const flat: Record<string, number> = Object.fromEntries(EQ_BAND_KEYS.map((k) => [k, 1]));

test('a flat equalizer is 0 dB everywhere; a boosted band is +6 dB at its centre, as the engine designs it', async (t) => {
  const app = await build(t);
  const res = await app.inject({
    method: 'POST',
    url: '/api/equalizer/response',
    payload: { bands: flat },
  });
  assert.equal(res.statusCode, 200, res.body);
  const body = res.json();
  assert.equal(body.sample_rate, 48000);
  assert.equal(body.frequencies.length, 121);
  assert.ok(
    Math.abs(body.frequencies[0] - 20) < 1e-9 && Math.abs(body.frequencies[120] - 20000) < 1e-6,
  );
  assert.ok(
    body.db.every((d: number) => Math.abs(d) < 0.05),
    `${body.db}`,
  );

  const boosted: Record<string, number> = { ...flat, b5: 2, b12: 0 };
  const asked = [...EQ_BAND_FREQUENCIES_HZ];
  const curve = (
    await app.inject({
      method: 'POST',
      url: '/api/equalizer/response',
      payload: { bands: boosted, sample_rate: 44100, frequencies: asked },
    })
  ).json();
  const gains = EQ_BAND_KEYS.map((k) => boosted[k]!);
  assert.deepEqual(curve.db, eqResponse(gains, 44100, asked));
  assert.ok(Math.abs(curve.db[4] - 6) < 1, `b5 at its centre: ${curve.db[4]} dB`);
  assert.ok(curve.db[11] < -20, `b12 cut to 0.0: ${curve.db[11]} dB`);
});

test('bad input names the field: a band out of range, a missing band, a frequency above half the rate, an odd rate', async (t) => {
  const app = await build(t);
  const post = (payload: unknown) =>
    app.inject({ method: 'POST', url: '/api/equalizer/response', payload: payload as object });
  const cases: [unknown, string][] = [
    [{ bands: { ...flat, b3: 2.5 } }, 'bands.b3'],
    [{ bands: { ...flat, b18: undefined } }, 'bands'],
    [{ bands: flat, sample_rate: 12345 }, 'sample_rate'],
    [{ bands: flat, frequencies: [1000, 30000] }, 'frequencies.1'],
    [{ bands: flat, sample_rate: 44100, frequencies: [22051] }, 'frequencies.0'],
  ];
  for (const [payload, path] of cases) {
    const res = await post(payload);
    assert.equal(res.statusCode, 400, `${JSON.stringify(payload)}: ${res.body}`);
    assert.ok(
      res.json().details.some((d: { path: string }) => d.path.startsWith(path)),
      `${path} in ${res.body}`,
    );
  }
});
