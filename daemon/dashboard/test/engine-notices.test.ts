import assert from 'node:assert/strict';
import { test } from 'node:test';
import { engineNotices } from '../src/lib/engine-notices';
import { engineStatus } from './engine-status';

const running = engineStatus({ revision: 7, uptime_s: 100, cpu_s: 1, cpu_percent: 1 });

const fault = {
  thread: 'trib-engine',
  reason: 'injected fault at engine.rs:1',
  culprit: { kind: 'source' as const, config_id: 'pc', name: 'PC' },
  ms_ago: 12_000,
  restart_ms: 41.6,
};

test('a healthy engine, or one that is off, says nothing', () => {
  assert.deepEqual(engineNotices(running), []);
  assert.deepEqual(engineNotices({ ...running, state: 'off' }), []);
  assert.deepEqual(engineNotices(null), []);
});

test('a failed engine says why', () => {
  const [n] = engineNotices({
    ...running,
    state: 'failed',
    error: 'cannot listen on UDP port 4010',
  });
  assert.equal(n?.tone, 'danger');
  assert.match(n!.text, /not running: cannot listen on UDP port 4010\./);
});

test('each quarantined source or sink is named with the engine’s message', () => {
  const notices = engineNotices({
    ...running,
    quarantined: [
      {
        kind: 'source',
        config_id: 'pc',
        name: 'PC',
        message: "source 'PC' is quarantined: it made the engine fail 3 times",
      },
    ],
  });
  assert.deepEqual(
    notices.map((n) => n.text),
    ["Left out of the audio: source 'PC' is quarantined: it made the engine fail 3 times"],
  );
});

test('a refused revision shows until a later one plays', () => {
  const rejected = { revision: 8, reason: 'sinks[0]: bad layout' };
  const [n] = engineNotices({ ...running, rejected });
  assert.match(
    n!.text,
    /refused configuration revision 8: sinks\[0\]: bad layout\. It still plays revision 7/,
  );
  assert.deepEqual(engineNotices({ ...running, revision: 9, rejected }), []);
  assert.match(engineNotices({ ...running, revision: null, rejected })[0]!.text, /Nothing plays\./);
});

test('a recent fault is told once the engine runs again, with its culprit and restart time', () => {
  const [n] = engineNotices({ ...running, restarts: 1, last_fault: fault });
  assert.equal(n?.tone, 'warning');
  assert.equal(
    n?.text,
    "The audio engine recovered from a fault 12 s ago: thread trib-engine failed while playing source 'PC' (injected fault at engine.rs:1), and was playing again 42 ms later. Restarts so far: 1.",
  );
  assert.deepEqual(engineNotices({ ...running, last_fault: { ...fault, ms_ago: 6 * 60_000 } }), []);
  // While it is down, the failure is what shows.
  const down = engineNotices({
    ...running,
    state: 'failed',
    error: 'restarting',
    last_fault: fault,
  });
  assert.deepEqual(
    down.map((x) => x.key),
    ['failed'],
  );
});
