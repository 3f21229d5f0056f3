// MP3 over HTTP (issue 14) with real peers: a Scream tone in, ffprobe and ffmpeg reading the
// stream, many listeners, a listener that stops reading. Engine and HTTP on 127.0.0.1,
// ephemeral ports.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { describe, type TestContext, test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { build, localEngine } from '../helpers.js';
import {
  channel,
  ffmpegDecode,
  ffplay,
  ffprobe,
  frequency,
  listen,
  packetTimes,
  readBytes,
  rmsDb,
  sendTone,
  udp,
} from './mp3-peers.js';

interface Stats {
  engine: { ports: { scream: number[] } };
  streams: Array<{
    sink: string;
    listeners: number;
    dropped_listeners: number;
    bytes_sent: number;
    bitrate_kbps: number;
    encoder_cpu_percent: number | null;
    sample_rate: number | null;
  }>;
}

/** The app listening on 127.0.0.1 with a sink "Desk" at 127.0.0.1 fed by source "PC". */
async function daemon(t: TestContext, mp3?: object) {
  const app = await build(t, { engine: localEngine });
  const rx = await udp(t);
  const calls: Array<[string, object]> = [
    ['/sinks', { name: 'Desk', ip: '127.0.0.1', port: rx.address().port, ...(mp3 ? { mp3 } : {}) }],
    ['/sinks', { name: 'Upstairs', is_group: true, group_members: ['Desk'] }],
    ['/sources', { name: 'PC', ip: '127.0.0.1' }],
    ['/routes', { name: 'PC to Desk', source: 'PC', sink: 'Desk' }],
  ];
  for (const [url, payload] of calls) {
    const res = await app.inject({ method: 'POST', url, payload });
    assert.equal(res.statusCode, 201, res.body);
  }
  const address = await app.listen({ host: '127.0.0.1', port: 0 });
  const stats = async () => (await app.inject('/api/stats')).json() as Stats;
  const screamPort = (await stats()).engine.ports.scream[0]!;
  return { app, base: address, url: `${address}/stream/127.0.0.1/`, stats, screamPort };
}

function windows(x: Float32Array, f: (w: Float32Array) => number): number[] {
  const out: number[] = [];
  for (let i = 0; i + 4800 <= x.length; i += 4800) out.push(f(x.subarray(i, i + 4800)));
  return out;
}

function median(v: number[]): number {
  const s = [...v].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)] ?? Number.NaN;
}

async function until(what: string, check: () => Promise<boolean>, ms = 10_000) {
  const end = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > end) assert.fail(`timed out waiting for ${what}`);
    await sleep(50);
  }
}

/** A daemon with a tone sent to it (1 kHz left, 440 Hz right, -6 dBFS) until `stop` aborts. */
async function toneDaemon(t: TestContext) {
  const d = await daemon(t);
  const tx = await udp(t);
  const stop = new AbortController();
  t.after(() => stop.abort());
  const sending = sendTone(
    tx,
    d.screamPort,
    { hz: 1000, hzRight: 440, amplitude: 0.5 },
    stop.signal,
  );
  return { d, stop, sending };
}

describe('MP3 over HTTP', () => {
  test('ffprobe reads 320 kbit/s stereo MP3 at the sink rate; a routed tone decodes at its frequency and level, channels apart', async (t) => {
    const { d, stop, sending } = await toneDaemon(t);

    const probe = await ffprobe(d.url);
    assert.equal(probe.codec_name, 'mp3');
    assert.equal(probe.channels, 2);
    assert.equal(probe.sample_rate, '48000');
    assert.equal(probe.bit_rate, '320000');

    // Decoded after the first second (which may predate the tone reaching the sink).
    const pcm = await ffmpegDecode(d.url, 3);
    const skip = 48_000 * 2 * 1.2;
    const left = channel(pcm.subarray(skip), 0);
    const right = channel(pcm.subarray(skip), 1);
    assert.ok(left.length > 48_000, `${left.length} frames decoded`);
    // Per 100 ms window, the median: a late packet on this loaded machine (the tone is sent
    // from the test's own event loop) makes a short gap, which is the jitter buffer's business.
    const fl = median(windows(left, (w) => frequency(w, 48_000)));
    const fr = median(windows(right, (w) => frequency(w, 48_000)));
    const detail = () =>
      JSON.stringify(windows(left, (w) => Math.round(frequency(w, 48_000)))) +
      JSON.stringify(windows(left, (w) => Math.round(rmsDb(w) * 10) / 10));
    assert.ok(Math.abs(fl - 1000) < 10, `left ${fl} Hz: ${detail()}`);
    assert.ok(Math.abs(fr - 440) < 4.4, `right ${fr} Hz`);
    // A sine of amplitude 0.5 is -9.03 dBFS RMS; the chain is at unity gain.
    const level = median(windows(left, rmsDb));
    assert.ok(Math.abs(level - -9.03) < 0.5, `left level ${level.toFixed(2)} dBFS`);
    stop.abort();
    await sending;
  });

  test('ffplay plays the stream: mp3, 48 kHz stereo, 320 kb/s, its clock advancing', async (t) => {
    const d = await daemon(t);
    // 3 s of playing, from ffplay's first clock line: its clock must pass 1.5 s.
    const log = await ffplay(d.url, 3);
    assert.match(log, /Audio: mp3.*48000 Hz, stereo.*320 kb\/s/);
    const clocks = [...log.matchAll(/(\d+\.\d+) M-A/g)].map((m) => Number(m[1]));
    assert.ok(Math.max(...clocks) >= 1.5, `played to ${Math.max(...clocks)} s`);
  });

  test("a player's clock is steady from the first frame: packet times start at 0 and step one frame (24 ms), for the first listener and for one joining with the backlog", async (t) => {
    const { d, stop, sending } = await toneDaemon(t);
    const steady = (times: number[], who: string) => {
      assert.ok(times.length >= 100, `${who}: ${times.length} packets`);
      assert.equal(times[0], 0, `${who}: the first packet's time`);
      const steps = times.slice(1).map((v, i) => Math.round((v - times[i]!) * 1e6));
      const odd = steps.map((s, i) => [i + 1, s]).filter(([, s]) => s !== 24_000);
      assert.deepEqual(odd, [], `${who}: steps other than 24 ms (packet, µs)`);
    };
    steady(await packetTimes(d.url, 3), 'first listener');
    // A second listener while the first keeps the encoder running: the backlog, then live.
    const first = await listen(d.url);
    t.after(() => first.destroy());
    await readBytes(first, 80_000);
    steady(await packetTimes(d.url, 3), 'joining listener');
    stop.abort();
    await sending;
  });

  test('/stream/{ip} without the slash streams too; silence keeps coming while nothing plays', async (t) => {
    const d = await daemon(t);
    const res = await listen(`${d.base}/stream/127.0.0.1`);
    t.after(() => res.destroy());
    assert.equal(res.statusCode, 200);
    assert.equal(res.headers['content-type'], 'audio/mpeg');
    assert.match(String(res.headers['cache-control']), /no-cache/);
    assert.equal(res.headers['transfer-encoding'], 'chunked');
    // 2 s of 320 kbit/s frames (960 bytes each at 48 kHz), nothing playing.
    const bytes = await readBytes(res, 80_000);
    assert.equal(bytes[0], 0xff);
    assert.equal(bytes[1]! & 0xe0, 0xe0);
  });

  test('one encoder for many listeners; a new listener first gets the last second; the last to leave stops the encoder', async (t) => {
    const d = await daemon(t);
    const first = await listen(d.url);
    await readBytes(first, 60_000); // 1.5 s: the encoder has a second of backlog
    const many = await Promise.all(Array.from({ length: 30 }, () => listen(d.url)));
    const all = [first, ...many];
    t.after(() => {
      for (const r of all) r.destroy();
    });
    // The backlog (about 1 s, 40 kB) arrives at once, before real-time frames could.
    const start = performance.now();
    const burst = await readBytes(many[0]!, 36_000);
    assert.ok(burst.length >= 36_000);
    const burstMs = performance.now() - start;
    assert.ok(burstMs < 900, `a second of audio arrived in ${burstMs.toFixed(0)} ms`);
    await Promise.all(many.map((r) => readBytes(r, 40_000)));
    let s = (await d.stats()).streams;
    assert.equal(s.length, 1);
    assert.equal(s[0]!.listeners, 31);
    assert.equal(s[0]!.bitrate_kbps, 320);
    assert.ok(s[0]!.bytes_sent > 31 * 40_000);
    await until(
      'the CPU figure',
      async () => ((await d.stats()).streams[0]!.encoder_cpu_percent ?? -1) >= 0,
    );
    for (const r of all) r.destroy();
    await until('every listener gone', async () => (await d.stats()).streams[0]!.listeners === 0);
    s = (await d.stats()).streams;
    assert.equal(s[0]!.encoder_cpu_percent, null, 'the encoder stopped');
    assert.equal(s[0]!.dropped_listeners, 0);
  });

  test('a listener that stops reading is dropped 10 s behind; the others keep real time', async (t) => {
    const d = await daemon(t);
    // Python's socket with a tiny receive buffer, reading nothing after the request.
    const port = new URL(d.base).port;
    const stalled = spawn('python3', [
      '-c',
      'import socket,sys,time\n' +
        's=socket.socket()\n' +
        's.setsockopt(socket.SOL_SOCKET,socket.SO_RCVBUF,4096)\n' +
        `s.connect(("127.0.0.1",${port}))\n` +
        's.sendall(b"GET /stream/127.0.0.1/ HTTP/1.1\\r\\nHost: 127.0.0.1\\r\\n\\r\\n")\n' +
        'time.sleep(120)\n',
    ]);
    t.after(() => stalled.kill());
    await until('the stalled listener', async () => (await d.stats()).streams[0]?.listeners === 1);
    const healthy = await listen(d.url);
    t.after(() => healthy.destroy());
    let received = 0;
    healthy.on('data', (c: Buffer) => {
      received += c.length;
    });
    const start = performance.now();
    // Its rate is measured after the backlog (however long it was) has arrived.
    await sleep(1000);
    const mark = { at: performance.now(), received };
    await until(
      'the stalled listener dropped',
      async () => (await d.stats()).streams[0]!.dropped_listeners === 1,
      40_000,
    );
    const now = performance.now();
    const elapsed = (now - start) / 1000;
    assert.ok(elapsed >= 9, `dropped after ${elapsed.toFixed(1)} s, not before 10 s of lag`);
    // The healthy listener kept real time all along: 40 kB/s at 320 kbit/s.
    const rate = (received - mark.received) / ((now - mark.at) / 1000);
    assert.ok(rate > 36_000 && rate < 44_000, `healthy listener got ${rate.toFixed(0)} B/s`);
    assert.equal((await d.stats()).streams[0]!.listeners, 1);
  });

  test('unknown addresses and groups are 404 JSON; above mp3.max_listeners 503', async (t) => {
    const d = await daemon(t, { bitrate: 128, max_listeners: 2 });
    const unknown = await d.app.inject('/stream/10.9.9.9/');
    assert.equal(unknown.statusCode, 404);
    assert.match(unknown.json().message, /10\.9\.9\.9/);
    const group = await d.app.inject('/stream/Upstairs');
    assert.equal(group.statusCode, 404);
    assert.equal(group.json().code, 'TRIBUTARY_NOT_FOUND');
    const a = await listen(d.url);
    const b = await listen(d.url);
    t.after(() => {
      a.destroy();
      b.destroy();
    });
    const third = await fetch(d.url);
    assert.equal(third.status, 503);
    assert.match(((await third.json()) as { message: string }).message, /maximum of 2 listeners/);
    const probe = await ffprobe(d.url).catch((e: Error) => e);
    assert.ok(probe instanceof Error, 'ffprobe is refused too');
    a.destroy();
    await until('a slot free', async () => (await d.stats()).streams[0]!.listeners === 1);
    const again = await listen(d.url);
    t.after(() => again.destroy());
    assert.equal(again.statusCode, 200);
    const frames = await readBytes(again, 2000);
    // 128 kbit/s: bit rate index 9 in the first header.
    assert.equal(frames[2]! >> 4, 9);
  });

  test('of sinks sharing an ip the lowest port streams; changing its mp3 settings ends the stream and the next has them', async (t) => {
    const d = await daemon(t);
    const low = { name: 'Low', ip: '127.0.0.1', port: 9, mp3: { bitrate: 64 } };
    const made = await d.app.inject({ method: 'POST', url: '/sinks', payload: low });
    assert.equal(made.statusCode, 201, made.body);
    const res = await listen(d.url);
    t.after(() => res.destroy());
    const ended = new Promise((resolve) => res.once('close', resolve));
    // MPEG-1 Layer III bit rate index 5 is 64 kbit/s.
    assert.equal((await readBytes(res, 500))[2]! >> 4, 5);
    assert.equal((await d.stats()).streams[0]!.sink, 'Low');
    const changed = await d.app.inject({
      method: 'PUT',
      url: '/sinks/Low',
      payload: { mp3: { bitrate: 96 } },
    });
    assert.equal(changed.statusCode, 200, changed.body);
    await ended;
    const again = await listen(d.url);
    t.after(() => again.destroy());
    assert.equal((await readBytes(again, 500))[2]! >> 4, 7); // 96 kbit/s
  });

  test('mp3.bitrate takes only Layer III rates: 384 is a 400 naming the field', async (t) => {
    const app = await build(t);
    const res = await app.inject({
      method: 'POST',
      url: '/sinks',
      payload: { name: 'Hifi', ip: '10.0.0.5', mp3: { bitrate: 384 } },
    });
    assert.equal(res.statusCode, 400);
    const body = res.json();
    assert.ok(
      body.details.some((p: { path: string }) => p.path === 'mp3.bitrate'),
      JSON.stringify(body),
    );
    const ok = await app.inject({
      method: 'POST',
      url: '/sinks',
      payload: { name: 'Hifi', ip: '10.0.0.5', mp3: { bitrate: 192 } },
    });
    assert.equal(ok.statusCode, 201, ok.body);
    assert.deepEqual(ok.json().mp3, { bitrate: 192, max_listeners: 32 });
    const plain = await app.inject({ method: 'POST', url: '/sinks', payload: { name: 'Den' } });
    assert.deepEqual(plain.json().mp3, { bitrate: 320, max_listeners: 32 });
  });
});
