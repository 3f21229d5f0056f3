// `tributary send` announcing its RTP stream with SAP to the real daemon, in a network namespace
// of its own (see netns.ts).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { senderProgram } from '../../src/commands/send.js';
import { inNamespace, namespaceUnavailable } from './netns.js';
import type senderSap from './scenarios/sender-sap.js';

const skip =
  namespaceUnavailable(['pulseaudio']) ??
  (senderProgram() ? false : 'env: tributary-send is not built (cargo test builds it)');

test('tributary send announces its stream with SAP: added as a source in its format, removed on its deletion (SIGTERM)', {
  skip,
}, async (t) => {
  const { result } = await inNamespace<Awaited<ReturnType<typeof senderSap>>>(t, 'sender-sap');
  const { sender_output, ...shown } = result;
  t.diagnostic(JSON.stringify(shown));
  assert.equal(result.source.name, 'Den sender', 'named after its s= line (-n)');
  const { listen_ip, port, format, sample_rate, channels } = result.source.rtp ?? {};
  assert.deepEqual(
    [listen_ip, port, format, sample_rate, channels],
    [null, 40002, 'S16BE', 48000, 2],
    'unicast to the router, the port and format it announced',
  );
  assert.match(result.engine_format ?? '', /L16 48000 Hz 2 ch/);
  assert.match(sender_output, /announcing the stream with SAP to 224\.2\.127\.254:9875 every 5 s/);
  assert.ok(result.add_ms < 5000, `added ${result.add_ms} ms after the sender started`);
  assert.equal(result.exit_code, 0, sender_output);
  assert.ok(result.deleted_logged, 'the daemon logged the deletion');
  assert.ok(
    result.remove_by_deletion_ms < 2000,
    `removed ${result.remove_by_deletion_ms} ms after SIGTERM (the deletion, not cleanup_timeout)`,
  );
});
