// A SAP fuzzer (issue 26): what found the listener's holes, as vocabulary. Floods of well-formed
// announcements each with an origin of its own, from many sender addresses, some far over the
// per-sender rate; deletions of other senders' streams (from another address, or naming another
// originating source); senders' own deletions; and broken packets, all mixed with five real
// streams announced now and then. After every packet: the listener has not thrown, the streams
// kept stay within max_streams, and every packet is counted exactly once. At the end the real
// streams are all there, and every foreign deletion was refused. The real-socket versions are
// the netns-sap-guards scenarios. FUZZ_SEED=n replays another sequence.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import {
  SAP_SENDER_BURST,
  SAP_SENDER_RATE,
  SenderRateLimit,
  WindowBudget,
} from '../../src/services/discovery/limits.js';
import { silentLog } from '../../src/services/discovery/log.js';
import { DiscoveredRegistry } from '../../src/services/discovery/registry.js';
import {
  type SapCounters,
  SapListener,
  type SapStream,
} from '../../src/services/discovery/sap-listener.js';
import { encodeSap } from '../../src/services/discovery/sap-packet.js';
import { seededRandom } from '../seeded-random.js';

const PACKETS = 6000;
const CAPACITY = 64;
const SEED = Number(process.env.FUZZ_SEED ?? 26);

const sdp = (session: number, origin: string, name: string) =>
  `v=0\r\no=- ${session} 1 IN IP4 ${origin}\r\ns=${name}\r\nc=IN IP4 239.9.${session & 255}.1/32\r\n` +
  't=0 0\r\nm=audio 5004 RTP/AVP 96\r\na=rtpmap:96 L16/48000/2\r\n';

interface Real {
  sender: string;
  session: number;
  hash: number;
  payload: string;
}

const accounted = (c: SapCounters) =>
  c.rate_limited + c.malformed + c.unsupported + c.own + c.deletions + c.announcements;

describe('SAP fuzz', () => {
  test(`${PACKETS} packets of floods, foreign deletions and junk (seed ${SEED}): caps hold, real streams stay`, async () => {
    const rng = seededRandom(SEED);
    const registry = new DiscoveredRegistry<SapStream>();
    registry.capacity = CAPACITY;
    const listener = new SapListener(
      registry,
      { port: 0, groups: [], cleanupTimeoutS: 30, isOwn: () => false },
      silentLog,
    );
    // Five real streams, each from its own host, heard first (before the table fills).
    const real: Real[] = Array.from({ length: 5 }, (_, k) => {
      const sender = `192.168.1.${10 + k}`;
      const payload = sdp(9000 + k, sender, `Real ${k}`);
      return { sender, session: 9000 + k, hash: 100 + k, payload };
    });
    const announceReal = (r: Real) =>
      listener.handle(
        encodeSap({ type: 'announce', hash: r.hash, source: r.sender, payload: r.payload }),
        {
          address: r.sender,
        },
      );
    for (const r of real) announceReal(r);
    let foreign = 0;
    let flooded = 0;
    const floods: { i: number; sender: string }[] = [];
    const floodSenders = Array.from({ length: 40 }, (_, k) => `10.66.${k >> 4}.${k & 15}`);
    for (let i = 0; i < PACKETS; i++) {
      const roll = rng.next();
      const before = accounted(listener.counters);
      if (roll < 0.6) {
        // A flood: a new origin each time; a few senders send most of it.
        const sender = floodSenders[rng.chance(0.7) ? rng.int(3) : rng.int(40)]!;
        const packet = encodeSap({
          type: 'announce',
          hash: i & 0xffff,
          source: sender,
          payload: sdp(100_000 + i, sender, `Flood ${i}`),
        });
        listener.handle(packet, { address: sender });
        floods.push({ i, sender });
        flooded += 1;
      } else if (roll < 0.75) {
        // A deletion of a real stream by someone else: another address (the SAP header copied),
        // or the right address with another originating source. Each from an address of its own.
        const r = real[rng.int(real.length)]!;
        const spoofHeader = rng.chance(0.5);
        const from = spoofHeader ? `172.16.${i >> 8}.${i & 255}` : r.sender;
        const packet = encodeSap({
          type: 'delete',
          hash: r.hash,
          source: spoofHeader ? r.sender : `172.17.${i >> 8}.${i & 255}`,
          payload: rng.chance(0.5) ? r.payload : `o=- ${r.session} 1 IN IP4 ${r.sender}\r\n`,
        });
        const refusedBefore = listener.counters.deletions_refused;
        const limitedBefore = listener.counters.rate_limited;
        listener.handle(packet, { address: from });
        if (listener.counters.rate_limited === limitedBefore) {
          foreign += 1;
          assert.equal(listener.counters.deletions_refused, refusedBefore + 1, `packet ${i}`);
        }
      } else if (roll < 0.8) {
        // A flooder deletes one of its own streams: never refused.
        const own = floods[rng.int(floods.length)] ?? { i: 0, sender: floodSenders[0]! };
        const refusedBefore = listener.counters.deletions_refused;
        listener.handle(
          encodeSap({
            type: 'delete',
            hash: own.i & 0xffff,
            source: own.sender,
            payload: sdp(100_000 + own.i, own.sender, `Flood ${own.i}`),
          }),
          { address: own.sender },
        );
        assert.equal(listener.counters.deletions_refused, refusedBefore, `packet ${i}`);
      } else if (roll < 0.9) {
        const bytes = Buffer.alloc(1 + rng.int(200));
        for (let b = 0; b < bytes.length; b++) bytes[b] = rng.int(256);
        if (rng.chance(0.5)) bytes[0] = 0x20 | rng.int(8); // version 1, random flags
        listener.handle(bytes, { address: `10.55.0.${rng.int(256)}` });
      } else {
        announceReal(real[rng.int(real.length)]!);
      }
      assert.equal(accounted(listener.counters), before + 1, `packet ${i} counted once`);
      assert.ok(registry.size <= CAPACITY, `packet ${i}: ${registry.size} streams kept`);
    }
    const c = listener.counters;
    assert.equal(c.packets, PACKETS + real.length);
    assert.ok(c.rate_limited > 0, 'senders over the rate were limited');
    assert.ok(c.over_capacity > 0, 'streams beyond max_streams were not kept');
    assert.ok(foreign > 100 && c.deletions_refused === foreign, `${foreign} foreign deletions`);
    assert.ok(flooded > PACKETS / 2);
    for (const r of real) {
      const kept = registry.find((s) => s.name === `Real ${real.indexOf(r)}`);
      assert.ok(kept, `Real ${real.indexOf(r)} is still kept`);
      assert.deepEqual([kept.item.sender, kept.item.sap_source], [r.sender, r.sender]);
    }
    // Its own deletion still works, once its address is within the rate again (the spoofed
    // deletions above counted against it: per-address limits cannot tell them apart).
    await new Promise((r) => setTimeout(r, (SAP_SENDER_BURST / SAP_SENDER_RATE) * 1000 + 100));
    const first = real[0]!;
    listener.handle(
      encodeSap({ type: 'delete', hash: first.hash, source: first.sender, payload: first.payload }),
      { address: first.sender },
    );
    assert.equal(
      registry.find((s) => s.name === 'Real 0'),
      undefined,
    );
    await listener.stop();
  });
});

describe('limits', () => {
  test('SenderRateLimit: a burst, then the rate; each sender on its own; the least recent forgotten', () => {
    const limit = new SenderRateLimit(50, SAP_SENDER_BURST, 3);
    let allowed = 0;
    for (let i = 0; i < 300; i++) if (limit.allow('a', 0)) allowed += 1;
    assert.equal(allowed, SAP_SENDER_BURST, 'the burst at once');
    assert.equal(limit.allow('b', 0), true, 'another sender is not held back');
    assert.equal(limit.allow('a', 100), true, '5 tokens after 100 ms at 50/s');
    allowed = 0;
    for (let i = 0; i < 10; i++) if (limit.allow('a', 100)) allowed += 1;
    assert.equal(allowed, 4);
    limit.allow('c', 100);
    limit.allow('d', 100); // 'b' is forgotten: at most 3 tracked
    assert.equal(limit.senders, 3);
  });

  test('WindowBudget: at most N in any window', () => {
    const budget = new WindowBudget(3, 60_000);
    assert.deepEqual(
      [0, 10, 20, 30].map((t) => budget.take(t)),
      [true, true, true, false],
    );
    assert.equal(budget.used(59_999), 3);
    assert.equal(budget.take(60_000), true, 'the first has left the window');
    assert.equal(budget.take(60_001), false);
    assert.equal(budget.used(200_000), 0);
  });
});
