// mDNS with 1,000 sources against Avahi: avahi-browse resolves every one of them, a fresh
// querier (no known answers) asking for _tributary._tcp gets all 1,000 in responses split over
// many packets, every response the daemon sends fits the mDNS size limit (RFC 6762 section 17:
// the interface MTU, 9000 bytes at most), and a failing send (the multicast route taken away, so every send is
// ENETUNREACH) is reported and recovered from by itself once the route is back: a source added
// meanwhile is seen by avahi-browse without a settings save.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { createSocket } from 'node:dgram';
import { setTimeout as sleep } from 'node:timers/promises';
import { startAvahi } from './avahi.js';
import { get, waitFor, withLab } from './lab.js';

const COUNT = Number(process.env.MDNS_MANY_COUNT ?? 1000);
const octets = (i: number) => `${10 + (i >> 8)}.${i & 255}`;
const config = [
  'sources:',
  ...Array.from({ length: COUNT }, (_, i) => [
    `  - name: Desk ${String(i + 1).padStart(4, '0')}`,
    `    ip: 10.88.${octets(i)}`,
  ]).flat(),
  'sap:',
  '  enabled: false',
  'mdns:',
  '  browse_interval: 1',
  '',
].join('\n');

interface Mdns {
  state: string;
  error: string | null;
  advertised: string[];
  advertised_total?: number;
  send_errors?: number;
  last_send_error?: string | null;
  recovered_at?: string | null;
  split_responses?: number;
  max_packet_bytes?: number;
}

/** A DNS message's flags say response (QR) and it names one of our sources. */
const ourResponse = (m: Buffer) => m.length > 12 && (m[2]! & 0x80) !== 0 && m.includes('(source)');

/** A name at `at` (labels; pointers followed): the name and where the record goes on. */
function readName(m: Buffer, at: number): [string, number] {
  const labels: string[] = [];
  let next = -1;
  for (let i = at, hops = 0; hops < 64; hops++) {
    const len = m[i]!;
    if (len === 0) return [labels.join('.'), next < 0 ? i + 1 : next];
    if (len >= 0xc0) {
      if (next < 0) next = i + 2;
      i = m.readUInt16BE(i) & 0x3fff;
      continue;
    }
    labels.push(m.toString('utf8', i + 1, i + 1 + len));
    i += 1 + len;
  }
  throw new Error('bad name');
}

/** The PTR targets in the answer section of a DNS response. */
function ptrAnswers(m: Buffer): string[] {
  const answers = m.readUInt16BE(6);
  let at = 12;
  for (let q = m.readUInt16BE(4); q > 0; q--) at = readName(m, at)[1] + 4;
  const out: string[] = [];
  for (let a = 0; a < answers; a++) {
    at = readName(m, at)[1];
    const type = m.readUInt16BE(at);
    const length = m.readUInt16BE(at + 8);
    if (type === 12) out.push(readName(m, at + 10)[0]);
    at += 10 + length;
  }
  return out;
}

/** A query for the PTR records of _tributary._tcp.local, with no known answers. */
function ptrQuery(): Buffer {
  const labels = ['_tributary', '_tcp', 'local'].map((l) =>
    Buffer.concat([Buffer.from([l.length]), Buffer.from(l)]),
  );
  const header = Buffer.from([0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0]);
  return Buffer.concat([header, ...labels, Buffer.from([0, 0, 12, 0, 1])]);
}

export default () =>
  withLab(async (lab) => {
    // Avahi caches 4,096 records unless told more; 1,000 services are over 4,000 (PTR, subtype
    // PTR, SRV, TXT each), so a real browser of this many needs a larger cache.
    const avahi = await startAvahi(lab, { 'cache-entries-max': 20_000 });
    // Every mDNS response on the wire that carries our records: its size.
    const tap = createSocket({ type: 'udp4', reuseAddr: true });
    await new Promise<void>((resolve) => tap.bind(5353, () => resolve()));
    tap.addMembership('224.0.0.251');
    lab.atEnd(() => tap.close());
    let largest = 0;
    let responses = 0;
    const ptrs = new Set<string>();
    let allPackets = 0;
    tap.on('message', (m) => {
      allPackets += 1;
      if (!ourResponse(m)) return;
      responses += 1;
      largest = Math.max(largest, m.length);
      for (const p of ptrAnswers(m)) if (p.endsWith('(source)._tributary._tcp.local')) ptrs.add(p);
    });

    const t0 = performance.now();
    const daemon = await lab.daemon(config, { ENGINE: 'off' });
    const mdns = async () => (await get<{ mdns: Mdns }>(daemon, '/api/discovery')).mdns;
    const sourcesSeen = async () =>
      (await avahi.browse('_tributary._tcp')).filter((e) => e.name.endsWith(' (source)'));
    let lastSeen = 0;
    await waitFor(
      `avahi-browse to resolve all ${COUNT} sources`,
      async () => {
        lastSeen = (await sourcesSeen()).length;
        return lastSeen >= COUNT || undefined;
      },
      150_000,
      () => `${lastSeen} seen\n${daemon.output().slice(-3000)}`,
    );
    const allSeenMs = performance.now() - t0;
    const running = await mdns();
    assert.equal(running.state, 'running', JSON.stringify(running.error));

    // A fresh querier, which knows no answer yet, asks for every _tributary._tcp instance.
    ptrs.clear();
    const responsesBefore = responses;
    const splitBefore = running.split_responses ?? 0;
    tap.send(ptrQuery(), 5353, '224.0.0.251');
    await waitFor(
      'all 1,000 PTR answers',
      () => ptrs.size >= COUNT || undefined,
      5000,
      () =>
        `${ptrs.size} PTR answers, ${responses - responsesBefore} responses; all: ${allPackets}`,
    );
    const fresh = {
      ptr_answers: ptrs.size,
      packets: responses - responsesBefore,
      split_responses: ((await mdns()).split_responses ?? 0) - splitBefore,
    };

    // The multicast route goes: every send fails. A source is added meanwhile.
    execFileSync('ip', ['route', 'del', '224.0.0.0/4', 'dev', 'lo']);
    const failing = await waitFor(
      'a send error to be reported',
      async () => {
        const m = await mdns();
        return (m.send_errors ?? 0) > 0 || m.state === 'failed' ? m : undefined;
      },
      15_000,
      () => daemon.output().slice(-3000),
    );
    const added = await daemon.call('POST', '/sources', { name: 'Late', ip: '10.99.0.1' });
    assert.equal(added.status, 201, JSON.stringify(added.body));
    await sleep(2000);
    const whileDown = await mdns();

    // The route is back: discovery recovers by itself, and Avahi learns of the new source.
    execFileSync('ip', ['route', 'add', '224.0.0.0/4', 'dev', 'lo']);
    const t1 = performance.now();
    const recovered = await waitFor(
      'mDNS to recover',
      async () => {
        const m = await mdns();
        return m.state === 'running' && m.recovered_at ? m : undefined;
      },
      30_000,
      () => daemon.output().slice(-3000),
    );
    const recoveredMs = performance.now() - t1;
    await waitFor(
      'avahi-browse to see the source added while sends failed',
      async () => (await sourcesSeen()).some((e) => e.name === 'Late (source)') || undefined,
      30_000,
      () => daemon.output().slice(-3000),
    );
    const lateSeenMs = performance.now() - t1;
    const log = daemon.output();
    return {
      sources: COUNT,
      all_seen_ms: Math.round(allSeenMs),
      responses_on_wire: responses,
      largest_response_bytes: largest,
      max_packet_bytes: running.max_packet_bytes ?? null,
      fresh_query: fresh,
      state_while_failing: failing.state,
      send_errors: whileDown.send_errors ?? null,
      last_send_error: whileDown.last_send_error ?? whileDown.error,
      state_while_down: whileDown.state,
      recovered_ms: Math.round(recoveredMs),
      late_source_seen_ms: Math.round(lateSeenMs),
      recovered_at: recovered.recovered_at,
      emsgsize_logged: /EMSGSIZE/.test(log),
      unavailable_logged: /mDNS not available/.test(log),
    };
  });
