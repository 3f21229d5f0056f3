// Every press of a stepping control applies (issue 31: three quick Down presses made one step,
// two quick "+10 ms" clicks saved 10 ms).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Steps } from '../src/lib/steps';

/** A server that answers each save when told to, and remembers the order it applied them. */
function slowServer() {
  const applied: number[] = [];
  const waiting: (() => void)[] = [];
  let value = 100;
  const save = (v: number) =>
    new Promise<number>((resolve) => {
      waiting.push(() => {
        value = v;
        applied.push(v);
        resolve(v);
      });
    });
  const answerAll = async () => {
    while (waiting.length > 0) {
      waiting.shift()!();
      await new Promise((r) => setImmediate(r));
    }
  };
  return { applied, save, answerAll, value: () => value };
}

test('quick presses each step from the last one asked for, and are saved in order', async () => {
  const steps = new Steps();
  const server = slowServer();
  const done: Promise<unknown>[] = [];
  for (let i = 0; i < 3; i++) {
    // The live value has not changed yet: the server answered nothing.
    const next = steps.base('sink:k:delay', server.value()) + 10;
    done.push(steps.apply('sink:k:delay', next, server.save));
  }
  // One save at a time: the second waits for the first.
  await new Promise((r) => setImmediate(r));
  await server.answerAll();
  await Promise.all(done);
  assert.deepEqual(server.applied, [110, 120, 130]);
  assert.equal(server.value(), 130);
});

test('once the live value shows the step, it is the base again; a refused step is not kept', async () => {
  let now = 0;
  const steps = new Steps(() => now);
  await steps.apply('k', 5, async (v) => v);
  await new Promise((r) => setImmediate(r));
  // Not shown yet (the live state lags the answer): still stepped from.
  assert.equal(steps.base('k', 4), 5);
  // Shown: from the live value on, so a change made elsewhere is followed.
  assert.equal(steps.base('k', 5), 5);
  assert.equal(steps.base('k', 9), 9);
  await steps
    .apply('k', 7, async () => {
      throw new Error('refused');
    })
    .catch(() => undefined);
  await new Promise((r) => setImmediate(r));
  assert.equal(steps.base('k', 9), 9);
  // A step the live state never shows is forgotten after a while.
  await steps.apply('k', 11, async (v) => v);
  await new Promise((r) => setImmediate(r));
  now += 2500;
  assert.equal(steps.base('k', 9), 9);
});
