// The sinks' levels through the daemon: /api/levels and /ws/levels report what the engine
// measures from what a sink sends (a real Scream tone on 127.0.0.1 through a real route), and
// the engine measures only while someone reads.
import assert from 'node:assert/strict';
import { createSocket, type Socket } from 'node:dgram';
import { describe, type TestContext, test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { decodeLevelsFrame } from '../../src/schema/levels-frame.js';
import { build, localEngine as local } from '../helpers.js';

interface Levels {
  config_id: string;
  name: string;
  channels: number;
  windows: number;
  peak: number[];
  rms: number[];
  spectrum?: number[];
  wave_min?: number[];
  wave_max?: number[];
}

async function udp(t: TestContext): Promise<Socket> {
  const socket = createSocket('udp4');
  await new Promise<void>((resolve) => socket.bind(0, '127.0.0.1', () => resolve()));
  t.after(() => socket.close());
  return socket;
}

/** Plays a sine of `hz` at `amplitude` (linear) as Scream 48 kHz 16-bit stereo, real time. */
function tone(tx: Socket, port: number, hz: number, amplitude: number) {
  let frame = 0;
  let stopped = false;
  const start = performance.now();
  const run = async () => {
    for (let k = 0; !stopped; k++) {
      const packet = Buffer.alloc(5 + 1152);
      packet.set([0x01, 16, 2, 0x03, 0x00]);
      for (let i = 0; i < 288; i++, frame++) {
        const v = Math.round(amplitude * 32767 * Math.sin((2 * Math.PI * hz * frame) / 48000));
        packet.writeInt16LE(v, 5 + i * 4);
        packet.writeInt16LE(v, 7 + i * 4);
      }
      tx.send(packet, port, '127.0.0.1');
      await sleep(Math.max(0, start + (k + 1) * 6 - performance.now()));
    }
  };
  const done = run();
  return async () => {
    stopped = true;
    await done;
  };
}

async function until(what: string, check: () => boolean, ms = 5000) {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) assert.fail(`timed out waiting for ${what}`);
    await sleep(20);
  }
}

/** A daemon whose source PC plays on the sink Kitchen (a UDP socket of the test), and its stats. */
async function pcToKitchen(t: TestContext) {
  const app = await build(t, { engine: local });
  const rx = await udp(t);
  for (const [url, payload] of [
    ['/sinks', { name: 'Kitchen', ip: '127.0.0.1', port: rx.address().port }],
    ['/sources', { name: 'PC', ip: '127.0.0.1' }],
    ['/routes', { name: 'PC to Kitchen', source: 'PC', sink: 'Kitchen' }],
  ] as const) {
    const res = await app.inject({ method: 'POST', url, payload });
    assert.equal(res.statusCode, 201, res.body);
  }
  return { app, stats: (await app.inject('/api/stats')).json() };
}

const loudestBand = (spectrum: number[]) => spectrum.indexOf(Math.max(...spectrum));
/** Centre of band `b` of 64 log-spaced bands from 20 Hz to 20 kHz. */
const centreHz = (b: number) => 20 * 1000 ** ((b + 0.5) / 64);

describe('sink and source levels', () => {
  test('a routed tone shows its level, spectrum and waveform on /ws/levels; silence reads zero', async (t) => {
    const { app, stats } = await pcToKitchen(t);
    const sinkId: string = stats.sinks[0].config_id;

    // Nobody has read it: the engine has measured nothing.
    const first = (await app.inject(`/api/levels?sink=${sinkId}`)).json();
    assert.equal(first.type, 'levels');
    assert.equal(first.sinks.length, 1);
    assert.equal(first.sinks[0].windows, 0);

    const messages: { sinks: Levels[] }[] = [];
    const ws = await app.injectWS(
      `/ws/levels?sink=${sinkId}`,
      {},
      { onInit: (s) => s.on('message', (d) => messages.push(JSON.parse(d.toString()))) },
    );
    t.after(() => ws.terminate());
    const stop = tone(await udp(t), stats.engine.ports.scream[0], 1000, 0.5);
    t.after(stop);
    const latest = () => messages.at(-1)?.sinks[0];
    await until('the tone on the meter', () => (latest()?.peak[0] ?? 0) > 0.45);
    await sleep(300);
    const loud = latest()!;
    assert.equal(loud.name, 'Kitchen');
    assert.equal(loud.channels, 2);
    for (const c of [0, 1]) {
      assert.ok(Math.abs(loud.peak[c]! - 0.5) < 0.02, `peak ${loud.peak}`);
      assert.ok(Math.abs(loud.rms[c]! - 0.5 / Math.SQRT2) < 0.02, `rms ${loud.rms}`);
    }
    assert.equal(loud.spectrum?.length, 64);
    const band = loudestBand(loud.spectrum!);
    assert.ok(Math.abs(Math.log2(centreHz(band) / 1000)) < 0.2, `loudest band ${band}`);
    assert.ok(
      Math.abs(loud.spectrum![band]! - 20 * Math.log10(0.5)) < 2,
      `${loud.spectrum![band]} dB`,
    );
    assert.equal(loud.wave_min?.length, 256);
    assert.equal(loud.wave_max?.length, 256);
    // The envelope of a 1 kHz tone: each stretch of 8 samples spans part of a cycle, and the
    // stretches together reach both crests.
    assert.ok(Math.max(...loud.wave_max!) > 0.48, `wave_max ${loud.wave_max}`);
    assert.ok(Math.min(...loud.wave_min!) < -0.48, `wave_min ${loud.wave_min}`);
    assert.ok(loud.wave_min!.every((v, i) => v <= loud.wave_max![i]!));
    // About 30 messages a second.
    const count = messages.length;
    await sleep(1000);
    assert.ok(messages.length - count >= 20, `${messages.length - count} messages in 1 s`);

    await stop();
    // The meter's window is 33 ms; the spectrum's 85 ms: both fall to nothing.
    await until('silence on the meter', () => latest()?.peak[0] === 0, 4000);
    await until('silence in the spectrum', () => Math.max(...latest()!.spectrum!) <= -100, 2000);
    assert.ok(latest()!.wave_max!.every((v) => v === 0));
  });

  test('encoding=binary: the same levels as binary frames, in fewer bytes per second', async (t) => {
    const { app, stats } = await pcToKitchen(t);
    const stop = tone(await udp(t), stats.engine.ports.scream[0], 1000, 0.5);
    t.after(stop);
    // One socket per detail and encoding, all open at once on the same tone.
    const sockets = new Map<
      string,
      { bytes: number; messages: number; binary: boolean; last: Buffer | null }
    >();
    for (const detail of ['full', 'meter']) {
      for (const encoding of ['json', 'binary']) {
        const seen = { bytes: 0, messages: 0, binary: true, last: null as Buffer | null };
        sockets.set(`${detail} ${encoding}`, seen);
        const ws = await app.injectWS(
          `/ws/levels?detail=${detail}&encoding=${encoding}`,
          {},
          {
            onInit: (s) =>
              s.on('message', (d: Buffer, binary: boolean) => {
                seen.bytes += d.length;
                seen.messages += 1;
                seen.binary &&= binary;
                seen.last = d;
              }),
          },
        );
        t.after(() => ws.terminate());
      }
    }
    const json = () => JSON.parse(String(sockets.get('full json')!.last)) as { sinks: Levels[] };
    await until('the tone on the meter', () => (json().sinks[0]?.peak[0] ?? 0) > 0.45);
    for (const seen of sockets.values()) Object.assign(seen, { bytes: 0, messages: 0 });
    await sleep(3000);
    const perSecond = (key: string) => Math.round(sockets.get(key)!.bytes / 3);
    for (const detail of ['full', 'meter']) {
      const [text, frames] = [perSecond(`${detail} json`), perSecond(`${detail} binary`)];
      const size = (key: string) => {
        const { bytes, messages } = sockets.get(key)!;
        return `${Math.round(bytes / messages)} B x ${(messages / 3).toFixed(1)}/s`;
      };
      t.diagnostic(
        `detail=${detail}: JSON ${text} B/s (${size(`${detail} json`)}), ` +
          `binary ${frames} B/s (${size(`${detail} binary`)}) per socket`,
      );
      assert.ok(frames < text, `${detail}: binary ${frames} B/s, JSON ${text} B/s`);
      assert.ok(sockets.get(`${detail} binary`)!.binary, 'binary frames');
      assert.ok(!sockets.get(`${detail} json`)!.binary, 'JSON text');
    }
    const full = decodeLevelsFrame(sockets.get('full binary')!.last!).sinks[0]!;
    const meter = decodeLevelsFrame(sockets.get('meter binary')!.last!).sinks[0]!;
    const text = json().sinks[0]!;
    assert.deepEqual(
      [full.name, full.channels, full.spectrum?.length, full.wave_min?.length],
      [text.name, text.channels, 64, 256],
    );
    for (const c of [0, 1]) assert.ok(Math.abs(full.peak[c]! - 0.5) < 0.02, `${full.peak}`);
    assert.equal(loudestBand(full.spectrum!), loudestBand(text.spectrum!));
    assert.deepEqual(
      Object.keys(meter).sort(),
      Object.keys(text)
        .sort()
        .filter((k) => !k.startsWith('wave') && k !== 'spectrum'),
    );
  });

  test('detail=meter sends peak and RMS only; bad queries get 400; a plain GET of the socket 426; engine off, no sinks', async (t) => {
    const app = await build(t, { engine: local });
    const rx = await udp(t);
    await app.inject({
      method: 'POST',
      url: '/sinks',
      payload: { name: 'Den', ip: '127.0.0.1', port: rx.address().port },
    });
    const meter = (await app.inject('/api/levels?detail=meter')).json();
    assert.equal(meter.sinks.length, 1);
    assert.deepEqual(Object.keys(meter.sinks[0]).sort(), [
      'channels',
      'config_id',
      'name',
      'peak',
      'rms',
      'sample_rate',
      'windows',
    ]);
    const none = (await app.inject('/api/levels?sink=nothing-like-it')).json();
    assert.deepEqual(none.sinks, []);
    const bad = await app.inject('/api/levels?detail=loud');
    assert.equal(bad.statusCode, 400);
    assert.equal(bad.json().details[0].path, 'detail');
    const plain = await app.inject('/ws/levels');
    assert.equal(plain.statusCode, 426);

    const off = await build(t);
    assert.deepEqual((await off.inject('/api/levels?source=x')).json(), {
      type: 'levels',
      sinks: [],
      sources: [],
    });
  });

  test('source= reports the source as it enters the graph (before the route volume), and only it', async (t) => {
    const app = await build(t, { engine: local });
    const rx = await udp(t);
    const created: Record<string, { config_id: string }> = {};
    for (const [url, payload] of [
      ['/sinks', { name: 'Kitchen', ip: '127.0.0.1', port: rx.address().port }],
      ['/sources', { name: 'PC', ip: '127.0.0.1' }],
      ['/sources', { name: 'Radio', ip: '127.0.0.2' }],
      ['/routes', { name: 'PC to Kitchen', source: 'PC', sink: 'Kitchen', volume: 0.3 }],
    ] as const) {
      const res = await app.inject({ method: 'POST', url, payload });
      assert.equal(res.statusCode, 201, res.body);
      created[payload.name] = res.json();
    }
    const pc = created.PC!.config_id;
    const radio = created.Radio!.config_id;
    const messages: { sinks: Levels[]; sources: Levels[] }[] = [];
    const ws = await app.injectWS(
      `/ws/levels?source=${pc},${radio}&detail=meter`,
      {},
      { onInit: (s) => s.on('message', (d) => messages.push(JSON.parse(d.toString()))) },
    );
    t.after(() => ws.terminate());
    const stats = (await app.inject('/api/stats')).json();
    const stop = tone(await udp(t), stats.engine.ports.scream[0], 440, 0.5);
    t.after(stop);
    const latest = () => messages.at(-1);
    await until('the tone on the source meter', () => (latest()?.sources[0]?.peak[0] ?? 0) > 0.45);
    await sleep(200);
    const message = latest()!;
    // Only what was asked: no sinks, and Radio (no route plays it) is not reported.
    assert.deepEqual(message.sinks, []);
    assert.deepEqual(
      message.sources.map((s) => [s.config_id, s.name]),
      [[pc, 'PC']],
    );
    const source = message.sources[0]!;
    assert.equal(source.spectrum, undefined);
    for (const c of [0, 1]) {
      assert.ok(Math.abs(source.peak[c]! - 0.5) < 0.02, `peak ${source.peak}`);
      assert.ok(Math.abs(source.rms[c]! - 0.5 / Math.SQRT2) < 0.02, `rms ${source.rms}`);
    }
    // The sink plays it at the route's volume, lower.
    const sink = (await app.inject('/api/levels?detail=meter')).json().sinks[0];
    await sleep(200);
    const sinkNow = (await app.inject(`/api/levels?sink=${sink.config_id}`)).json().sinks[0];
    assert.ok(sinkNow.peak[0] > 0 && sinkNow.peak[0] < 0.4, `sink peak ${sinkNow.peak}`);
    const full = (await app.inject(`/api/levels?source=${pc}`)).json().sources[0];
    const band = loudestBand(full.spectrum);
    assert.ok(Math.abs(Math.log2(centreHz(band) / 440)) < 0.2, `loudest band ${band}`);

    await stop();
    await until('silence on the source meter', () => latest()?.sources[0]?.peak[0] === 0, 4000);
  });
});
