import assert from 'node:assert/strict';
import { test } from 'node:test';
import { formatIceServers, parseIceServers } from '../src/lib/ice-servers';

test('ICE servers: one a line, URLs by commas, then username and credential; blank lines skipped', () => {
  const servers = parseIceServers(
    '  stun:a.example:3478 \n\nturn:b.example,turns:b.example  alice  pass word\nturn:c.example bob\n',
  );
  assert.deepEqual(servers, [
    { urls: 'stun:a.example:3478' },
    { urls: ['turn:b.example', 'turns:b.example'], username: 'alice', credential: 'pass word' },
    { urls: 'turn:c.example', username: 'bob' },
  ]);
  assert.equal(
    formatIceServers(servers),
    'stun:a.example:3478\nturn:b.example,turns:b.example alice pass word\nturn:c.example bob',
  );
  assert.deepEqual(parseIceServers(formatIceServers(servers)), servers);
  assert.deepEqual(parseIceServers(' \n '), []);
  // What the API must refuse still reaches it as written.
  assert.deepEqual(parseIceServers('http://x'), [{ urls: 'http://x' }]);
});
