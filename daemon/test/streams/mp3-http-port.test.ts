// The MP3 stream on the plain HTTP port (issue 32): players that cannot trust a self-signed
// certificate (mpg123, VLC, ffmpeg, smart speakers) open http://SERVER:HTTP_PORT/stream/IP/.
// A real daemon, real players from Debian, a real tone; everything else still redirects.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { chmodSync } from 'node:fs';
import { get, request } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { describe, type TestContext, test } from 'node:test';
import { promisify } from 'node:util';
import { tempDir } from '../helpers.js';
import { mpg123Decode, streamingDaemon, vlcDecode } from './http-port-players.js';
import { channel, ffmpegDecode, frequency, rmsDb, sendTone, udp } from './mp3-peers.js';

const run = promisify(execFile);

/** Status, headers and (for a non-stream answer) body of a request; a stream is left open. */
function ask(
  url: string,
  options: { method?: string; headers?: Record<string, string> } = {},
): Promise<{ status: number; location?: string; type?: string; destroy(): void }> {
  const send = url.startsWith('https:') ? httpsRequest : request;
  return new Promise((resolve, reject) => {
    const req = send(url, { ...options, rejectUnauthorized: false }, (res) => {
      res.resume();
      resolve({
        status: res.statusCode ?? 0,
        location: res.headers.location,
        type: res.headers['content-type'],
        destroy: () => res.destroy(),
      });
    });
    req.on('error', reject).end();
  });
}

/** A 1 kHz / 440 Hz tone into the daemon's Scream port until the test ends. */
async function tone(t: TestContext, port: number) {
  const tx = await udp(t);
  const stop = new AbortController();
  const sending = sendTone(tx, port, { hz: 1000, hzRight: 440, amplitude: 0.5 }, stop.signal);
  t.after(async () => {
    stop.abort();
    await sending;
  });
}

/** The median over 100 ms windows of a measure of one channel, after the first `skip` s. */
function measure(pcm: Float32Array, c: 0 | 1, f: (w: Float32Array) => number, skip = 1.2) {
  const x = channel(pcm.subarray(Math.round(48_000 * 2 * skip)), c);
  const values: number[] = [];
  for (let i = 0; i + 4800 <= x.length; i += 4800) values.push(f(x.subarray(i, i + 4800)));
  values.sort((a, b) => a - b);
  return values[Math.floor(values.length / 2)] ?? Number.NaN;
}

/** The decoded tone is the one sent: 1 kHz left, 440 Hz right, -9 dBFS, at least `s` seconds. */
function assertTone(pcm: Float32Array, seconds: number, who: string) {
  assert.ok(pcm.length / 2 / 48_000 >= seconds, `${who}: ${pcm.length / 2} frames decoded`);
  const left = measure(pcm, 0, (w) => frequency(w, 48_000));
  const right = measure(pcm, 1, (w) => frequency(w, 48_000));
  const level = measure(pcm, 0, rmsDb);
  assert.ok(Math.abs(left - 1000) < 10, `${who}: left ${left} Hz`);
  assert.ok(Math.abs(right - 440) < 4.4, `${who}: right ${right} Hz`);
  assert.ok(Math.abs(level - -9.03) < 0.5, `${who}: left ${level.toFixed(2)} dBFS`);
}

describe('MP3 stream on the plain HTTP port', () => {
  test('ffmpeg, mpg123 and VLC play http://.../stream/IP/ with no certificate setup; the tone is right', async (t) => {
    const d = await streamingDaemon(t);
    await tone(t, d.screamPort);
    const head = await ask(d.stream);
    head.destroy();
    assert.equal(head.status, 200);
    assert.equal(head.type, 'audio/mpeg');

    // ffmpeg reading 3 s and discarding them exits 0 by itself.
    await run('ffmpeg', ['-v', 'error', '-i', d.stream, '-t', '3', '-f', 'null', '-'], {
      timeout: 30_000,
    });
    // The three players at once, each a listener of its own (they play in real time).
    const dir = tempDir(t);
    chmodSync(dir, 0o777);
    const [byFfmpeg, byMpg123, byVlc] = await Promise.all([
      ffmpegDecode(d.stream, 4),
      // mpg123 with its own HTTP client (no --network curl, no CA bundle): 10 s of frames.
      mpg123Decode(d.stream, 417),
      // VLC (Debian's vlc-bin and vlc-plugin-base, which .ci/run installs) into a WAV file.
      vlcDecode(d.stream, 10, dir),
    ]);
    assertTone(byFfmpeg, 2.5, 'ffmpeg');
    assertTone(byMpg123, 9.5, 'mpg123');
    assertTone(byVlc, 8, 'VLC');
  });

  test('only GET of a stream is served; everything else still redirects to HTTPS', async (t) => {
    const d = await streamingDaemon(t);
    const api = new URL(d.apiUrl).port;
    for (const path of [
      '/',
      '/api/stats',
      '/sinks',
      '/stream/',
      '/stream/127.0.0.1/x',
      '/stream/127.0.0.1/../../api/stats',
      '/streams/127.0.0.1/',
    ]) {
      const res = await ask(`${d.httpUrl}${path}`);
      assert.equal(res.status, 308, path);
      // The redirect's path as URL parsing resolves it ('..' taken away).
      const resolved = new URL(path, 'http://x').pathname;
      assert.equal(res.location, `https://127.0.0.1:${api}${resolved}`, path);
    }
    for (const method of ['POST', 'PUT', 'DELETE', 'HEAD']) {
      assert.equal((await ask(d.stream, { method })).status, 308, method);
    }
    assert.equal((await ask(`${d.httpUrl}/stream/192.0.2.99/`)).status, 404, 'no such sink');
    assert.equal(
      (await ask(d.stream, { headers: { host: 'evil.example' } })).status,
      421,
      'another host name',
    );
  });

  test('API_TOKEN: the HTTP stream takes it as ?token= (or the header), never logged; no other route takes ?token=', async (t) => {
    const token = 'stream-secret-4f8a';
    const d = await streamingDaemon(t, { API_TOKEN: token });
    assert.equal((await ask(d.stream)).status, 401, 'no token');
    assert.equal((await ask(`${d.stream}?token=wrong`)).status, 401, 'a wrong token');
    const byQuery = await ask(`${d.stream}?token=${token}`);
    byQuery.destroy();
    assert.equal(byQuery.status, 200, 'the token in the URL');
    const byHeader = await ask(d.stream, { headers: { authorization: `Bearer ${token}` } });
    byHeader.destroy();
    assert.equal(byHeader.status, 200, 'the token as a header');
    const https = await ask(`${d.apiUrl}/stream/127.0.0.1/?token=${token}`);
    https.destroy();
    assert.equal(https.status, 200, 'the HTTPS stream takes it too');
    assert.equal((await ask(`${d.apiUrl}/api/stats?token=${token}`)).status, 401, 'not the API');
    const pcm = await mpg123Decode(`${d.stream}?token=${token}`, 42);
    assert.ok(pcm.length >= 2 * 40 * 1152, `mpg123 decoded ${pcm.length / 2} frames`);
    await d.call('GET', '/api/stats'); // a request after the streams, logged after them
    assert.ok(!d.output().includes(token), 'the token is not in the log');
    assert.match(d.output(), /token=\*\*\*/, 'the stream requests are logged, token hidden');
  });

  test('the listener cap counts HTTP and HTTPS listeners together', async (t) => {
    const d = await streamingDaemon(t, {}, { max_listeners: 2 });
    const one = await ask(`${d.apiUrl}/stream/127.0.0.1/`);
    const two = await ask(d.stream);
    t.after(() => {
      one.destroy();
      two.destroy();
    });
    assert.deepEqual([one.status, two.status], [200, 200]);
    assert.equal((await ask(d.stream)).status, 503, 'a third over HTTP');
    assert.equal((await ask(`${d.apiUrl}/stream/127.0.0.1/`)).status, 503, 'a third over HTTPS');
    await new Promise<void>((resolve) => {
      get(d.stream, (res) => {
        assert.equal(res.headers['content-type'], 'application/json; charset=utf-8');
        res.resume();
        resolve();
      });
    });
  });
});
