// One /ws/levels socket carrying several subscriptions (the dashboard's meters, active source
// and visualizer): subscribe and unsubscribe messages, the union of what they ask read once,
// refusals that name the field, and the URL's query as the first subscription. Real daemon and
// engine, a real Scream tone on 127.0.0.1.
import assert from 'node:assert/strict';
import { createSocket, type Socket } from 'node:dgram';
import { describe, type TestContext, test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { levelsFor } from '../../src/routes/levels/subscriptions.js';
import { build, localEngine as local } from '../helpers.js';

interface Levels {
  config_id: string;
  peak: number[];
  spectrum?: number[];
}
type Message =
  | { type: 'levels'; sinks: Levels[]; sources: Levels[] }
  | { type: 'error'; message: string; details: { path: string; keyword: string }[] };

async function udp(t: TestContext): Promise<Socket> {
  const socket = createSocket('udp4');
  await new Promise<void>((resolve) => socket.bind(0, '127.0.0.1', () => resolve()));
  t.after(() => socket.close());
  return socket;
}

async function until(what: string, check: () => boolean, ms = 5000) {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) assert.fail(`timed out waiting for ${what}`);
    await sleep(20);
  }
}

/** Scream 48 kHz 16-bit stereo at half scale, real time, until stopped. */
function tone(tx: Socket, port: number) {
  let stopped = false;
  const timer = setInterval(() => {
    if (stopped) return;
    const packet = Buffer.alloc(5 + 1152);
    packet.set([0x01, 16, 2, 0x03, 0x00]);
    for (let i = 0; i < 288; i++) {
      const v = Math.round(16384 * Math.sin((2 * Math.PI * 440 * i) / 48000));
      packet.writeInt16LE(v, 5 + i * 4);
      packet.writeInt16LE(v, 7 + i * 4);
    }
    tx.send(packet, port, '127.0.0.1');
  }, 6);
  return () => {
    stopped = true;
    clearInterval(timer);
  };
}

/**
 * The witness that a socket is sent nothing, instead of a fixed sleep: a second socket with the
 * URL's meter subscription; `ticks(n)` resolves once it got n more messages, n ticks of the
 * levels timer (every socket has its own, at LEVELS_PER_SECOND, started when it opened), in
 * which a socket with a subscription would have been sent about n messages too.
 */
async function witness(t: TestContext, app: Awaited<ReturnType<typeof build>>) {
  let got = 0;
  const ws = await app.injectWS(
    '/ws/levels?detail=meter',
    {},
    {
      onInit: (s) =>
        s.on('message', () => {
          got++;
        }),
    },
  );
  t.after(() => ws.terminate());
  return async (n: number) => {
    const from = got;
    await until(`${n} messages on the witness socket`, () => got >= from + n);
  };
}

/** Sends a message the socket refuses and waits for its refusal: every message sent before it
 * has been handled, and every message the daemon sent before handling it has arrived. */
async function handled(ws: { send: (m: string) => void }, messages: Message[]) {
  const refusals = () => messages.filter((m) => m.type === 'error').length;
  const before = refusals();
  ws.send('{"type":"watch","id":"witness"}');
  await until('the refusal of the witness message', () => refusals() > before);
}

const levelsIn = (messages: Message[]) => messages.filter((m) => m.type === 'levels').length;

describe('/ws/levels subscriptions', () => {
  test('one socket carries the meters, the active source and the visualizer; unsubscribe drops one', async (t) => {
    const app = await build(t, { engine: local });
    const rx1 = await udp(t);
    const rx2 = await udp(t);
    const ids: Record<string, string> = {};
    for (const [url, payload] of [
      ['/sinks', { name: 'Kitchen', ip: '127.0.0.1', port: rx1.address().port }],
      ['/sinks', { name: 'Den', ip: '127.0.0.1', port: rx2.address().port }],
      ['/sources', { name: 'PC', ip: '127.0.0.1' }],
      ['/routes', { name: 'PC to Kitchen', source: 'PC', sink: 'Kitchen' }],
      ['/routes', { name: 'PC to Den', source: 'PC', sink: 'Den' }],
    ] as const) {
      const res = await app.inject({ method: 'POST', url, payload });
      assert.equal(res.statusCode, 201, res.body);
      ids[payload.name] = res.json().config_id;
    }
    const messages: Message[] = [];
    const ws = await app.injectWS(
      '/ws/levels?mode=subscribe',
      {},
      { onInit: (s) => s.on('message', (d) => messages.push(JSON.parse(d.toString()))) },
    );
    t.after(() => ws.terminate());
    const ticks = await witness(t, app);
    // No subscription yet: nothing is sent, for as long as another socket was sent 3 messages.
    await ticks(3);
    assert.deepEqual(messages, []);

    const stats = (await app.inject('/api/stats')).json();
    t.after(tone(await udp(t), stats.engine.ports.scream[0]));
    const send = (m: object) => ws.send(JSON.stringify(m));
    send({ type: 'subscribe', id: 'meters', detail: 'meter' });
    send({ type: 'subscribe', id: 'active', source: ids.PC, detail: 'meter' });
    send({ type: 'subscribe', id: 'visualizer', sink: ids.Den });
    const latest = () => messages.at(-1) as Extract<Message, { type: 'levels' }> | undefined;
    const den = () => latest()?.sinks.find((s) => s.config_id === ids.Den);
    await until('the tone in every subscription', () => {
      const m = latest();
      return (
        m?.sinks.length === 2 &&
        m.sinks.every((s) => (s.peak[0] ?? 0) > 0.45) &&
        (m.sources[0]?.peak[0] ?? 0) > 0.45 &&
        (den()?.spectrum?.length ?? 0) === 64
      );
    });
    const message = latest()!;
    // Each sink once; the visualized one in full, the other with its meter only.
    assert.deepEqual(message.sinks.map((s) => s.config_id).sort(), [ids.Den, ids.Kitchen].sort());
    assert.equal(message.sinks.find((s) => s.config_id === ids.Kitchen)!.spectrum, undefined);
    assert.deepEqual(
      message.sources.map((s) => [s.config_id, s.spectrum]),
      [[ids.PC, undefined]],
    );
    // About 30 messages a second for the three, not 90.
    const count = messages.length;
    await sleep(1000);
    const rate = messages.length - count;
    assert.ok(rate >= 20 && rate <= 40, `${rate} messages in 1 s`);

    send({ type: 'unsubscribe', id: 'visualizer' });
    send({ type: 'unsubscribe', id: 'active' });
    await until('the spectrum and the source gone', () => {
      const m = latest();
      return m?.sources.length === 0 && m.sinks.length === 2 && den()?.spectrum === undefined;
    });
    send({ type: 'unsubscribe', id: 'meters' });
    await handled(ws, messages);
    const quiet = levelsIn(messages);
    await ticks(3);
    assert.equal(levelsIn(messages), quiet, 'no subscription, no messages');
  });

  test('a message it cannot act on is refused with the field and the rule; the URL query is subscription "url"', async (t) => {
    const app = await build(t, { engine: local });
    const rx = await udp(t);
    const sink = await app.inject({
      method: 'POST',
      url: '/sinks',
      payload: { name: 'Den', ip: '127.0.0.1', port: rx.address().port },
    });
    const messages: Message[] = [];
    const ws = await app.injectWS(
      '/ws/levels?detail=meter',
      {},
      { onInit: (s) => s.on('message', (d) => messages.push(JSON.parse(d.toString()))) },
    );
    t.after(() => ws.terminate());
    await until('the URL subscription', () => messages.some((m) => m.type === 'levels'));
    const refusals = () => messages.filter((m) => m.type === 'error');
    for (const bad of [
      '{"type":"subscribe","id":"v","detail":"loud"}',
      '{"type":"watch","id":"v"}',
      'not json',
      '{"type":"subscribe","id":""}',
      '{"type":"subscribe","id":"v","colour":"red"}',
    ]) {
      ws.send(bad);
    }
    await until('five refusals', () => refusals().length === 5);
    assert.deepEqual(
      refusals().map((r) => r.type === 'error' && [r.details[0]!.path, r.details[0]!.keyword]),
      [
        ['detail', 'const'],
        ['type', 'enum'],
        ['', 'json'],
        ['id', 'minLength'],
        ['colour', 'additionalProperties'],
      ],
    );
    // Nothing changed: still the URL's meter-only subscription.
    const last = messages.filter((m) => m.type === 'levels').at(-1)!;
    assert.equal(last.type === 'levels' && last.sinks[0]!.config_id, sink.json().config_id);
    assert.equal(last.type === 'levels' && last.sinks[0]!.spectrum, undefined);
    // The URL's subscription ends like any other.
    ws.send('{"type":"unsubscribe","id":"url"}');
    await handled(ws, messages);
    const quiet = levelsIn(messages);
    await (await witness(t, app))(3);
    assert.equal(levelsIn(messages), quiet);
    // Too many subscriptions: the 33rd is refused.
    for (let i = 0; i < 33; i++)
      ws.send(JSON.stringify({ type: 'subscribe', id: `s${i}`, detail: 'meter' }));
    // (the sixth refusal was the witness message's)
    await until('the refusal of the 33rd', () => refusals().length === 7);
    assert.equal(
      refusals().at(-1)!.type === 'error' && refusals().at(-1)!.details[0]!.keyword,
      'maxSubscriptions',
    );
  });

  test('the union: every sink once with the most detail asked for, the engine read once per kind', () => {
    const reads: string[][] = [];
    const sourceReads: string[][] = [];
    const level = (config_id: string) => ({
      config_id,
      name: config_id,
      channels: 1,
      sample_rate: 48000,
      windows: 1,
      peak: [0.123456789],
      rms: [0.1],
      spectrum: [-20.04],
      wave_min: [-0.12345],
      wave_max: [0.12345],
    });
    const engine = {
      levels: (ids: string[]) => {
        reads.push(ids);
        return (ids.length ? ids : ['a', 'b']).map(level);
      },
      sourceLevels: (ids: string[]) => {
        sourceReads.push(ids);
        return ids.map(level);
      },
    };
    const message = levelsFor(engine, [
      { detail: 'meter' },
      { sink: 'b', detail: 'full' },
      { source: 'p', detail: 'meter' },
      { source: 'p,q' },
    ]);
    assert.deepEqual(reads, [[]]);
    assert.deepEqual(sourceReads, [['p', 'q']]);
    assert.deepEqual(
      message.sinks.map((s) => [s.config_id, s.spectrum]),
      [
        ['a', undefined],
        ['b', [-20]],
      ],
    );
    assert.deepEqual(message.sinks[0]!.peak, [0.12346]);
    assert.deepEqual(
      message.sources.map((s) => [s.config_id, s.wave_max]),
      [
        ['p', [0.1235]],
        ['q', [0.1235]],
      ],
    );
    // Only named sinks: those alone, no sources read.
    reads.length = 0;
    sourceReads.length = 0;
    const named = levelsFor(engine, [{ sink: 'b', detail: 'meter' }, { sink: 'c,b' }]);
    assert.deepEqual(reads, [['b', 'c']]);
    assert.deepEqual(sourceReads, []);
    assert.deepEqual(
      named.sinks.map((s) => [s.config_id, s.spectrum !== undefined]),
      [
        ['b', true],
        ['c', true],
      ],
    );
    assert.deepEqual(levelsFor(engine, []), { type: 'levels', sinks: [], sources: [] });
  });
});
