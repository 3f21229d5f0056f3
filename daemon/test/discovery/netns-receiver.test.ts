// `tributary receive` found by the router over mDNS, in a network and mount namespace of its own
// (see netns.ts): the built receiver program, the real daemon with auto-add, Avahi, PulseAudio.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { receiverProgram } from '../../src/commands/receive.js';
import { inNamespace, namespaceUnavailable } from './netns.js';
import type receiverMdns from './scenarios/receiver-mdns.js';

const skip =
  namespaceUnavailable(['avahi-daemon', 'avahi-browse', 'dbus-daemon', 'mount', 'pulseaudio']) ??
  (receiverProgram() ? false : 'env: tributary-receive is not built (cargo test builds it)');

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

test('tributary receive advertises itself: auto-added as a sink with its kept config_id, port and format; gone on SIGTERM; the same id after a restart', {
  skip,
}, async (t) => {
  const { result } = await inNamespace<Awaited<ReturnType<typeof receiverMdns>>>(
    t,
    'receiver-mdns',
    { mount: true, timeoutMs: 180_000 },
  );
  const { first_output, ...shown } = result;
  t.diagnostic(JSON.stringify(shown));
  const first = result.first;
  assert.match(first.config_id, UUID);
  assert.equal(first.config_id, result.id_file, 'the id kept in XDG_STATE_HOME');
  assert.deepEqual(
    [
      first.name,
      first.port,
      first.protocol,
      first.bit_depth,
      first.sample_rate,
      first.channels,
      first.channel_layout,
    ],
    ['Den Pi', 4020, 'scream', 16, 48000, 2, 'stereo'],
  );
  assert.deepEqual(first.auto_added, { via: 'mdns', key: first.config_id });
  assert.match(first.ip ?? '', /^(127\.0\.0\.1|10\.77\.0\.[12])$/, 'an address of the namespace');
  assert.deepEqual([result.device?.usable, result.device?.reason], [true, null]);
  assert.match(
    first_output,
    new RegExp(`advertised over mDNS as the sink 'Den Pi'.*${first.config_id}`),
  );
  // Renamed in Tributary: not sent (no settings API), counted once, no error.
  assert.deepEqual(
    [result.sync.errors, result.sync.last_error, result.sync.to_devices, result.sync.not_sent],
    [0, null, 0, 1],
  );
  assert.equal(result.exit_code, 0, first_output);
  assert.ok(
    result.removed_after_sigterm_ms < 3000,
    `the sink went ${result.removed_after_sigterm_ms} ms after SIGTERM (goodbye, not cleanup_timeout)`,
  );
  assert.equal(result.second.config_id, first.config_id, 'the same config_id after a restart');
  assert.equal(result.second.name, result.hostname.slice(0, 58), 'without -n: the host name');
  assert.equal(result.avahi.txt.id, first.config_id);
  assert.equal(result.avahi.name, result.hostname);
  assert.equal(result.avahi.txt.type, 'scream');
});
