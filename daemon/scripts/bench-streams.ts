// The MP3 streams' daemon-side benchmark (issue 14), run by scripts/bench/bench-streams.mjs: the
// app with its engine on 127.0.0.1, one sink, and 1 then 50 HTTP listeners reading its stream for
// BENCH_STREAMS_LISTEN_S seconds (default 10). Prints the daemon process's CPU and the encoder
// thread's, and the time to first byte of the first listener (starts the encoder) and of a
// listener joining a running stream (gets the last second at once). The sink plays silence and
// the HTTP clients run in this process too (their reads count in its CPU). One JSON line last.
import { createSocket } from 'node:dgram';
import { mkdtempSync, rmSync } from 'node:fs';
import { get, type IncomingMessage } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import Fastify from 'fastify';
import { app, fastifyOptions } from '../src/app.js';

const seconds = Number(process.env.BENCH_STREAMS_LISTEN_S ?? 10);
const dir = mkdtempSync(join(tmpdir(), 'tributary-bench-streams-'));
const rx = createSocket('udp4');
await new Promise<void>((resolve) => rx.bind(0, '127.0.0.1', () => resolve()));
const fastify = Fastify({ ...fastifyOptions, logger: false });
await fastify.register(app, {
  configPath: join(dir, 'config.yaml'),
  equalizerPath: join(dir, 'equalizers.yaml'),
  engine: {
    bind: '127.0.0.1',
    screamPorts: [0],
    taggedPort: null,
    rtpPorts: [],
    multicastGroups: [],
    jitterAdaptive: true,
    webrtcAddresses: ['127.0.0.1'],
    webrtcPort: 0,
    jitterMinMs: 20,
    jitterMaxMs: 200,
  },
});
const payload = {
  name: 'Desk',
  ip: '127.0.0.1',
  port: rx.address().port,
  mp3: { max_listeners: 64 },
};
const made = await fastify.inject({ method: 'POST', url: '/sinks', payload });
if (made.statusCode !== 201) throw new Error(made.body);
const base = await fastify.listen({ host: '127.0.0.1', port: 0 });
const url = `${base}/stream/127.0.0.1/`;

/** Opens a listener; resolves with the ms to its first body byte. */
function listener(sink: IncomingMessage[]): Promise<number> {
  const start = performance.now();
  return new Promise((resolve, reject) => {
    get(url, (res) => {
      sink.push(res);
      res.once('data', () => resolve(performance.now() - start));
      res.resume();
    }).once('error', reject);
  });
}

interface Stream {
  encoder_cpu_percent: number | null;
}
const stream = async () => ((await fastify.inject('/api/stats')).json().streams as Stream[])[0];

async function measure(count: number) {
  const open: IncomingMessage[] = [];
  const ttfb = [await listener(open)];
  await sleep(1500);
  for (let i = 1; i < count; i++) ttfb.push(await listener(open));
  await sleep(500);
  await stream(); // starts the encoder CPU window
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  await sleep(seconds * 1000);
  const used = process.cpuUsage(cpu0);
  const elapsed = (performance.now() - t0) / 1000;
  const encoder = (await stream())?.encoder_cpu_percent ?? null;
  for (const r of open) r.destroy();
  await sleep(300);
  return {
    listeners: count,
    daemon_cpu_percent: ((used.user + used.system) / 1e6 / elapsed) * 100,
    encoder_cpu_percent: encoder,
    ttfb_first_ms: ttfb[0]!,
    ttfb_join_ms:
      count > 1 ? ttfb.slice(1).sort((a, b) => a - b)[Math.floor((count - 1) / 2)]! : null,
  };
}

const one = await measure(1);
const fifty = await measure(50);
await fastify.close();
rx.close();
rmSync(dir, { recursive: true, force: true });
const f = (v: number | null) => (v === null ? '-' : v.toFixed(1));
for (const r of [one, fifty]) {
  console.log(
    `${String(r.listeners).padStart(3)} listener(s): daemon process ${f(r.daemon_cpu_percent)} % of a core ` +
      `(engine, encoder, HTTP), encoder thread ${f(r.encoder_cpu_percent)} %; time to first byte: ` +
      `first listener ${f(r.ttfb_first_ms)} ms, joining listeners (median) ${f(r.ttfb_join_ms)} ms`,
  );
}
console.log(
  `50 vs 1 listener: daemon CPU x${(fifty.daemon_cpu_percent / one.daemon_cpu_percent).toFixed(2)}, ` +
    `encoder CPU x${((fifty.encoder_cpu_percent ?? 0) / (one.encoder_cpu_percent || 1)).toFixed(2)}`,
);
console.log(JSON.stringify({ one, fifty }));
