// mDNS with Avahi, in a network and mount namespace of its own (see netns.ts).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { inNamespace, namespaceUnavailable } from './netns.js';

const skip =
  namespaceUnavailable(['avahi-daemon', 'avahi-browse', 'avahi-publish', 'dbus-daemon', 'mount']) ??
  false;

test('avahi-browse lists Tributary; a device appears, syncs, moves and goes', {
  skip,
}, async (t) => {
  const { result } = await inNamespace<{
    appear_ms: number;
    removed_after_goodbye_ms: number;
    removed_after_silence_ms: number;
    cleanup_timeout_s: number;
    hostname: string;
  }>(t, 'mdns', { mount: true, timeoutMs: 180_000 });
  t.diagnostic(JSON.stringify(result));
  assert.equal(result.hostname, 'tributary-2.local', 'tributary.local was taken');
  assert.ok(result.removed_after_silence_ms <= (result.cleanup_timeout_s + 3) * 1000);
});
