// The mDNS advertiser under renames and TXT changes, in a network namespace of its own (see
// netns.ts and scenarios/mdns-rename.ts): no Avahi needed, another endpoint listens and asks.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { inNamespace, namespaceUnavailable } from './netns.js';

test('renames and TXT changes: the others stay answered, no old TXT is announced again, nothing piles up', {
  skip: namespaceUnavailable() ?? false,
}, async (t) => {
  const { result } = await inNamespace<{
    ptr_answers: string[];
    host_address_answered: boolean;
    stale_txt_announcements: number;
    records_held: number;
    host_addresses: number;
  }>(t, 'mdns-rename', { timeoutMs: 60_000 });
  t.diagnostic(JSON.stringify(result));
  assert.deepEqual(result.ptr_answers, [
    'Desk (source)._tributary._tcp.local',
    'Hall (sink)._tributary._tcp.local',
    'Kitchen 5 (sink)._tributary._tcp.local',
    'Tributary._tributary._tcp.local',
  ]);
  assert.ok(result.host_address_answered, 'tributary.local has no address record any more');
  assert.equal(result.stale_txt_announcements, 0, 'the old TXT was announced after the change');
  // 4 instances x (PTR, SRV, TXT) + 3 subtype PTRs (_sink, _source) + the _https._tcp instance
  // (PTR, SRV, TXT) + the two service types' PTRs in _services._dns-sd._udp + the host's
  // addresses: each once, however many renames came before.
  assert.equal(result.records_held, 4 * 3 + 3 + 3 + 2 + result.host_addresses);
});
