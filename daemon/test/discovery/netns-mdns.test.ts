// mDNS with Avahi, in a network and mount namespace of its own (see netns.ts).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { inNamespace, namespaceUnavailable } from './netns.js';

const skip =
  namespaceUnavailable(['avahi-daemon', 'avahi-browse', 'avahi-publish', 'dbus-daemon', 'mount']) ??
  false;

test('avahi-browse lists Tributary; a device appears, syncs, moves, and goes within 2 s of its goodbye', {
  skip,
}, async (t) => {
  const { result } = await inNamespace<{
    appear_ms: number;
    removed_after_goodbye_ms: number;
    removed_after_silence_ms: number;
    cleanup_timeout_s: number;
    hostname: string;
    removals_by_goodbye: number;
  }>(t, 'mdns', { mount: true, timeoutMs: 180_000 });
  t.diagnostic(JSON.stringify(result));
  assert.equal(result.hostname, 'tributary-2.local', 'tributary.local was taken');
  assert.ok(
    result.removed_after_goodbye_ms < 2000,
    `removed ${result.removed_after_goodbye_ms} ms after avahi-publish got SIGTERM`,
  );
  assert.ok(result.removed_after_silence_ms <= (result.cleanup_timeout_s + 3) * 1000);
  assert.equal(result.removals_by_goodbye, 1, 'only the final goodbye removed the sink');
});

test('1,000 sources: avahi-browse resolves them all, answers split within the MTU; a failing send recovers by itself', {
  skip,
}, async (t) => {
  const { result } = await inNamespace<{
    all_seen_ms: number;
    largest_response_bytes: number;
    max_packet_bytes: number;
    fresh_query: { ptr_answers: number; packets: number; split_responses: number };
    state_while_failing: string;
    state_while_down: string;
    send_errors: number | null;
    last_send_error: string | null;
    recovered_ms: number;
    late_source_seen_ms: number;
    emsgsize_logged: boolean;
    unavailable_logged: boolean;
  }>(t, 'mdns-many', { mount: true, timeoutMs: 300_000 });
  t.diagnostic(JSON.stringify(result));
  assert.equal(result.emsgsize_logged, false, 'no EMSGSIZE');
  assert.equal(result.unavailable_logged, false, 'mDNS never went down');
  assert.equal(result.fresh_query.ptr_answers, 1000, 'a fresh querier hears all 1,000');
  assert.ok(result.fresh_query.packets > 1 && result.fresh_query.split_responses === 1);
  // IP and UDP headers (28 bytes) on top of the DNS message: within the MTU, 9000 at most.
  assert.ok(result.largest_response_bytes + 28 <= result.max_packet_bytes);
  assert.ok(result.max_packet_bytes <= 9000);
  assert.deepEqual([result.state_while_failing, result.state_while_down], ['running', 'running']);
  assert.ok((result.send_errors ?? 0) > 0, 'send errors counted');
  assert.match(result.last_send_error ?? '', /ENETUNREACH/);
  assert.ok(result.recovered_ms < 10_000, `recovered ${result.recovered_ms} ms after the route`);
});
