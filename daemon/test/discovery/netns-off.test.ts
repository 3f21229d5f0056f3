// DISCOVERY=off in the real daemon, in a network namespace of its own (see netns.ts).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { inNamespace, namespaceUnavailable } from './netns.js';

const skip = namespaceUnavailable() ?? false;

test('DISCOVERY=off: no socket on 9875 or 5353 once the API listens, nor after config changes', {
  skip,
}, async (t) => {
  const { result } = await inNamespace<{
    control_on_ports: number[];
    ports_after_listen: number[];
    ports_after_change: number[];
    states: unknown[];
    log_mentions_discovery: boolean;
  }>(t, 'discovery-off');
  t.diagnostic(JSON.stringify(result));
  assert.deepEqual(result.control_on_ports, [5353, 9875], 'DISCOVERY=on binds both (control)');
  assert.deepEqual(result.ports_after_listen, [], 'no discovery socket after the API listens');
  assert.deepEqual(result.ports_after_change, [], 'none after configuration changes');
  assert.deepEqual(result.states, [false, 'off', 'off', 'off', 'off', 'off', 'off', 'off', 'off']);
  assert.equal(result.log_mentions_discovery, false, 'nothing announced or answered');
});
