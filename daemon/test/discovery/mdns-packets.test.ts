// mDNS responses within the size limit, and answers without what the querier knows.
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { describe, test } from 'node:test';
import { isSocketTrouble } from '../../src/services/discovery/mdns-endpoint.js';
import {
  type DnsRecord,
  MDNS_MAX_PACKET,
  recordBytes,
  splitResponse,
} from '../../src/services/discovery/mdns-packets.js';
import { MdnsResponder } from '../../src/services/discovery/mdns-responder.js';

const TYPE = '_tributary._tcp.local';
const HOST = 'tributary.local';

/** What bonjour-service registers for one advertised source. */
function service(i: number, txtBytes = 120): DnsRecord[] {
  const fqdn = `Desk ${i} (source).${TYPE}`;
  return [
    { name: TYPE, type: 'PTR', ttl: 28800, data: fqdn },
    { name: fqdn, type: 'SRV', ttl: 120, data: { port: 8443, target: HOST } },
    { name: fqdn, type: 'TXT', ttl: 4500, data: [Buffer.alloc(txtBytes, 'x')] },
  ];
}
const ADDRESS: DnsRecord = { name: HOST, type: 'A', ttl: 120, data: '10.77.0.1' };

const bytesOf = (records: DnsRecord[]) => 12 + records.reduce((n, r) => n + recordBytes(r), 0);

describe('splitResponse', () => {
  test('record sizes as the wire has them (uncompressed names)', () => {
    // "_tributary._tcp.local": 21 characters, 3 labels: 21 + 2 bytes; fixed fields 10.
    assert.equal(recordBytes({ name: TYPE, type: 'A', data: '1.2.3.4' }), 23 + 10 + 4);
    assert.equal(recordBytes({ name: TYPE, type: 'PTR', data: `x.${TYPE}` }), 33 + 25);
    assert.equal(
      recordBytes({ name: TYPE, type: 'SRV', data: { port: 1, target: HOST } }),
      33 + 6 + 17,
    );
    assert.equal(
      recordBytes({ name: TYPE, type: 'TXT', data: [Buffer.from('a=1'), 'bb=22'] }),
      33 + 4 + 6,
    );
  });

  test('1,000 services: every answer once, each with its SRV, TXT and A, every packet within the limit', () => {
    const all = Array.from({ length: 1000 }, (_, i) => service(i));
    const answers = all.map((s) => s[0]!);
    const additionals = [...all.flatMap((s) => s.slice(1)), ADDRESS];
    const limit = 1472;
    const { packets, dropped } = splitResponse({ type: 'response', answers, additionals }, limit);
    assert.deepEqual(dropped, []);
    assert.ok(packets.length > 100, `${packets.length} packets`);
    const seen = packets.flatMap((p) => p.answers!.map((r) => r.data));
    assert.deepEqual(
      seen,
      answers.map((r) => r.data),
      'every answer once, in order',
    );
    for (const p of packets) {
      assert.ok(bytesOf([...p.answers!, ...p.additionals!]) <= limit);
      assert.equal(p.type, 'response');
      for (const ptr of p.answers!) {
        const with_ = p.additionals!.filter((r) => r.name === ptr.data).map((r) => r.type);
        assert.deepEqual(with_.sort(), ['SRV', 'TXT'], `${ptr.data} resolved in its packet`);
      }
      assert.equal(p.additionals!.filter((r) => r.type === 'A').length, 1, 'the host address');
    }
  });

  test('a record too large for the MTU goes alone; one over 9000 bytes is not sent', () => {
    const big = service(1, 3000);
    const huge = service(2, MDNS_MAX_PACKET);
    const { packets, dropped } = splitResponse(
      { answers: [big[0]!, huge[0]!], additionals: [...big.slice(1), ...huge.slice(1)] },
      1472,
    );
    assert.deepEqual(dropped, [huge[2]], 'the TXT of 9000 bytes');
    const alone = packets.find((p) => p.additionals!.includes(big[2]!))!;
    assert.deepEqual([alone.answers!.length, alone.additionals!.length], [0, 1]);
    assert.ok(bytesOf(alone.additionals!) <= MDNS_MAX_PACKET - 28);
    for (const p of packets)
      if (p !== alone) assert.ok(bytesOf([...p.answers!, ...p.additionals!]) <= 1472);
    // Nothing but the unsendable record is lost.
    const sent = packets.flatMap((p) => [...p.answers!, ...p.additionals!]);
    assert.equal(sent.length, 5);
  });

  test('a response that fits is one packet, unchanged', () => {
    const s = service(1);
    const { packets } = splitResponse(
      { answers: [s[0]!], additionals: s.slice(1), flags: 1024 },
      1472,
    );
    assert.equal(packets.length, 1);
    assert.deepEqual(packets[0], { answers: [s[0]], additionals: s.slice(1), flags: 1024 });
  });
});

describe('MdnsResponder', () => {
  const registry = () => {
    const all = Array.from({ length: 50 }, (_, i) => service(i)).flat();
    const byType: Record<string, DnsRecord[]> = {};
    for (const r of [...all, ADDRESS]) {
      byType[r.type] = [...(byType[r.type] ?? []), r];
    }
    return byType;
  };
  const question = { name: TYPE, type: 'PTR' };
  const from = { address: '10.0.0.9', port: 5353 };

  test('answers a PTR query with SRV, TXT and A as additionals, leaving out what is known', () => {
    const sent: { answers: DnsRecord[]; additionals: DnsRecord[] }[] = [];
    const reg = registry();
    const responder = new MdnsResponder({ registry: reg }, (r) => sent.push(r));
    responder.query({ questions: [question] }, from);
    assert.equal(sent[0]!.answers.length, 50);
    assert.equal(sent[0]!.additionals.length, 101, '50 SRV, 50 TXT, one A');
    // Known with at least half the TTL: left out; with less: sent again.
    const known = reg.PTR!.slice(0, 40).map((r, i) => ({ ...r, ttl: i < 30 ? 28800 : 100 }));
    responder.query({ questions: [question], answers: known }, from);
    assert.equal(sent[1]!.answers.length, 20);
    responder.query({ questions: [question], answers: reg.PTR }, from);
    assert.equal(sent.length, 2, 'nothing to say: no response');
    assert.equal(responder.suppressed, 1);
  });

  test('a truncated query waits for its known answers (RFC 6762 7.2)', async () => {
    const sent: { answers: DnsRecord[] }[] = [];
    const reg = registry();
    const responder = new MdnsResponder({ registry: reg }, (r) => sent.push(r));
    responder.query({ questions: [question], answers: reg.PTR!.slice(0, 20), flag_tc: true }, from);
    responder.query({ answers: reg.PTR!.slice(20, 40), flag_tc: true }, from);
    assert.equal(sent.length, 0, 'waiting for the rest');
    // Another program on another port asks meanwhile: answered at once, on its own.
    responder.query({ questions: [question] }, { ...from, port: 40000 });
    assert.equal(sent.length, 1);
    responder.query({ answers: reg.PTR!.slice(40, 45) }, from);
    assert.equal(sent.length, 2, 'the last part (no TC) completes it');
    assert.equal(sent[1]!.answers.length, 5);
    responder.query({ questions: [question], answers: reg.PTR!.slice(0, 48), flag_tc: true }, from);
    await new Promise((r) => setTimeout(r, 600));
    assert.equal(sent.length, 3, 'answered after the wait without more');
    assert.equal(sent[2]!.answers.length, 2);
    responder.stop();
  });
});

describe('isSocketTrouble', () => {
  test('a packet that fails to decode is malformed whatever its error carries; a failed system call is not', () => {
    // The decoder multicast-dns (bonjour-service's) runs on every packet.
    const dnsPacket = createRequire(import.meta.url)('dns-packet') as {
      decode(packet: Buffer): unknown;
    };
    // A header promising one answer, then bytes that make the decoder read past the end (a
    // RangeError with the code ERR_OUT_OF_RANGE, which the endpoint once took for socket trouble).
    const packet = Buffer.from(
      '000084000000000100000000168121197975d9c039fdfaaa884c2e7ef9621ccaf98f0f00',
      'hex',
    );
    let decodeError: NodeJS.ErrnoException | undefined;
    try {
      dnsPacket.decode(packet);
    } catch (err) {
      decodeError = err as NodeJS.ErrnoException;
    }
    assert.equal(decodeError?.code, 'ERR_OUT_OF_RANGE');
    assert.equal(isSocketTrouble(decodeError!), false);
    assert.equal(isSocketTrouble(new Error('Cannot decode name (bad pointer)')), false);
    const membership = Object.assign(new Error('addMembership ENODEV'), {
      code: 'ENODEV',
      syscall: 'addMembership',
    });
    assert.equal(isSocketTrouble(membership), true);
  });
});
