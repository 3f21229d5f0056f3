// WHEP signalling (issue 14) against the real engine: a recvonly offer Chromium made
// (chromium-offer.sdp) in, the engine's answer out; the errors, the listener cap, one session
// per client, and sessions freed when their listener goes quiet. Audio reaching a browser is
// proven in the dashboard's e2e tests (whep.test.ts there), with Chromium as the peer.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, type TestContext, test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { build, localEngine } from '../helpers.js';
import { udp } from './mp3-peers.js';

const OFFER = readFileSync(new URL('./chromium-offer.sdp', import.meta.url), 'utf8');
const SDP = { 'content-type': 'application/sdp' };

interface WebrtcStats {
  format: string;
  sink: string;
  listeners: number;
  sessions_closed: number;
  sessions: Array<{ session_id: string }>;
}

async function daemon(t: TestContext, webrtc: object = {}) {
  const app = await build(t, { engine: localEngine });
  const rx = await udp(t);
  const port = rx.address().port;
  for (const payload of [
    { name: 'Desk', ip: '127.0.0.1', port, webrtc },
    { name: 'Quiet', ip: '127.0.0.1', port: port + 1, webrtc: { enabled: false } },
    { name: 'Upstairs', is_group: true, group_members: ['Desk'] },
  ]) {
    const res = await app.inject({ method: 'POST', url: '/sinks', payload });
    assert.equal(res.statusCode, 201, res.body);
  }
  const desk = (await app.inject('/sinks/Desk')).json() as { config_id: string };
  const offer = (sink: string, client?: string, body = OFFER, headers = SDP) =>
    app.inject({
      method: 'POST',
      url: `/api/whep/sink/${encodeURIComponent(sink)}${client ? `?client=${client}` : ''}`,
      headers,
      payload: body,
    });
  const webrtcStats = async () => {
    const stats = (await app.inject('/api/stats')).json() as { streams: WebrtcStats[] };
    return stats.streams.filter((s) => s.format === 'webrtc');
  };
  return { app, id: desk.config_id, offer, webrtcStats };
}

describe('WHEP signalling', () => {
  test('an offer is answered 201 with Location, ETag and a stereo Opus answer with host candidates; PATCH, stats and DELETE follow the session', async (t) => {
    const d = await daemon(t);
    const res = await d.offer(d.id);
    assert.equal(res.statusCode, 201, res.body);
    assert.match(res.headers['content-type'] as string, /^application\/sdp/);
    const location = res.headers.location as string;
    assert.match(location, /^\/api\/whep\/session\/[0-9a-f]{24}$/);
    assert.match(res.headers.etag as string, /^"[0-9a-f]{24}"$/);
    assert.match(res.body, /a=rtpmap:111 opus\/48000\/2/);
    assert.match(res.body, /a=fmtp:111 .*stereo=1/);
    assert.match(res.body, /sprop-stereo=1/);
    assert.match(res.body, /a=sendonly/);
    assert.match(res.body, /a=candidate:\S+ 1 udp \d+ 127\.0\.0\.1 \d+ typ host/);
    const id = location.split('/').pop() as string;

    const frag = 'a=ice-ufrag:POmB\r\na=candidate:1 1 udp 2113937151 127.0.0.1 40001 typ host\r\n';
    const patch = (body: string, type = 'application/trickle-ice-sdpfrag') =>
      d.app.inject({
        method: 'PATCH',
        url: location,
        headers: { 'content-type': type },
        payload: body,
      });
    assert.equal((await patch(frag)).statusCode, 204);
    const wrongType = await patch(frag, 'application/sdp');
    assert.equal(wrongType.statusCode, 415);
    assert.equal(wrongType.json().code, 'TRIBUTARY_UNSUPPORTED_MEDIA_TYPE');
    const badLine = await patch('a=candidate:garbage');
    assert.equal(badLine.statusCode, 400);
    assert.match(badLine.json().message, /garbage/);

    const stats = await d.app.inject(`/api/whep/stats/${id}`);
    assert.equal(stats.statusCode, 200, stats.body);
    const s = stats.json();
    assert.equal(s.session_id, id);
    assert.equal(s.sink, 'Desk');
    assert.equal(s.profile, 'balanced');
    assert.equal(s.connected, false);
    assert.equal(s.listener, null);
    assert.ok(s.duration_s >= 0 && s.duration_s < 10);
    for (const k of ['packets', 'bytes', 'packets_lost', 'loss', 'jitter_ms', 'dropped_packets']) {
      assert.equal(typeof s[k], 'number', k);
    }
    const [entry] = await d.webrtcStats();
    assert.equal(entry?.listeners, 1);
    assert.equal(entry?.sessions[0]?.session_id, id);

    const del = await d.app.inject({ method: 'DELETE', url: location });
    assert.equal(del.statusCode, 200);
    assert.deepEqual(del.json(), { closed: true });
    assert.equal((await d.app.inject({ method: 'DELETE', url: location })).statusCode, 404);
    const gone = await d.app.inject(`/api/whep/stats/${id}`);
    assert.equal(gone.statusCode, 404);
    assert.equal(gone.json().code, 'TRIBUTARY_NOT_FOUND');
    assert.equal((await patch(frag)).statusCode, 404);
    const [after] = await d.webrtcStats();
    assert.deepEqual([after?.listeners, after?.sessions_closed], [0, 1]);
  });

  test('PATCH follows RFC 9725: If-Match with the ETag trickles (204), new ice-ufrag/ice-pwd restart ICE (200, new credentials and ETag), an older ETag is 412 with a JSON error', async (t) => {
    const d = await daemon(t);
    const res = await d.offer(d.id);
    assert.equal(res.statusCode, 201, res.body);
    const location = res.headers.location as string;
    const first = res.headers.etag as string;
    const patch = (body: string, ifMatch?: string) =>
      d.app.inject({
        method: 'PATCH',
        url: location,
        headers: {
          'content-type': 'application/trickle-ice-sdpfrag',
          ...(ifMatch === undefined ? {} : { 'if-match': ifMatch }),
        },
        payload: body,
      });
    const offerUfrag = /a=ice-ufrag:(\S+)/.exec(OFFER)?.[1] as string;
    const trickle = `a=ice-ufrag:${offerUfrag}\r\na=candidate:1 1 udp 2113937151 127.0.0.1 40001 typ host\r\n`;
    const ok = await patch(trickle, first);
    assert.equal(ok.statusCode, 204, ok.body);
    assert.equal(ok.headers.etag, first);

    const restart =
      'a=ice-ufrag:Rst1\r\na=ice-pwd:newpasswordnewpassword12\r\nm=audio 9 UDP/TLS/RTP/SAVPF 111\r\n' +
      'a=mid:0\r\na=candidate:2 1 udp 2113937151 127.0.0.1 40002 typ host\r\na=end-of-candidates\r\n';
    const restarted = await patch(restart, '*');
    assert.equal(restarted.statusCode, 200, restarted.body);
    assert.match(restarted.headers['content-type'] as string, /^application\/trickle-ice-sdpfrag/);
    const second = restarted.headers.etag as string;
    assert.match(second, /^"[0-9a-f]{24}"$/);
    assert.notEqual(second, first);
    const oldUfrag = /a=ice-ufrag:(\S+)/.exec(res.body)?.[1];
    const newUfrag = /a=ice-ufrag:(\S+)/.exec(restarted.body)?.[1];
    assert.ok(newUfrag && newUfrag !== oldUfrag, restarted.body);
    assert.match(restarted.body, /^a=ice-pwd:\S{22,}$/m);
    assert.match(restarted.body, /^m=audio 9 /m);
    assert.match(restarted.body, /^a=candidate:\S+ 1 udp \d+ 127\.0\.0\.1 \d+ typ host/m);
    assert.match(restarted.body, /a=end-of-candidates\r\n$/);

    // A trickle sent before the restart (the first ETag) is refused and changes nothing.
    const stale = await patch(trickle, first);
    assert.equal(stale.statusCode, 412, stale.body);
    assert.equal(stale.json().code, 'TRIBUTARY_STALE_ICE_SESSION');
    assert.match(stale.json().message, /ETag/);
    const stats = (await d.app.inject(`/api/whep/stats/${location.split('/').pop()}`)).json();
    assert.equal(stats.ice_restarts, 1);
    assert.equal((await patch(trickle.replace(offerUfrag, 'Rst1'), second)).statusCode, 204);
    // The same credentials again are no new restart.
    assert.equal((await patch(restart, second)).statusCode, 204);
  });

  test('415 for another content type, 400 naming what is wrong with the offer, 404 for unknown sinks, groups and sinks without WebRTC', async (t) => {
    const d = await daemon(t);
    const json = await d.offer(d.id, undefined, '{"sdp":"v=0"}', {
      'content-type': 'application/json',
    });
    assert.equal(json.statusCode, 415);
    assert.equal(json.json().code, 'TRIBUTARY_UNSUPPORTED_MEDIA_TYPE');
    assert.match(json.json().message, /application\/json.*application\/sdp/);
    const text = await d.offer(d.id, undefined, OFFER, { 'content-type': 'text/plain' });
    assert.equal(text.statusCode, 415);

    const garbage = await d.offer(d.id, undefined, 'hello');
    assert.equal(garbage.statusCode, 400);
    assert.equal(garbage.json().code, 'TRIBUTARY_BAD_OFFER');
    assert.match(garbage.json().message, /not valid SDP/);
    const video = OFFER.replace('m=audio', 'm=video').replace(/opus\/48000\/2/, 'VP8/90000');
    const noOpus = await d.offer(d.id, undefined, video);
    assert.equal(noOpus.statusCode, 400, noOpus.body);

    for (const [sink, why] of [
      ['Nowhere', /no sink has that/],
      ['Upstairs', /group/],
      ['Quiet', /webrtc\.enabled/],
    ] as const) {
      const res = await d.offer(sink);
      assert.equal(res.statusCode, 404, sink);
      assert.match(res.json().message, why);
    }
    // By name works as well as by config_id.
    assert.equal((await d.offer('Desk')).statusCode, 201);
  });

  test('503 above webrtc.max_listeners; the same client again replaces its session', async (t) => {
    const d = await daemon(t, { max_listeners: 2 });
    const a = await d.offer(d.id, 'a');
    const b = await d.offer(d.id, 'b');
    assert.deepEqual([a.statusCode, b.statusCode], [201, 201]);
    const c = await d.offer(d.id, 'c');
    assert.equal(c.statusCode, 503);
    assert.equal(c.json().code, 'TRIBUTARY_STREAM_UNAVAILABLE');
    assert.match(c.json().message, /max_listeners/);
    const again = await d.offer(d.id, 'a');
    assert.equal(again.statusCode, 201);
    assert.notEqual(again.headers.location, a.headers.location);
    const old = (a.headers.location as string).replace('/session/', '/stats/');
    assert.equal((await d.app.inject(old)).statusCode, 404, 'the replaced session is gone');
    const [entry] = await d.webrtcStats();
    assert.deepEqual([entry?.listeners, entry?.sessions_closed], [2, 1]);
  });

  test('a session whose listener never answers is freed after session_timeout, with its thread and sockets', async (t) => {
    const d = await daemon(t, { session_timeout: 5 });
    const res = await d.offer(d.id);
    assert.equal(res.statusCode, 201);
    const whep = d.app.engine.whep;
    assert.ok(whep);
    const status = whep.whepStatus();
    assert.equal(status.running, true);
    assert.equal(status.addresses.length, 1);
    assert.match(status.addresses[0] ?? '', /^127\.0\.0\.1:\d+$/);
    await sleep(4000);
    assert.equal((await d.webrtcStats())[0]?.listeners, 1, 'freed before its timeout');
    const end = Date.now() + 4000;
    while ((await d.webrtcStats())[0]?.listeners !== 0 && Date.now() < end) await sleep(100);
    const [entry] = await d.webrtcStats();
    assert.deepEqual([entry?.listeners, entry?.sessions_closed], [0, 1]);
    const after = whep.whepStatus();
    assert.deepEqual([after.running, after.addresses], [false, []]);
    assert.equal(after.expired, 1);
  });
});
