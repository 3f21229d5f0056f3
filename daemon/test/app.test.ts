import assert from 'node:assert/strict';
import { test } from 'node:test';
import { version } from '../src/version.js';
import { build } from './helpers.js';

test('GET /api/health reports ok and the package version', async (t) => {
  const app = await build(t);
  const res = await app.inject({ method: 'GET', url: '/api/health' });
  assert.equal(res.statusCode, 200);
  assert.deepEqual(res.json(), { status: 'ok', version });
  assert.match(version, /^\d+\.\d+\.\d+/);
});

test('an unknown route answers a JSON 404 naming the method and path', async (t) => {
  const app = await build(t);
  const res = await app.inject({ method: 'DELETE', url: '/no/such/thing' });
  assert.equal(res.statusCode, 404);
  assert.match(String(res.headers['content-type']), /application\/json/);
  const body = res.json();
  assert.equal(body.code, 'TRIBUTARY_NOT_FOUND');
  assert.equal(body.message, 'No route DELETE /no/such/thing');
});
