// The memory a daemon process holds live, for tests of memory growth: after a full garbage
// collection (asked through the inspector, which the test starts with NODE_OPTIONS=--inspect on
// an ephemeral port), its JavaScript heap in use plus the memory outside it (Buffers,
// ArrayBuffers: what a WebSocket backlog is made of). RSS rises and falls by some 20 % with the
// collector's timing; this does not.
import { once } from 'node:events';
import { setTimeout as sleep } from 'node:timers/promises';
import WebSocket from 'ws';

/** NODE_OPTIONS for a daemon whose memory is measured (the inspector on 127.0.0.1, any port). */
export const INSPECTABLE = { NODE_OPTIONS: '--inspect=127.0.0.1:0' };

/** The inspector's WebSocket URL, from what the daemon printed when it started. */
export async function inspectorUrl(output: () => string): Promise<string> {
  for (let waited = 0; waited < 10_000; waited += 100) {
    const url = /Debugger listening on (ws:\/\/127\.0\.0\.1:\d+\/[\w-]+)/.exec(output())?.[1];
    if (url) return url;
    await sleep(100);
  }
  throw new Error(`no inspector URL in the daemon's output:\n${output()}`);
}

export interface LiveMemory {
  /** JavaScript heap in use after a full collection, MiB. */
  readonly heap: number;
  /** Memory outside the heap held by live objects (Buffers, ArrayBuffers), MiB. */
  readonly external: number;
  readonly total: number;
}

/** Collects garbage in the process behind `url`, then reads what it still holds. */
export async function liveMemory(url: string): Promise<LiveMemory> {
  const ws = new WebSocket(url);
  await once(ws, 'open');
  let next = 0;
  const call = (method: string, params: object = {}) =>
    new Promise<{ result?: { value?: string } }>((resolve, reject) => {
      const id = ++next;
      const onMessage = (data: WebSocket.RawData) => {
        const message = JSON.parse(String(data)) as {
          id?: number;
          error?: unknown;
          result?: { result?: { value?: string } };
        };
        if (message.id !== id) return;
        ws.off('message', onMessage);
        if (message.error) reject(new Error(JSON.stringify(message.error)));
        else resolve(message.result ?? {});
      };
      ws.on('message', onMessage);
      ws.send(JSON.stringify({ id, method, params }));
    });
  try {
    await call('HeapProfiler.collectGarbage');
    const { result } = await call('Runtime.evaluate', {
      expression: 'JSON.stringify(process.memoryUsage())',
      returnByValue: true,
    });
    const m = JSON.parse(result?.value ?? '{}') as { heapUsed: number; external: number };
    const heap = m.heapUsed / 2 ** 20;
    const external = m.external / 2 ** 20;
    return { heap, external, total: heap + external };
  } finally {
    ws.close();
  }
}
