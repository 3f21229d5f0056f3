// The receivers' worker thread (receivers.mjs): binds one receiver per sink and answers the
// soak's questions ('ready', 'stats', 'close') in order.
import { parentPort, workerData } from 'node:worker_threads';
import { receiver } from './receivers.mjs';

const { sinks, base } = workerData;
const now = () => performance.timeOrigin + performance.now() - base;
let list = [];
try {
  list = await Promise.all(sinks.map(async (s) => [s.key, await receiver(s, now)]));
} catch (err) {
  parentPort.once('message', () => parentPort.postMessage({ error: err.message }));
}
parentPort.on('message', (type) => {
  if (type === 'ready') parentPort.postMessage({ ok: true });
  else if (type === 'stats') {
    parentPort.postMessage(Object.fromEntries(list.map(([k, r]) => [k, r.stats()])));
  } else if (type === 'close') {
    parentPort.postMessage(Object.fromEntries(list.map(([k, r]) => [k, r.close()])));
  }
});
