import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { Sink } from '../../src/schema/sink.js';
import {
  defaultPayloadType,
  describeSink,
  sessionIdOf,
} from '../../src/services/discovery/sap-announcer.js';
import { streamId } from '../../src/services/discovery/sap-listener.js';
import {
  announcementSdp,
  originOf,
  parseStream,
  SdpError,
} from '../../src/services/discovery/sdp.js';

// As PulseAudio's module-rtp-send writes it (pa_sdp_build: LF line ends, a=type:broadcast).
const PULSEAUDIO =
  'v=0\no=root 3911476143 0 IN IP4 192.168.1.5\ns=PulseAudio RTP Stream on studio\n' +
  'c=IN IP4 224.0.0.56\nt=3911476143 0\na=tool:PulseAudio 16.1\nm=audio 46416 RTP/AVP 127\n' +
  'a=rtpmap:127 L16/48000/2\na=type:broadcast\n';
// As PipeWire's module-rtp-sap writes it.
const PIPEWIRE =
  'v=0\no=- 1913250981 1913250981 IN IP4 192.168.1.10\ns=PipeWire RTP Stream on desk\n' +
  'c=IN IP4 224.0.0.56/255\nt=0 0\na=recvonly\na=tool:PipeWire 1.0.5\n' +
  'm=audio 46000 RTP/AVP 127\na=rtpmap:127 L16/48000/2\na=ptime:4\na=mediaclk:direct=0\n';
// An AES67 device: L24, 1 ms packets, PTP reference clock.
const AES67 =
  'v=0\r\no=- 1311738121 1311738121 IN IP4 192.168.1.60\r\ns=Stage Box 1-2\r\nt=0 0\r\n' +
  'a=clock-domain:PTPv2 0\r\nm=audio 5004 RTP/AVP 98\r\nc=IN IP4 239.69.83.133/32\r\n' +
  'a=rtpmap:98 L24/48000/2\r\na=ptime:1\r\n' +
  'a=ts-refclk:ptp=IEEE1588-2008:00-1D-C1-FF-FE-0E-10-9A:0\r\na=mediaclk:direct=0\r\na=recvonly\r\n';

describe('SDP of announced streams (sdp-transform)', () => {
  test('PulseAudio, PipeWire and AES67 descriptions', () => {
    const pa = parseStream(PULSEAUDIO);
    assert.deepEqual(
      [pa.name, pa.address, pa.port, pa.stream, pa.unplayable],
      [
        'PulseAudio RTP Stream on studio',
        '224.0.0.56',
        46416,
        { encoding: 'L16', format: 'S16BE', sample_rate: 48000, channels: 2, payload_type: 127 },
        null,
      ],
    );
    assert.deepEqual(pa.origin, {
      username: 'root',
      session_id: '3911476143',
      version: '0',
      address: '192.168.1.5',
    });
    const pw = parseStream(PIPEWIRE);
    assert.deepEqual(
      [pw.address, pw.ptime, pw.direction, pw.mediaclk],
      ['224.0.0.56', 4, 'recvonly', 'direct=0'],
    );
    const aes = parseStream(AES67);
    assert.equal(aes.address, '239.69.83.133', 'the media-level c= line');
    assert.deepEqual(aes.stream, {
      encoding: 'L24',
      format: 'L24',
      sample_rate: 48000,
      channels: 2,
      payload_type: 98,
    });
    assert.equal(aes.refclk, 'ptp=IEEE1588-2008:00-1D-C1-FF-FE-0E-10-9A:0');
    assert.equal(aes.ptime, 1);
  });

  test('static payload types, and streams Tributary cannot play', () => {
    const statik = parseStream(
      'v=0\no=- 5 1 IN IP4 10.0.0.1\ns=CD\nc=IN IP4 239.1.1.1\nm=audio 5004 RTP/AVP 10\n',
    );
    assert.deepEqual(statik.stream, {
      encoding: 'L16',
      format: 'S16BE',
      sample_rate: 44100,
      channels: 2,
      payload_type: 10,
    });
    const opus = parseStream(
      'v=0\no=- 5 1 IN IP4 10.0.0.1\ns=Talk\nc=IN IP4 239.1.1.1\nm=audio 5004 RTP/AVP 111\na=rtpmap:111 opus/48000/2\n',
    );
    assert.match(opus.unplayable ?? '', /encoding opus/);
    const odd = parseStream(
      'v=0\no=- 5 1 IN IP4 10.0.0.1\ns=Odd\nc=IN IP4 239.1.1.1\nm=audio 5004 RTP/AVP 96\na=rtpmap:96 L16/32000/2\n',
    );
    assert.match(odd.unplayable ?? '', /32000 Hz/);
    const le = parseStream(
      'v=0\no=- 5 1 IN IP4 10.0.0.1\ns=LE\nm=audio 4010 RTP/AVP 96\nc=IN IP4 239.1.1.1\na=rtpmap:96 S16LE/48000/8\n',
    );
    assert.deepEqual([le.stream.format, le.stream.channels, le.unplayable], ['S16LE', 8, null]);
  });

  test('what is not a stream description is refused', () => {
    for (const [sdp, why] of [
      ['hello', /v=0/],
      ['v=0\ns=no origin\nm=audio 5004 RTP/AVP 96\n', /origin/],
      ['v=0\no=- 1 1 IN IP4 10.0.0.1\ns=video\nm=video 5004 RTP/AVP 96\n', /m=audio/],
      ['v=0\no=- 1 1 IN IP4 10.0.0.1\ns=cut\nm=audio', /m=audio/],
      ['v=0\no=- 1 1 IN IP4 10.0.0.1\ns=x\nm=audio 70000 RTP/AVP 96\n', /port/],
    ] as const) {
      assert.throws(
        () => parseStream(sdp),
        (e: unknown) => e instanceof SdpError && why.test((e as Error).message),
      );
    }
    assert.deepEqual(originOf('o=studio 42 7 IN IP4 10.0.0.9\r\n'), {
      username: 'studio',
      session_id: '42',
      version: '7',
      address: '10.0.0.9',
    });
  });

  test('stream ids follow a session across addresses; ffmpeg (session 0) is told apart by destination', () => {
    const a = parseStream(PULSEAUDIO);
    const moved = parseStream(
      PULSEAUDIO.replace('192.168.1.5', '192.168.1.99').replace(
        'c=IN IP4 224.0.0.56',
        'c=IN IP4 239.9.9.9',
      ),
    );
    assert.equal(streamId(a.origin, a), streamId(moved.origin, moved));
    const ff = (dest: string) =>
      parseStream(
        `v=0\no=- 0 0 IN IP4 127.0.0.1\ns=No Name\nc=IN IP4 ${dest}/255\nm=audio 5004 RTP/AVP 96\na=rtpmap:96 L16/48000/2\n`,
      );
    assert.notEqual(
      streamId(ff('224.2.127.254').origin, ff('224.2.127.254')),
      streamId(ff('239.1.1.1').origin, ff('239.1.1.1')),
    );
  });

  test("Tributary's announcement of an RTP sink reads back as what the engine sends", () => {
    const sink = {
      config_id: '0b6e5f0c-3f5c-4a8e-9a63-2f1f8c2f7d11',
      name: 'Garden',
      ip: '239.255.77.1',
      port: 5004,
      bit_depth: 16,
      sample_rate: 44100,
      channels: 2,
      payload_type: 10,
    } as Sink;
    const sdp = announcementSdp({ ...describeSink(sink, '192.168.1.2', 64), version: 3911476143 });
    assert.ok(!sdp.includes('\r'), 'LF line ends (PulseAudio refuses CRLF)');
    for (const line of [
      'c=IN IP4 239.255.77.1/64',
      'm=audio 5004 RTP/AVP 10',
      'a=rtpmap:10 L16/44100/2',
      'a=ptime:6.53',
      'a=recvonly',
      'a=ts-refclk:local',
      'a=mediaclk:sender',
    ]) {
      assert.ok(sdp.split('\n').includes(line), `${line} in\n${sdp}`);
    }
    const back = parseStream(sdp);
    assert.deepEqual(
      [back.name, back.address, back.port, back.unplayable],
      ['Garden', '239.255.77.1', 5004, null],
    );
    assert.equal(back.origin.session_id, sessionIdOf(sink.config_id));
    const l24 = parseStream(
      announcementSdp({
        ...describeSink(
          { ...sink, bit_depth: 24, sample_rate: 96000, channels: 6, payload_type: null } as Sink,
          'fe80::1',
          64,
        ),
        version: 1,
      }),
    );
    assert.deepEqual(l24.stream, {
      encoding: 'L24',
      format: 'L24',
      sample_rate: 96000,
      channels: 6,
      payload_type: 97,
    });
    assert.equal(
      l24.ptime,
      Math.round((64 / 96) * 100) / 100,
      '64 frames of 6 x 3 bytes per packet',
    );
  });
});

describe('the payload type an RTP sink announces', () => {
  test('the static type of its format when it has one, else 127 (L16) or 97 (L24), as the engine sends', () => {
    const at = (bit_depth: number, sample_rate: number, channels: number) =>
      defaultPayloadType({ bit_depth, sample_rate, channels });
    // 127: PulseAudio's module-rtp-recv plays L16 only as 10, 11 or 127, whatever the SDP says.
    assert.deepEqual(
      [
        at(16, 44100, 2),
        at(16, 44100, 1),
        at(16, 48000, 2),
        at(16, 48000, 1),
        at(16, 96000, 8),
        at(24, 44100, 2),
        at(24, 48000, 6),
      ],
      [10, 11, 127, 127, 127, 97, 97],
    );
  });
});
