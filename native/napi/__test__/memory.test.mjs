// In-process sources through the binding: JavaScript writes PCM into a memory source, a path
// naming it plays it on a Scream sink received on loopback, the stats list it with its kind,
// and removing it stops it. The audio itself is measured in Rust (engine/tests/memory_source.rs).
import assert from 'node:assert/strict';
import { createSocket } from 'node:dgram';
import { test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { memoryPath, native, sineS16, sinkTo } from './helpers.mjs';

const { Engine } = native;
const local = { bind: '127.0.0.1', screamPorts: [0], tagged: false, rtpPorts: [] };

test('a memory source is created, written, played, listed in the stats and removed', async (t) => {
  const engine = new Engine(local);
  t.after(() => engine.stop());
  const rx = createSocket('udp4');
  await new Promise((resolve) => rx.bind(0, '127.0.0.1', resolve));
  t.after(() => rx.close());
  const received = [];
  rx.on('message', (m) => received.push(m));

  const format = { sampleRate: 48000, channels: 2, sampleFormat: 's16le', ringMs: 100 };
  const source = engine.addMemorySource('mem', format);
  assert.equal(source.id, 'mem');
  assert.equal(source.freeFrames, 4800);
  assert.deepEqual(engine.apply({ sinks: [sinkTo(rx.address().port, [memoryPath('mem')])] }), []);

  // Half a second of a 1 kHz tone at -6 dBFS, written as a decoder would: what fits, then later.
  const tone = sineS16(1000, 48000, 0.5, 24000);
  const first = source.write(tone);
  assert.equal(first, 4800, 'a full ring takes what fits and says so');
  let written = first;
  while (written < 24000) {
    await sleep(10);
    written += source.write(tone.subarray(written * 4));
  }
  await sleep(300);
  assert.equal(source.queuedFrames, 0, 'the engine took every frame');

  const loud = received.filter((m) => Math.abs(m.readInt16LE(5 + 600)) > 1000);
  assert.ok(loud.length > 50, `${loud.length} packets carried the tone`);
  const stats = engine.stats().sources.find((s) => s.config_id === 'mem');
  assert.ok(stats, 'the memory source is in the stats');
  assert.equal(stats.format, 'memory s16le 48000 Hz 2 ch');
  assert.equal(stats.bytes, 24000 * 4);
  assert.ok(stats.packets > 50, JSON.stringify(stats));
  assert.equal(stats.lost, 0);

  assert.equal(engine.removeMemorySource('mem'), true);
  assert.equal(engine.removeMemorySource('mem'), false);
  // Gone from the graph: what is written now goes nowhere and stays in the ring.
  source.write(sineS16(1000, 48000, 0.5, 480));
  await sleep(100);
  assert.equal(source.queuedFrames, 480);
  // And the id is free again.
  engine.addMemorySource('mem', format);
});

test('bad memory formats and taken ids throw, naming the field', (t) => {
  const engine = new Engine(local);
  t.after(() => engine.stop());
  const ok = { sampleRate: 44100, channels: 2, sampleFormat: 's24le' };
  assert.throws(
    () => engine.addMemorySource('a', { ...ok, sampleRate: 1000 }),
    /sample_rate: 1000 Hz is outside 8000-384000/,
  );
  assert.throws(
    () => engine.addMemorySource('a', { ...ok, channels: 9 }),
    /channels: 9 is outside 1-8/,
  );
  assert.throws(() => engine.addMemorySource('a', { ...ok, sampleFormat: 'f64' }), /sample_format/);
  assert.throws(
    () => engine.addMemorySource('a', { ...ok, ringMs: 5 }),
    /ring_ms: 5 is outside 10-10000/,
  );
  const a = engine.addMemorySource('a', ok);
  assert.equal(a.writeSamples(new Float32Array([0.5, -0.5, 0.25])), 1, 'whole frames only');
  assert.throws(() => engine.addMemorySource('a', ok), /memory source 'a' exists already/);
});
