// A flood of well-formed SAP announcements, each with an origin of its own (distinct o=), sent
// by unicast at a steady rate from several addresses of the namespace, as any host on the LAN
// could: what the daemon keeps, how big and slow /api/stats gets, its memory, and (with
// auto_add_sources) how many sources it writes into config.yaml. The figures are returned; the
// test asserts the caps. SAP_FLOOD_COUNT, SAP_FLOOD_RATE and SAP_FLOOD_SENDERS change the
// flood (50,000 at 2,000/s from 1 address is the measurement in the docs); SAP_FLOOD_AUTO_ADD=0
// leaves auto_add_sources off.
import { execFileSync } from 'node:child_process';
import { createSocket, type Socket } from 'node:dgram';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { encodeSap } from '../../../src/services/discovery/sap-packet.js';
import type { Daemon } from '../../daemon-process.js';
import { waitFor, withLab } from './lab.js';

const env = (name: string, fallback: number) => Number(process.env[name] ?? fallback);
const COUNT = env('SAP_FLOOD_COUNT', 8000);
const RATE = env('SAP_FLOOD_RATE', 2000);
const SENDERS = env('SAP_FLOOD_SENDERS', 8);
/** How long after the flood the figures are still watched (auto-add, expiry). */
const SETTLE_MS = env('SAP_FLOOD_SETTLE_MS', 8000);
const AUTO_ADD = env('SAP_FLOOD_AUTO_ADD', 1) === 1;
const config = `
sap:
  listener:
    auto_add_sources: ${AUTO_ADD}
  announcer:
    enabled: false
mdns:
  enabled: false
`;

const sdp = (i: number, sender: string) =>
  `v=0\r\no=- ${100_000 + i} 1 IN IP4 ${sender}\r\ns=Flood ${i}\r\n` +
  `c=IN IP4 239.255.${(i >> 8) & 255}.${i & 255}/32\r\nt=0 0\r\n` +
  'm=audio 5004 RTP/AVP 96\r\na=rtpmap:96 L16/48000/2\r\n';

const rssMb = (pid: number) => {
  const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return m ? Math.round(Number(m[1]) / 1024) : 0;
};

const autoAddedInFile = (dir: string) =>
  (readFileSync(join(dir, 'config.yaml'), 'utf8').match(/via: sap/g) ?? []).length;

interface Probe {
  bytes: number;
  ms: number;
}

/** GET `path`, its size in bytes of JSON and its time. */
async function probe(daemon: Daemon, path: string): Promise<Probe & { body: unknown }> {
  const t = performance.now();
  const res = await daemon.call('GET', path);
  const ms = performance.now() - t;
  if (res.status !== 200) throw new Error(`GET ${path}: ${res.status}`);
  return { bytes: Buffer.byteLength(JSON.stringify(res.body)), ms: Math.round(ms), body: res.body };
}

async function bound(address: string): Promise<Socket> {
  const socket = createSocket({ type: 'udp4' });
  await new Promise<void>((resolve) => socket.bind(0, address, () => resolve()));
  return socket;
}

export default () =>
  withLab(async (lab) => {
    const senders = Array.from({ length: SENDERS }, (_, k) => `10.77.1.${k + 1}`);
    for (const a of senders) execFileSync('ip', ['addr', 'add', `${a}/32`, 'dev', 'lo']);
    const sockets = await Promise.all(senders.map(bound));
    lab.atEnd(() => {
      for (const s of sockets) s.close();
    });
    const daemon = await lab.daemon(config, { ENGINE: 'off' });
    const pid = daemon.child.pid!;
    await waitFor(
      'the SAP listener',
      () => /SAP: listening on UDP 9875/.test(daemon.output()) || undefined,
      10_000,
    );
    const idle = { rss_mb: rssMb(pid), stats: await probe(daemon, '/api/stats') };

    // Watchers: RSS, /api/stats and config.yaml while the flood runs and after it.
    let watching = true;
    let peakRss = idle.rss_mb;
    let maxAutoAdded = 0;
    const statsDuring: Probe[] = [];
    const watch = (async () => {
      while (watching) {
        peakRss = Math.max(peakRss, rssMb(pid));
        maxAutoAdded = Math.max(maxAutoAdded, autoAddedInFile(daemon.dir));
        const p = await probe(daemon, '/api/stats');
        statsDuring.push({ bytes: p.bytes, ms: p.ms });
        await sleep(250);
      }
    })();

    // The flood: packet i from sender i % SENDERS, paced to RATE packets per second.
    const started = performance.now();
    for (let i = 0; i < COUNT; ) {
      const due = Math.min(COUNT, Math.floor(((performance.now() - started) / 1000) * RATE) + 1);
      for (; i < due; i++) {
        const k = i % SENDERS;
        const packet = encodeSap({
          type: 'announce',
          hash: i & 0xffff,
          source: senders[k]!,
          payload: sdp(i, senders[k]!),
        });
        sockets[k]!.send(packet, 9875, '10.77.0.1');
      }
      await sleep(5);
    }
    const floodS = (performance.now() - started) / 1000;
    const endOfFlood = await probe(daemon, '/api/discovery');
    await sleep(SETTLE_MS);
    watching = false;
    await watch;
    const stats = await probe(daemon, '/api/stats');
    const discovery = await probe(daemon, '/api/discovery');
    type Sap = {
      packets: number;
      streams: unknown[];
      streams_total?: number;
      rate_limited?: number;
      over_capacity?: number;
      auto_add?: { added_last_minute: number; waiting: number };
    };
    const sap = (discovery.body as { sap: Sap }).sap;
    const sapAtEnd = (endOfFlood.body as { sap: Sap }).sap;
    const log = daemon.output();
    return {
      flood: {
        sent: COUNT,
        senders: SENDERS,
        auto_add: AUTO_ADD,
        seconds: Math.round(floodS * 10) / 10,
      },
      received: sap.packets,
      streams_kept_at_end_of_flood: sapAtEnd.streams_total ?? sapAtEnd.streams.length,
      streams_kept: sap.streams_total ?? sap.streams.length,
      rate_limited: sap.rate_limited ?? null,
      over_capacity: sap.over_capacity ?? null,
      auto_add: sap.auto_add ?? null,
      rss_mb: { idle: idle.rss_mb, peak: peakRss, after: rssMb(pid) },
      stats_bytes: {
        idle: idle.stats.bytes,
        max: Math.max(...statsDuring.map((s) => s.bytes)),
        after: stats.bytes,
      },
      stats_ms: {
        idle: idle.stats.ms,
        max: Math.max(...statsDuring.map((s) => s.ms)),
        after: stats.ms,
      },
      stats_requests: statsDuring.length,
      discovery_bytes: discovery.bytes,
      auto_added_sources_in_config_max: maxAutoAdded,
      auto_added_sources_in_config_after: autoAddedInFile(daemon.dir),
      drop_log_lines: (log.match(/SAP: (dropped|\d+ more in the last)/g) ?? []).length,
      added_log_lines: (log.match(/added source/g) ?? []).length,
    };
  });
