// An address the machine gets while the daemon runs (a new DHCP lease, a second interface) is
// accepted in the Host header without a restart, and one it loses is refused again: the
// addresses are read again when a Host names one not known yet. Real interfaces, changed with
// `ip addr` inside a network namespace of the test's own (root).
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { namespaceUnavailable } from '../discovery/netns.js';

const scenario = fileURLToPath(new URL('./scenarios/address-change.ts', import.meta.url));
const unavailable = namespaceUnavailable();

test('an address added to an interface at run time is accepted at once, and refused once removed', {
  skip: unavailable ?? false,
  timeout: 120_000,
}, () => {
  const run = spawnSync(
    'unshare',
    [
      '-n',
      '--',
      'sh',
      '-c',
      'ip link set lo up && exec "$0" "$@"',
      process.execPath,
      '--import',
      'tsx',
      scenario,
    ],
    { encoding: 'utf8', cwd: fileURLToPath(new URL('../..', import.meta.url)), timeout: 100_000 },
  );
  const line = run.stdout.split('\n').find((l) => l.startsWith('RESULT '));
  assert.ok(line, `no result (exit ${run.status}):\n${run.stdout}\n${run.stderr}`);
  assert.deepEqual(JSON.parse(line.slice('RESULT '.length)), {
    before: 421,
    added: 200,
    removed: 421,
  });
});
