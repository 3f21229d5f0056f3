// The soak's senders as processes: a stall (SIGSTOP, then SIGCONT) of a sender that dies meanwhile
// leaves it off the air until it is started again, and a hang-up does not take a sender down.
// Run with a stand-in command (sleep) instead of ffmpeg: the process handling is what is tested.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { outages } from '../soak/gaps.mjs';
import { Sender } from '../soak/senders.mjs';

const standIn = () => ({ cmd: 'sleep', args: ['30'] });

function sender() {
  const events = [];
  const t0 = performance.now();
  const log = (type, fields) => events.push({ at: performance.now() - t0, type, ...fields });
  const s = new Sender({ id: 'x', kind: 'rtp', hz: 440 }, 0, log, standIn);
  return { s, events, now: () => performance.now() - t0 };
}

const exited = (child) => new Promise((resolve) => child.once('exit', resolve));

/** Waits until the wrapper shell has exec'd the stand-in (its hang-up disposition set). */
async function execd(pid) {
  for (let i = 0; i < 500; i++) {
    if (readFileSync(`/proc/${pid}/comm`, 'utf8').trim() === 'sleep') return;
    await sleep(10);
  }
  throw new Error('the sender never started');
}

test('a sender that dies in a stall stays off the air: no SIGCONT is logged for it', async () => {
  const { s, events, now } = sender();
  s.start();
  const child = s.child;
  s.stall(300);
  const gone = exited(child);
  process.kill(child.pid, 'SIGKILL');
  await gone;
  await sleep(450); // past the stall's end
  const types = events.map((e) => e.type);
  assert.deepEqual(types, ['sender-start', 'sender-stall', 'sender-exit']);
  assert.equal(events[2].signal, 'SIGKILL');
  // Down from the stall to the end of the run, not only for the stall's 300 ms.
  const end = now();
  const [down] = outages(events, ['x'], end).get('x').slice(-1);
  assert.equal(down.from, events[1].at);
  assert.equal(down.to, end);
  s.start();
  assert.equal(events.at(-1).type, 'sender-start', 'started again after the death');
  await s.stop();
});

test('a stalled sender survives a hang-up (an orphaned process group gets SIGHUP)', async () => {
  const { s, events } = sender();
  s.start();
  const child = s.child;
  await execd(child.pid);
  s.stall(200);
  process.kill(child.pid, 'SIGHUP');
  process.kill(child.pid, 'SIGCONT');
  await sleep(300);
  assert.equal(s.child, child, 'still the same process');
  assert.equal(child.exitCode, null);
  assert.equal(child.signalCode, null);
  assert.deepEqual(
    events.map((e) => e.type),
    ['sender-start', 'sender-stall', 'sender-cont'],
  );
  await s.stop();
  assert.deepEqual(events.at(-1).type, 'sender-stop');
});
