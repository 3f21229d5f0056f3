// The Engine binding: options and state conversion, stats, unknown senders, stop. The audio
// itself is tested in Rust (native/engine/tests); here a Scream packet goes through the
// binding's engine on loopback to show the wiring, using the solver's snake_case shape.
import assert from 'node:assert/strict';
import { createSocket } from 'node:dgram';
import { test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { native, sinkTo } from './helpers.mjs';

const { Engine } = native;
const local = { bind: '127.0.0.1', screamPorts: [0], tagged: false, rtpPorts: [] };
const flat = Array(18).fill(1);

async function udp() {
  const socket = createSocket('udp4');
  await new Promise((resolve) => socket.bind(0, '127.0.0.1', resolve));
  return socket;
}

/** A Scream packet: 48 kHz, 16-bit, stereo, 1152 bytes of a constant value. */
function screamPacket(value) {
  const packet = Buffer.alloc(5 + 1152);
  packet.set([0x01, 16, 2, 0x03, 0x00]);
  for (let i = 5; i < packet.length; i += 2) packet.writeInt16LE(value, i);
  return packet;
}

test('plays a Scream source to a Scream sink and reports it', async (t) => {
  const engine = new Engine(local);
  t.after(() => engine.stop());
  const rx = await udp();
  t.after(() => rx.close());
  const received = [];
  rx.on('message', (m) => received.push(m));
  const problems = engine.apply({
    sinks: [
      sinkTo(rx.address().port, [
        {
          source: 'PC',
          source_config_id: 'src-1',
          ip: '127.0.0.1',
          tag: null,
          rtp: null,
          volume: 1,
          eq: flat,
          delay_ms: 0,
          route: 'ignored by the engine',
          via: [],
        },
      ]),
    ],
  });
  assert.deepEqual(problems, []);
  const tx = await udp();
  t.after(() => tx.close());
  const port = engine.ports().scream[0];
  for (let i = 0; i < 100; i++) {
    tx.send(screamPacket(8000), port, '127.0.0.1');
    await sleep(6);
  }
  await sleep(200);
  assert.ok(received.length > 50, `${received.length} packets`);
  assert.deepEqual([...received[0].subarray(0, 5)], [0x01, 16, 2, 0x03, 0x00]);
  const loud = received.filter((m) => Math.abs(m.readInt16LE(5 + 600)) > 7000);
  assert.ok(loud.length > 20, 'the source plays on the sink');
  const stats = engine.stats();
  const source = stats.sources.find((s) => s.config_id === 'src-1');
  assert.ok(source.packets >= 90, JSON.stringify(source));
  assert.equal(source.format, 'scream s16le 48000 Hz 2 ch');
  assert.equal(stats.sinks[0].config_id, 'sink-1');
  assert.ok(stats.sinks[0].packets > 50);
  assert.ok(stats.cpu_s >= 0 && stats.uptime_s > 0);
});

test('lists unknown senders and leaves out sinks it cannot play', async (t) => {
  const engine = new Engine(local);
  t.after(() => engine.stop());
  const bad = { ...sinkTo(9, []), config_id: 'sink-2', channels: 2, channel_layout: '5.1' };
  const problems = engine.apply({ sinks: [sinkTo(9), bad] });
  assert.equal(problems.length, 1);
  assert.match(problems[0], /sinks\[1\]\.channels: 2 channels do not match channel_layout 5\.1/);
  const tx = await udp();
  t.after(() => tx.close());
  for (let i = 0; i < 5; i++) tx.send(screamPacket(1), engine.ports().scream[0], '127.0.0.1');
  await sleep(300);
  const unknown = engine.unknownSenders();
  assert.equal(unknown.length, 1);
  assert.equal(unknown[0].kind, 'scream');
  assert.equal(unknown[0].address, '127.0.0.1');
  assert.equal(unknown[0].packets, 5);
});

test('bad options and states throw, naming the field; stop frees the ports', async () => {
  assert.throws(() => new Engine({ ...local, jitterMinMs: 5 }), /jitterMinMs: 5 is outside 20-200/);
  assert.throws(() => new Engine({ ...local, bind: 'nowhere' }), /bind: 'nowhere' is not an IP/);
  const engine = new Engine(local);
  assert.throws(
    () => engine.apply({ sinks: [{ ...sinkTo(9), protocol: 'carrier-pigeon' }] }),
    /sinks\[0\]\.protocol: 'carrier-pigeon' is not scream, rtp or tcp/,
  );
  const port = engine.ports().scream[0];
  assert.equal(engine.running, true);
  engine.stop();
  engine.stop();
  assert.equal(engine.running, false);
  assert.throws(() => engine.stats(), /stopped/);
  const again = createSocket('udp4');
  await new Promise((resolve, reject) => {
    again.once('error', reject);
    again.bind(port, '127.0.0.1', resolve);
  });
  again.close();
});

test('health() reports the supervisor; check() says what the engine would refuse', (t) => {
  const engine = new Engine(local);
  t.after(() => engine.stop());
  assert.deepEqual(engine.health(), { state: 'running', faults: 0, restarts: 0, quarantined: [] });
  assert.equal(Engine.check({ sinks: [sinkTo(9)] }), null);
  const zoned = Engine.check({ sinks: [{ ...sinkTo(9), ip: 'fe80::1%eth0' }] });
  assert.match(zoned, /sinks\[0\]\.ip: 'fe80::1%eth0' is not an IP address/);
  const layout = Engine.check({ sinks: [{ ...sinkTo(9), channel_layout: '9.1' }] });
  assert.match(layout, /sinks\[0\]\.channel_layout/);
});

test('the published binding cannot make the engine fail on purpose', (t) => {
  // Fault injection exists only in builds with the cargo feature `fault-injection` (tests).
  const engine = new Engine(local);
  t.after(() => engine.stop());
  assert.equal(engine.injectFault, undefined);
  assert.equal(Engine.prototype.injectFault, undefined);
});
