import assert from 'node:assert/strict';
import { isIP } from 'node:net';
import { hostname } from 'node:os';
import { test } from 'node:test';
import { networkInfo } from '../../src/routes/system/network.js';
import { build } from '../helpers.js';

test('GET /api/network: host name and reachable addresses, IPv4 first, no loopback', async (t) => {
  const app = await build(t);
  const res = await app.inject('/api/network');
  assert.equal(res.statusCode, 200);
  const body = res.json();
  assert.equal(body.hostname, hostname());
  assert.equal(body.engine_bind, null);
  for (const a of body.addresses) {
    assert.ok(isIP(a.address), a.address);
    assert.ok(!a.address.startsWith('127.') && a.address !== '::1');
  }
  const families = body.addresses.map((a: { family: string }) => a.family);
  assert.deepEqual(families, [...families].sort());
});

test('engine_bind names the one address the engine listens on, null for a wildcard', () => {
  assert.equal(networkInfo('127.0.0.1').engine_bind, '127.0.0.1');
  assert.equal(networkInfo('0.0.0.0').engine_bind, null);
  assert.equal(networkInfo('::').engine_bind, null);
  assert.equal(networkInfo(null).engine_bind, null);
});
