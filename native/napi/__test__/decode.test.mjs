// Decoded sources through the binding: MP3 bytes pushed from JavaScript are decoded on the
// source's own thread into an engine memory source, played by a path to a Scream sink received
// on 127.0.0.1, and measured there: a 1 kHz tone at its level. The status goes probing ->
// playing -> drained; a stream that never ends plays until removeMemorySource; HTML fails with
// its reason. The decoder itself is tested in Rust (native/decode/tests).
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { createSocket } from 'node:dgram';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { channelS16, frequency, memoryPath, native, rmsDb, sinkTo } from './helpers.mjs';

const { Engine } = native;
const local = { bind: '127.0.0.1', screamPorts: [0], tagged: false, rtpPorts: [] };
const dir = mkdtempSync(join(tmpdir(), 'tributary-decode-'));
after(() => rmSync(dir, { recursive: true, force: true }));

/** MP3 bytes ffmpeg makes of a 1 kHz tone, 44.1 kHz stereo at `amp`. */
function mp3(name, seconds, amp, extra = []) {
  const file = join(dir, name);
  const tone = `${amp}*sin(2*PI*1000*t)`;
  const res = spawnSync('ffmpeg', [
    ...['-hide_banner', '-loglevel', 'error', '-y', '-f', 'lavfi'],
    ...['-i', `aevalsrc=${tone}|${tone}:s=44100:d=${seconds}`],
    ...['-c:a', 'libmp3lame', '-b:a', '192k', ...extra, file],
  ]);
  assert.equal(res.status, 0, String(res.stderr));
  return readFileSync(file);
}

/** A Scream receiver on 127.0.0.1; `pcm()` is what arrived (s16le stereo, 48 kHz). */
async function receiver(t) {
  const rx = createSocket('udp4');
  await new Promise((resolve) => rx.bind(0, '127.0.0.1', resolve));
  t.after(() => rx.close());
  const packets = [];
  rx.on('message', (m) => packets.push({ at: performance.now(), pcm: m.subarray(5) }));
  return {
    port: rx.address().port,
    packets,
    pcm: () => Buffer.concat(packets.map((p) => p.pcm)),
  };
}

/** Pushes `bytes` in `size`-byte chunks, waiting while the input queue refuses them. */
async function pushAll(source, bytes, size) {
  let refused = 0;
  for (let at = 0; at < bytes.length; at += size) {
    while (!source.push(bytes.subarray(at, at + size))) {
      refused++;
      await sleep(2);
    }
  }
  return refused;
}

const loud = (p) => Math.abs(p.pcm.readInt16LE(600)) > 1000;

test('a decoded MP3 plays through the engine as a 1 kHz tone: probing, playing, drained', async (t) => {
  const engine = new Engine(local);
  t.after(() => engine.stop());
  const rx = await receiver(t);
  const bytes = mp3('tone.mp3', 2, 0.5);

  const source = engine.addDecodedSource('url-1', { hint: 'audio/mpeg', inputBytes: 16384 });
  assert.equal(source.id, 'url-1');
  assert.deepEqual(engine.apply({ sinks: [sinkTo(rx.port, [memoryPath('url-1')])] }), []);
  const states = [source.status.state];
  const first = source.status;
  assert.equal(first.state, 'probing');
  assert.equal(first.codec, null);
  assert.equal(first.sample_rate, null);
  assert.equal(first.error, null);

  const refused = await pushAll(source, bytes, 4096);
  assert.ok(refused > 0, 'a 16 KiB input queue pushed back');
  source.finish();
  for (let i = 0; i < 400 && source.status.state !== 'drained'; i++) {
    const s = source.status.state;
    if (s !== states.at(-1)) states.push(s);
    assert.notEqual(s, 'failed', source.status.error);
    await sleep(10);
  }
  states.push(source.status.state);
  assert.deepEqual([...new Set(states)], ['probing', 'playing', 'drained']);

  const status = source.status;
  assert.equal(status.codec, 'mp3');
  assert.equal(status.sample_rate, 44100);
  assert.equal(status.channels, 2);
  assert.equal(status.bit_depth, null);
  assert.equal(status.skipped_packets, 0);
  assert.equal(status.queued_frames, 0);
  assert.equal(status.input_queued_bytes, 0);
  assert.ok(Math.abs(status.decoded_frames / 44100 - 2) < 0.06, `${status.decoded_frames} frames`);
  const stats = engine.stats().sources.find((s) => s.config_id === 'url-1');
  assert.equal(stats.format, 'memory f32 44100 Hz 2 ch');

  // What the sink sent: the tone, resampled to 48 kHz by the engine.
  await sleep(100);
  const left = channelS16(rx.pcm(), 2, 0);
  const start = left.findIndex((v) => Math.abs(v) > 0.1);
  assert.ok(start >= 0, 'the tone arrived');
  const middle = left.subarray(start + 24000, start + 72000);
  const hz = frequency(middle, 48000);
  const db = rmsDb(middle);
  t.diagnostic(`received ${hz.toFixed(3)} Hz at ${db.toFixed(2)} dBFS RMS (sent -9.03)`);
  assert.ok(Math.abs(hz - 1000) < 1, `${hz} Hz`);
  assert.ok(Math.abs(db - 20 * Math.log10(0.5 / Math.SQRT2)) < 0.5, `${db} dBFS`);

  assert.equal(engine.removeMemorySource('url-1'), true);
  assert.equal(engine.removeMemorySource('url-1'), false);
});

test('a stream that never ends keeps playing until removeMemorySource', async (t) => {
  const engine = new Engine(local);
  t.after(() => engine.stop());
  const rx = await receiver(t);
  // Like a radio stream: no LAME header with a length, no ID3 tag; sent again and again.
  const bytes = mp3('radio.mp3', 1, 0.5, ['-write_xing', '0', '-id3v2_version', '0']);
  const source = engine.addDecodedSource('radio', { ringMs: 200 });
  engine.apply({ sinks: [sinkTo(rx.port, [memoryPath('radio')])] });

  const started = performance.now();
  while (performance.now() - started < 3500) await pushAll(source, bytes, 8192);
  const status = source.status;
  assert.equal(status.state, 'playing');
  assert.ok(status.decoded_frames / 44100 > 3, `${status.decoded_frames} frames decoded`);
  const now = performance.now();
  const lately = rx.packets.filter((p) => p.at > now - 500 && loud(p));
  assert.ok(lately.length > 50, `${lately.length} loud packets in the last 0.5 s`);

  assert.equal(engine.removeMemorySource('radio'), true);
  const removed = performance.now();
  const decoded = source.status.decoded_frames;
  // The thread stopped and dropped its input: a chunk larger than the whole queue is taken and
  // dropped, where a live queue this full would refuse it.
  assert.equal(source.status.input_queued_bytes, 0, 'the input was dropped');
  assert.equal(source.push(Buffer.alloc(2 << 20)), true, 'input after removal is dropped');
  await sleep(400);
  assert.equal(source.status.decoded_frames, decoded, 'nothing was decoded after removal');
  const afterwards = rx.packets.filter((p) => p.at > removed + 100 && loud(p));
  assert.equal(afterwards.length, 0, 'nothing plays after removal');
});

test('HTML fails with its reason; bad options and taken ids throw', async (t) => {
  const engine = new Engine(local);
  t.after(() => engine.stop());
  const page = Buffer.from(
    '<!doctype html><title>Not Found</title><h1>Not Found</h1>\n'.repeat(50),
  );
  const source = engine.addDecodedSource('bad', { hint: 'mp3' });
  assert.equal(source.push(page), true);
  source.finish();
  for (let i = 0; i < 200 && source.status.state === 'probing'; i++) await sleep(10);
  assert.equal(source.status.state, 'failed');
  assert.equal(
    source.status.error,
    `not audio: no known format found in the first ${page.length} bytes (expected mp3)`,
  );
  assert.equal(source.status.codec, null);

  assert.throws(() => engine.addDecodedSource('x', { ringMs: 5 }), /ringMs: 5 is outside 10-10000/);
  assert.throws(() => engine.addDecodedSource('x', { maxSeconds: 0 }), /maxSeconds/);
  assert.throws(() => engine.addDecodedSource('bad'), /memory source 'bad' exists already/);
  assert.throws(
    () => engine.addMemorySource('bad', { sampleRate: 48000, channels: 2, sampleFormat: 's16le' }),
    /memory source 'bad' exists already/,
  );
  assert.equal(engine.removeMemorySource('bad'), true, 'a failed decoder is removed too');
  engine.addDecodedSource('bad');
});
