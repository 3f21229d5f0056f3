// SAP with real peers, each scenario in a network namespace of its own (see netns.ts).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { inNamespace, namespaceUnavailable } from './netns.js';

const skip = namespaceUnavailable(['ffmpeg']) ?? false;

test('an ffmpeg SAP stream is added as a source, plays, and is removed when deleted or silent', {
  skip,
}, async (t) => {
  const { result } = await inNamespace<{
    add_ms: number;
    playing_ms: number;
    remove_by_deletion_ms: number;
    remove_by_timeout_ms: number;
    cleanup_timeout_s: number;
  }>(t, 'sap-in');
  t.diagnostic(JSON.stringify(result));
  assert.ok(result.add_ms < 5000, `added ${result.add_ms} ms after ffmpeg started`);
  assert.ok(result.remove_by_deletion_ms < 2000, `${result.remove_by_deletion_ms} ms`);
  assert.ok(result.remove_by_timeout_ms <= (result.cleanup_timeout_s + 2) * 1000);
});

const receivers =
  namespaceUnavailable(['ffmpeg', 'pulseaudio', 'pactl', 'parec', 'gst-inspect-1.0']) ?? false;

test('ffmpeg and PulseAudio play the tone of the RTP sink Tributary announces; deletions on disable and stop', {
  skip: receivers,
}, async (t) => {
  const { result } = await inNamespace<{ ffmpeg_hz: number; pulseaudio_hz: number }>(t, 'sap-out');
  t.diagnostic(JSON.stringify(result));
  assert.ok(Math.abs(result.ffmpeg_hz - 1000) < 1);
  assert.ok(Math.abs(result.pulseaudio_hz - 1000) < 1);
});

interface HeardStream {
  sink: string;
  hz: number;
}

test('PulseAudio plays each of two, then three announced RTP sinks (payload types, rates, channels, multicast and unicast) as its own tone', {
  skip: receivers,
}, async (t) => {
  const { result } = await inNamespace<{ two: HeardStream[]; three: HeardStream[] }>(
    t,
    'sap-out-streams',
  );
  t.diagnostic(JSON.stringify(result));
  assert.deepEqual(
    result.three.map((h) => h.sink),
    ['Lounge', 'Desk', 'Kitchen'],
  );
});
