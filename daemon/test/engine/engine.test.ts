// The audio engine inside the daemon: configuration changes reach it, /api/stats and /ws/stats
// report it, closing the app stops it. Real UDP sockets on 127.0.0.1, ephemeral ports.
import assert from 'node:assert/strict';
import { createSocket, type Socket } from 'node:dgram';
import { describe, type TestContext, test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { readEngineSettings } from '../../src/settings/engine.js';
import { build, localEngine as local } from '../helpers.js';

async function udp(t: TestContext): Promise<Socket> {
  const socket = createSocket('udp4');
  await new Promise<void>((resolve) => socket.bind(0, '127.0.0.1', () => resolve()));
  t.after(() => socket.close());
  return socket;
}

/** A Scream packet (48 kHz, 16-bit, stereo) whose samples are all `value`. */
function scream(value: number): Buffer {
  const packet = Buffer.alloc(5 + 1152);
  packet.set([0x01, 16, 2, 0x03, 0x00]);
  for (let i = 5; i < packet.length; i += 2) packet.writeInt16LE(value, i);
  return packet;
}

/** Sends `count` Scream packets at the real rate (one every 6 ms). */
async function play(tx: Socket, port: number, count: number, value: number) {
  const start = performance.now();
  for (let k = 0; k < count; k++) {
    tx.send(scream(value), port, '127.0.0.1');
    const due = start + (k + 1) * 6;
    await sleep(Math.max(0, due - performance.now()));
  }
}

async function until(what: string, check: () => boolean | Promise<boolean>, ms = 5000) {
  const end = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > end) assert.fail(`timed out waiting for ${what}`);
    await sleep(20);
  }
}

describe('engine settings from the environment', () => {
  test('defaults, off, and clear errors naming the variable', () => {
    const d = readEngineSettings({});
    assert.deepEqual(d?.screamPorts, [4010, 16401]);
    assert.equal(d?.taggedPort, 16402);
    assert.deepEqual(d?.rtpPorts, [40000]);
    assert.equal(d?.jitterMinMs, 20);
    assert.equal(readEngineSettings({ ENGINE: 'off' }), null);
    assert.equal(readEngineSettings({ SCREAM_TAGGED_PORT: 'off' })?.taggedPort, null);
    assert.deepEqual(readEngineSettings({ RTP_PORTS: '5004, 6000' })?.rtpPorts, [5004, 6000]);
    assert.throws(() => readEngineSettings({ SCREAM_PORTS: '4010,x' }), /SCREAM_PORTS must be/);
    assert.throws(
      () => readEngineSettings({ JITTER_MIN_MS: '5' }),
      /JITTER_MIN_MS must be .* 20 to 200/,
    );
    assert.throws(
      () => readEngineSettings({ JITTER_MIN_MS: '150', JITTER_MAX_MS: '100' }),
      /must not exceed/,
    );
    assert.throws(() => readEngineSettings({ MULTICAST_GROUPS: '10.0.0.1' }), /multicast/);
    assert.throws(() => readEngineSettings({ ENGINE: 'maybe' }), /ENGINE must be/);
  });
});

describe('the engine plays the configuration', () => {
  test('a route made through the API plays a Scream source on a Scream sink; changes apply live', async (t) => {
    const app = await build(t, { engine: local });
    const rx = await udp(t);
    const received: Buffer[] = [];
    rx.on('message', (m) => received.push(m));
    const post = async (url: string, payload: Record<string, unknown>) => {
      const res = await app.inject({ method: 'POST', url, payload });
      assert.equal(res.statusCode, 201, res.body);
    };
    await post('/sinks', { name: 'Kitchen', ip: '127.0.0.1', port: rx.address().port });
    await post('/sources', { name: 'PC', ip: '127.0.0.1' });
    await post('/routes', { name: 'PC to Kitchen', source: 'PC', sink: 'Kitchen' });

    const stats = async () => (await app.inject('/api/stats')).json();
    const first = await stats();
    assert.equal(first.engine.state, 'running');
    assert.deepEqual(first.engine.problems, []);
    const port = first.engine.ports.scream[0];
    assert.ok(port > 0);
    // Silence leaves at the sink's cadence before anything plays.
    await until('silence packets', () => received.length > 10);
    assert.deepEqual([...received[0]!.subarray(0, 5)], [0x01, 16, 2, 0x03, 0x00]);

    const tx = await udp(t);
    const level = (m: Buffer) => Math.abs(m.readInt16LE(5 + 600));
    received.length = 0;
    await play(tx, port, 120, 8000);
    await until('the source on the sink', () => received.some((m) => level(m) > 7900));
    const s = await stats();
    const source = s.sources.find((x: { name: string }) => x.name === 'PC');
    assert.ok(source.packets >= 100, JSON.stringify(source));
    assert.equal(source.format, 'scream s16le 48000 Hz 2 ch');
    assert.equal(s.sinks[0].name, 'Kitchen');
    assert.ok(s.sinks[0].packets > 100);
    // One path, through the route, counting what the sink counts; then the sender stalls for
    // 150 ms mid-stream: the path counts the silence the sink played.
    const route = (await app.inject('/routes/PC%20to%20Kitchen')).json();
    const [before] = s.paths;
    assert.equal(s.paths.length, 1);
    assert.deepEqual(
      [before.source_config_id, before.sink_config_id, before.route_config_id],
      [source.config_id, s.sinks[0].config_id, route.config_id],
    );
    assert.equal(before.silence_ms, s.sinks[0].silence_ms);
    await play(tx, port, 60, 8000);
    await sleep(150);
    await play(tx, port, 60, 8000);
    const stalled = await stats();
    const [counted] = stalled.paths;
    assert.ok(counted.underruns > before.underruns, JSON.stringify([before, counted]));
    assert.ok(counted.silence_ms >= before.silence_ms + 100, JSON.stringify([before, counted]));
    assert.equal(counted.route_config_id, route.config_id);
    assert.equal(counted.silence_ms, stalled.sinks[0].silence_ms);

    // Halve the route's volume through the API: the level follows without restarting anything.
    const put = await app.inject({
      method: 'PUT',
      url: '/routes/PC%20to%20Kitchen',
      payload: { volume: 0.5 },
    });
    assert.equal(put.statusCode, 200, put.body);
    received.length = 0;
    await play(tx, port, 120, 8000);
    await until('the quieter level', () => received.some((m) => Math.abs(level(m) - 4000) < 100));
    assert.ok(!received.slice(-20).some((m) => level(m) > 7900), 'old level gone');
  });

  test('/ws/stats pushes statistics; unknown senders are listed', async (t) => {
    const app = await build(t, { engine: local });
    const messages: { type: string; unknown_senders: { address: string }[] }[] = [];
    const ws = await app.injectWS(
      '/ws/stats',
      {},
      {
        onInit: (socket) => socket.on('message', (d) => messages.push(JSON.parse(d.toString()))),
      },
    );
    t.after(() => ws.terminate());
    await until('the first message', () => messages.length >= 1);
    assert.equal(messages[0]!.type, 'stats');
    const port = (await app.inject('/api/stats')).json().engine.ports.scream[0];
    const tx = await udp(t);
    await play(tx, port, 20, 100);
    await until(
      'the unknown sender in a pushed message',
      () => messages.some((m) => m.unknown_senders.some((u) => u.address === '127.0.0.1')),
      4000,
    );
  });

  test('closing the app stops the engine and frees its ports; ENGINE=off reports off', async (t) => {
    const app = await build(t, { engine: local });
    const port = (await app.inject('/api/stats')).json().engine.ports.scream[0];
    await app.close();
    const socket = createSocket('udp4');
    await new Promise<void>((resolve, reject) => {
      socket.once('error', reject);
      socket.bind(port, '127.0.0.1', () => resolve());
    });
    socket.close();

    const off = await build(t);
    const res = await off.inject('/api/stats');
    assert.equal(res.statusCode, 200);
    assert.equal(res.json().engine.state, 'off');
    assert.deepEqual(res.json().sources, []);
  });

  test('a port in use leaves the API up and says why', async (t) => {
    const busy = await udp(t);
    const app = await build(t, { engine: { ...local, screamPorts: [busy.address().port] } });
    const body = (await app.inject('/api/stats')).json();
    assert.equal(body.engine.state, 'failed');
    assert.match(body.engine.error, new RegExp(`UDP port ${busy.address().port}`));
  });
});
