import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { deflateSync } from 'node:zlib';
import fc from 'fast-check';
import {
  decodeSap,
  encodeSap,
  SapPacketError,
  sapHash,
} from '../../src/services/discovery/sap-packet.js';

const SDP = 'v=0\r\no=- 1 1 IN IP4 10.0.0.5\r\ns=x\r\nm=audio 5004 RTP/AVP 96\r\n';

// What ffmpeg 5.1 sent in the test namespace (ffmpeg -f sap sap://224.2.127.254:5004).
const FFMPEG = Buffer.concat([
  Buffer.from('2000c53f00000000', 'hex'),
  Buffer.from(
    'application/sdp\0v=0\r\no=- 0 0 IN IP4 127.0.0.1\r\ns=No Name\r\nc=IN IP4 224.2.127.254/255\r\n' +
      't=0 0\r\na=tool:libavformat LIBAVFORMAT_VERSION\r\nm=audio 5004 RTP/AVP 96\r\nb=AS:1536\r\n' +
      'a=rtpmap:96 L16/48000/2\r\n',
    'latin1',
  ),
]);

describe('SAP packets (RFC 2974)', () => {
  test("reads ffmpeg's announcement, and its deletion (T bit)", () => {
    const p = decodeSap(FFMPEG);
    assert.equal(p.type, 'announce');
    assert.equal(p.hash, 0xc53f);
    assert.equal(p.source, '0.0.0.0');
    assert.equal(p.payloadType, 'application/sdp');
    assert.match(p.payload, /^v=0\r\no=- 0 0 IN IP4 127\.0\.0\.1/);
    const deletion = Buffer.from(FFMPEG);
    deletion[0] = 0x24;
    assert.equal(decodeSap(deletion).type, 'delete');
  });

  test('round trip: IPv4 and IPv6 sources, with and without the payload type', () => {
    for (const source of ['192.168.1.7', 'fe80::1:2', '2001:db8::8a2e:370:7334']) {
      for (const payloadType of [undefined, null] as const) {
        const packet = encodeSap({
          type: 'delete',
          hash: 0xbeef,
          source,
          payload: SDP,
          payloadType,
        });
        const back = decodeSap(packet);
        assert.deepEqual(
          { ...back, source: back.source.replace(/(^|:)0+(?=[0-9a-f])/g, '$1') },
          {
            type: 'delete',
            hash: 0xbeef,
            source: source.includes(':') ? expandV6(source) : source,
            payloadType: 'application/sdp',
            payload: SDP,
          },
        );
      }
    }
  });

  test('skips authentication data and inflates a compressed payload', () => {
    const header = Buffer.from([0x21, 2, 0x12, 0x34, 10, 0, 0, 5]);
    const auth = Buffer.alloc(8, 0xaa);
    const body = deflateSync(Buffer.from(`application/sdp\0${SDP}`));
    const p = decodeSap(Buffer.concat([header, auth, body]));
    assert.equal(p.payload, SDP);
    assert.equal(p.source, '10.0.0.5');
  });

  test('refuses what is not a usable SAP packet, saying why', () => {
    const ok = encodeSap({ type: 'announce', hash: 1, source: '10.0.0.5', payload: SDP });
    const cases: [Buffer, 'malformed' | 'unsupported', RegExp][] = [
      [Buffer.alloc(3), 'malformed', /shorter than a header/],
      [Buffer.from([0x40, ...ok.subarray(1)]), 'malformed', /version 2/],
      [Buffer.concat([Buffer.from([0x20, 200]), ok.subarray(2)]), 'malformed', /truncated/],
      [Buffer.from([0x22, ...ok.subarray(1)]), 'unsupported', /encrypted/],
      [
        Buffer.concat([Buffer.from([0x21]), ok.subarray(1, 8), Buffer.from('junk')]),
        'malformed',
        /inflate/,
      ],
      [
        Buffer.concat([ok.subarray(0, 8), Buffer.from('no terminator here')]),
        'malformed',
        /NUL-terminated/,
      ],
      [Buffer.concat([ok.subarray(0, 8), Buffer.from('application/sdp\0')]), 'malformed', /empty/],
      [Buffer.concat([ok.subarray(0, 8), Buffer.from('v=0\0\0')]), 'malformed', /NUL/],
    ];
    for (const [bytes, reason, message] of cases) {
      assert.throws(
        () => decodeSap(bytes),
        (err: unknown) =>
          err instanceof SapPacketError && err.reason === reason && message.test(err.message),
        message.source,
      );
    }
  });

  test('any datagram decodes or throws SapPacketError, nothing else', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 700 }), fc.boolean(), (bytes, sapLike) => {
        const data = Buffer.from(bytes);
        if (sapLike && data.length > 0) data[0] = 0x20 | (data[0]! & 0x1f);
        try {
          decodeSap(data);
        } catch (err) {
          assert.ok(err instanceof SapPacketError, String(err));
        }
      }),
      { numRuns: 3000 },
    );
  });

  test('the hash changes with the payload and is never 0', () => {
    assert.notEqual(sapHash(SDP), sapHash(`${SDP} `));
    for (let i = 0; i < 2000; i++) assert.notEqual(sapHash(`s=${i}`), 0);
  });
});

function expandV6(address: string): string {
  const [head, tail] = address.split('::');
  const h = head ? head.split(':') : [];
  const t = tail ? tail.split(':') : [];
  return [...h, ...Array(8 - h.length - t.length).fill('0'), ...t]
    .map((w) => w.replace(/^0+(?=[0-9a-f])/, ''))
    .join(':');
}
