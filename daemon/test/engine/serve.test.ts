// `tributary serve` as a real process with the audio engine on (ephemeral ports, 127.0.0.1):
// it plays what the API configures and SIGTERM stops it cleanly, freeing the engine's ports.
import assert from 'node:assert/strict';
import { createSocket } from 'node:dgram';
import { test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { simdDispatch } from '@tributary/native';
import { engineOnLoopback, startDaemon } from '../daemon-process.js';
import { tempDir } from '../helpers.js';

test('serve plays a configured route and SIGTERM stops the engine cleanly', async (t) => {
  const daemon = await startDaemon(tempDir(t), engineOnLoopback);
  t.after(() => daemon.stop('SIGKILL'));
  const rx = createSocket('udp4');
  await new Promise<void>((resolve) => rx.bind(0, '127.0.0.1', () => resolve()));
  t.after(() => rx.close());
  let loud = 0;
  rx.on('message', (m: Buffer) => {
    if (m.length === 1157 && Math.abs(m.readInt16LE(600)) > 5000) loud++;
  });
  for (const [path, body] of [
    ['/sinks', { name: 'Desk', ip: '127.0.0.1', port: rx.address().port }],
    ['/sources', { name: 'PC', ip: '127.0.0.1' }],
    ['/routes', { name: 'PC to Desk', source: 'PC', sink: 'Desk' }],
  ] as const) {
    const res = await daemon.call('POST', path, body);
    assert.equal(res.status, 201, JSON.stringify(res.body));
  }
  const stats = (await daemon.call('GET', '/api/stats')).body as {
    engine: { state: string; ports: { scream: number[] } };
  };
  assert.equal(stats.engine.state, 'running', daemon.output());
  const port = stats.engine.ports.scream[0]!;

  const tx = createSocket('udp4');
  t.after(() => tx.close());
  const packet = Buffer.alloc(1157);
  packet.set([0x01, 16, 2, 0x03, 0x00]);
  for (let i = 5; i < packet.length; i += 2) packet.writeInt16LE(9000, i);
  // Paced at the real rate (6 ms per packet) until 20 loud packets came out, or 10 s: the
  // first packets may reach the engine before the route is applied, and a loaded machine is slow.
  const start = performance.now();
  for (let k = 0; loud < 20 && performance.now() - start < 10_000; k++) {
    tx.send(packet, port, '127.0.0.1');
    await sleep(Math.max(0, start + (k + 1) * 6 - performance.now()));
  }
  assert.ok(loud >= 20, `the route plays (${loud} loud packets)`);

  assert.equal(await daemon.stop('SIGTERM'), 0, daemon.output());
  const again = createSocket('udp4');
  await new Promise<void>((resolve, reject) => {
    again.once('error', reject);
    again.bind(port, '127.0.0.1', () => resolve());
  });
  again.close();
});

test('TRIBUTARY_SIMD lowers the DSP kernels; /api/stats and the log say so, and what it cannot follow', async (t) => {
  const { best } = simdDispatch();
  type Simd = { best: string; used: string; problem: string | null };
  const simdOf = async (daemon: Awaited<ReturnType<typeof startDaemon>>) =>
    ((await daemon.call('GET', '/api/stats')).body as { engine: { simd: Simd } }).engine.simd;

  const lowered = await startDaemon(tempDir(t), { ...engineOnLoopback, TRIBUTARY_SIMD: 'sse2' });
  t.after(() => lowered.stop('SIGKILL'));
  assert.deepEqual(await simdOf(lowered), { best, used: 'sse2', problem: null });
  const because = best === 'sse2' ? '' : ` (TRIBUTARY_SIMD; this CPU has ${best})`;
  assert.ok(lowered.output().includes(`DSP kernels sse2${because}`), lowered.output());

  const unknown = await startDaemon(tempDir(t), { ...engineOnLoopback, TRIBUTARY_SIMD: 'scalar' });
  t.after(() => unknown.stop('SIGKILL'));
  const simd = await simdOf(unknown);
  assert.equal(simd.used, best);
  assert.match(simd.problem ?? '', /^TRIBUTARY_SIMD=scalar is not one of sse2, avx2, avx512/);
  assert.ok(unknown.output().includes(`audio engine: ${simd.problem}`), unknown.output());
});
