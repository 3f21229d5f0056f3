// The supervised engine inside the daemon (issue 10): an injected panic on the engine thread
// shows in /api/stats (failed, with the reason) and in the log at error level, and the engine
// plays the current configuration again within a second; a source that keeps failing is
// quarantined with a problem. The engine is the binding built with fault injection (test
// builds only). And a change the engine would refuse is refused before it is saved.
import assert from 'node:assert/strict';
import { createSocket, type Socket } from 'node:dgram';
import { Writable } from 'node:stream';
import { describe, type TestContext, test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import Fastify from 'fastify';
import { app, fastifyOptions } from '../../src/app.js';
import type { EngineClass } from '../../src/services/engine/index.js';
import { localEngine as local, tempDir } from '../helpers.js';
import { faultInjectingEngine } from './fault-binding.js';

interface Line {
  level: number;
  msg: string;
  component?: string;
}

async function daemon(t: TestContext, binding: EngineClass, engine: typeof local | null = local) {
  const lines: Line[] = [];
  const stream = new Writable({
    write(chunk, _enc, done) {
      for (const l of String(chunk).split('\n').filter(Boolean)) lines.push(JSON.parse(l));
      done();
    },
  });
  const dir = tempDir(t);
  const fastify = Fastify({ ...fastifyOptions, logger: { level: 'info', stream } });
  await fastify.register(app, {
    configPath: `${dir}/config.yaml`,
    equalizerPath: `${dir}/equalizers.yaml`,
    engine,
    engineBinding: binding,
  });
  await fastify.ready();
  t.after(() => fastify.close());
  const json = async (method: string, url: string, payload?: object) => {
    const res = await fastify.inject({
      method: method as 'GET',
      url,
      ...(payload ? { payload } : {}),
    });
    return { status: res.statusCode, body: res.json() };
  };
  return { fastify, lines, json };
}

async function udp(t: TestContext): Promise<Socket> {
  const socket = createSocket('udp4');
  await new Promise<void>((resolve) => socket.bind(0, '127.0.0.1', () => resolve()));
  t.after(() => socket.close());
  return socket;
}

/** Scream at the real rate (a packet every 6 ms) until `stop()`; samples all `value`. */
function stream(tx: Socket, port: number, value: number) {
  const packet = Buffer.alloc(5 + 1152);
  packet.set([0x01, 16, 2, 0x03, 0x00]);
  for (let i = 5; i < packet.length; i += 2) packet.writeInt16LE(value, i);
  const timer = setInterval(() => tx.send(packet, port, '127.0.0.1'), 6);
  return () => clearInterval(timer);
}

/** Times (performance.now) of the packets a sink sent that were not silent. */
function audible(rx: Socket): number[] {
  const times: number[] = [];
  rx.on('message', (m) => {
    if (m.length > 9 && m.readInt16LE(5) !== 0) times.push(performance.now());
  });
  return times;
}

describe('the supervised engine in the daemon', () => {
  test('an engine thread panic: failed with the reason, an error line, playing again within 1 s', async (t) => {
    const Engine = faultInjectingEngine();
    const { fastify, lines, json } = await daemon(t, Engine);
    const rx = await udp(t);
    const tx = await udp(t);
    const heard = audible(rx);
    const port = rx.address().port;
    await json('POST', '/sinks', { name: 'Out', ip: '127.0.0.1', port });
    await json('POST', '/sources', { name: 'PC', ip: '127.0.0.1' });
    await json('POST', '/routes', { name: 'PC to Out', source: 'PC', sink: 'Out' });
    const revision = (await json('GET', '/api/config')).body.revision;
    const stats = async () => (await json('GET', '/api/stats')).body.engine;
    assert.equal((await stats()).revision, revision, 'the engine plays the current revision');
    const enginePort = (await stats()).ports.scream[0];
    const stop = stream(tx, enginePort, 8000);
    t.after(stop);
    while (heard.length < 20) await sleep(10);

    const injected = performance.now();
    assert.ok(fastify.engine.injectFault('engine-panic'));
    let failed: { state: string; error: string } | null = null;
    let running = 0;
    while (performance.now() - injected < 3000) {
      const s = await stats();
      if (s.state === 'failed') failed ??= s;
      if (failed && s.state === 'running' && s.restarts === 1) {
        running = performance.now() - injected;
        assert.equal(s.error, null);
        assert.equal(s.revision, revision);
        assert.equal(s.last_fault.thread, 'trib-engine');
        assert.match(s.last_fault.reason, /injected fault/);
        assert.ok(s.last_fault.restart_ms > 0 && s.last_fault.restart_ms < 1000);
        break;
      }
      await sleep(10);
    }
    assert.ok(failed, 'stats said failed');
    assert.match(failed!.error, /thread trib-engine failed: injected fault/);
    assert.ok(running > 0 && running < 1000, `running again after ${running} ms`);
    // The first sound after the fault (the graph is gone until the rebuild, 200 ms later).
    while (!heard.some((at) => at > injected + 150) && performance.now() - injected < 3000) {
      await sleep(10);
    }
    const back = heard.find((at) => at > injected + 150);
    assert.ok(back, 'audio again');
    const audio = back - injected;
    assert.ok(audio < 1000, `audio back after ${audio} ms`);
    await sleep(300); // the health watch logs within HEALTH_POLL_MS
    const errors = lines.filter((l) => l.level >= 50).map((l) => l.msg);
    // Said once: by the engine (its log is the daemon's), not again by the daemon.
    const said = lines.filter((l) => /thread trib-engine failed: injected fault/.test(l.msg));
    assert.equal(said.length, 1, errors.join('\n'));
    assert.equal(said[0]!.level, 50);
    assert.equal(said[0]!.component, 'engine');
    assert.match(said[0]!.msg, /; restarting it$/);
    assert.ok(lines.some((l) => /audio engine restarted \d+ ms after the fault/.test(l.msg)));
    t.diagnostic(
      `stats running again after ${Math.round(running)} ms; audio back after ${Math.round(audio)} ms`,
    );
  });

  test('a source that keeps failing is quarantined, with a problem and an error line', async (t) => {
    const Engine = faultInjectingEngine();
    const { fastify, lines, json } = await daemon(t, Engine);
    const rx = await udp(t);
    const tx = await udp(t);
    await json('POST', '/sinks', { name: 'Out', ip: '127.0.0.1', port: rx.address().port });
    const pc = (await json('POST', '/sources', { name: 'PC', ip: '127.0.0.1' })).body;
    await json('POST', '/routes', { name: 'PC to Out', source: 'PC', sink: 'Out' });
    const enginePort = (await json('GET', '/api/stats')).body.engine.ports.scream[0];
    assert.ok(fastify.engine.injectFault('source-panic', pc.config_id, 1000));
    const stop = stream(tx, enginePort, 8000);
    t.after(stop);
    let s: { state: string; quarantined: { name: string; message: string }[]; problems: string[] };
    const start = Date.now();
    do {
      await sleep(50);
      s = (await json('GET', '/api/stats')).body.engine;
    } while ((s.quarantined.length === 0 || s.state !== 'running') && Date.now() - start < 5000);
    assert.deepEqual(
      s.quarantined.map((q) => q.name),
      ['PC'],
    );
    assert.match(
      s.quarantined[0]!.message,
      /source 'PC' is quarantined: it made the engine fail 3 times/,
    );
    await sleep(300);
    const errors = lines.filter((l) => l.level >= 50).map((l) => l.msg);
    assert.equal(
      errors.filter((m) => /source 'PC' is quarantined/.test(m)).length,
      1,
      errors.join('\n'),
    );
    // A change of its settings gives it another chance.
    await json('PUT', '/sources/PC', { ip: '127.0.0.9' });
    const after = (await json('GET', '/api/stats')).body.engine;
    assert.deepEqual(after.quarantined, []);
  });

  test('a change the engine would refuse is refused before it is saved, saying why', async (t) => {
    const refusing = {
      check: () => 'sinks[0].ip: it does not like this one',
    } as unknown as EngineClass;
    const { json } = await daemon(t, refusing, null);
    const res = await json('POST', '/sinks', { name: 'Out', ip: '127.0.0.1' });
    assert.equal(res.status, 400);
    assert.equal(res.body.code, 'TRIBUTARY_INVALID_CONFIG');
    assert.match(
      res.body.message,
      /would be refused by the audio engine: sinks\[0\]\.ip: it does not like this one/,
    );
    assert.deepEqual((await json('GET', '/sinks')).body, []);
  });
});

describe('the solver', () => {
  test('runs once per change: the state checked before saving is the one applied', async (t) => {
    const { Engine } = await import('@tributary/native');
    type State = Parameters<typeof Engine.check>[0];
    const checked: State[] = [];
    const applied: State[] = [];
    class Recording extends Engine {
      static override check(state: State) {
        checked.push(state);
        return Engine.check(state);
      }
      override apply(state: State) {
        applied.push(state);
        return super.apply(state);
      }
    }
    const { json } = await daemon(t, Recording);
    assert.equal(applied.length, 1, 'the configuration at start');
    await json('POST', '/sinks', { name: 'Out', ip: '127.0.0.1', port: 4099 });
    await json('POST', '/sources', { name: 'PC', ip: '127.0.0.1' });
    await json('POST', '/routes', { name: 'PC to Out', source: 'PC', sink: 'Out' });
    assert.equal(checked.length, 3);
    assert.equal(applied.length, 4);
    for (const [i, state] of checked.entries()) {
      assert.equal(applied[i + 1], state, `change ${i + 1}: solved again to apply it`);
    }
    assert.equal(applied[3]!.sinks[0]!.paths.length, 1, 'the route plays');
  });
});

describe("the engine's log", () => {
  test("an engine warning is one of the daemon's JSON lines, with the same fields", async (t) => {
    const { Engine } = await import('@tributary/native');
    // The port after the RTP port (its RTCP port) is taken: the engine says so, and plays on.
    const taken = await udp(t);
    const rtcp = taken.address().port;
    const { fastify, lines } = await daemon(t, Engine, { ...local, rtpPorts: [rtcp - 1] });
    fastify.log.child({ component: 'engine' }).info('a line of the daemon');
    await sleep(500); // the engine's lines are taken every HEALTH_POLL_MS
    const said = lines.filter((l) => l.msg.startsWith(`no RTCP for RTP port ${rtcp - 1}:`));
    assert.equal(said.length, 1, JSON.stringify(lines));
    assert.equal(said[0]!.level, 40, 'a warning');
    const own = lines.find((l) => l.msg === 'a line of the daemon')!;
    assert.deepEqual(Object.keys(said[0]!).sort(), Object.keys(own).sort());
    assert.equal(said[0]!.component, 'engine');
  });
});

describe('two daemons', () => {
  test('the second on the same UDP port reports failed, naming the port; the first runs', async (t) => {
    const { Engine } = await import('@tributary/native');
    const first = await daemon(t, Engine);
    const port = (await first.json('GET', '/api/stats')).body.engine.ports.scream[0];
    const second = await daemon(t, Engine, { ...local, screamPorts: [port] });
    const stats = (await second.json('GET', '/api/stats')).body.engine;
    assert.equal(stats.state, 'failed');
    assert.match(stats.error, new RegExp(`cannot listen on UDP port ${port} .*another Tributary`));
    assert.equal((await first.json('GET', '/api/stats')).body.engine.state, 'running');
    const errors = second.lines.filter((l) => l.level >= 50).map((l) => l.msg);
    assert.ok(
      errors.some((m) => m.startsWith('audio engine not started')),
      errors.join('\n'),
    );
  });
});
