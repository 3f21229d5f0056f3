// The play-URL plugins end to end: files ffmpeg made, served by a local HTTP server, played by
// the real engine on a Scream sink on 127.0.0.1 and measured there (frequency, level, gaps);
// every refusal with its documented status within its timeout; a stream until DELETE.
import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { measureTone } from '../discovery/scenarios/tone.js';
import { tempDir } from '../helpers.js';
import {
  audioServer,
  blockRms,
  closedPort,
  encodeTone,
  FORMATS,
  type Format,
  play,
  router,
  SINE_RMS,
  until,
} from './harness.js';

describe('playurl plays what ffmpeg wrote', () => {
  for (const format of Object.keys(FORMATS) as Format[]) {
    test(`${format}: a 1 kHz tone arrives at the sink at its level, then the source goes`, async (t) => {
      const dir = tempDir(t);
      encodeTone(dir, 'tone', format, { seconds: 2 });
      const server = await audioServer(t, dir);
      const { app, sink, playing } = await router(t);
      const before = sink.frames();
      const res = await app.inject(play(server.url(`/files/tone.${format}`)));
      assert.equal(res.statusCode, 200, res.body);
      const { id, playback } = res.json();
      assert.match(id, /^[0-9a-f]{12}$/);
      assert.equal(playback.items[0].state, 'playing');
      assert.ok(playback.items[0].codec, 'the codec found is reported');
      const playingSource = async () =>
        (await app.inject('/api/stats'))
          .json()
          .sources.find((s: { name: string; packets: number }) => s.name.startsWith('playurl/'));
      await until('the source to play', async () => (await playingSource())?.packets > 0);
      const source = await playingSource();
      assert.match(
        source.format,
        new RegExp(`^memory (f32|s16le|s24le) ${format === 'opus' ? 48000 : 44100} Hz 2 ch`),
      );
      // Not in the configuration, not in GET /sources.
      assert.deepEqual((await app.inject('/sources')).json(), []);

      await until('the playback to end', async () => (await playing()).length === 0);
      const tone = measureTone(sink.left().subarray(before), 48000, { maxSeconds: 1.5 });
      assert.ok(tone.seconds >= 1.2, `a steady tone of ${tone.seconds} s`);
      assert.ok(Math.abs(tone.hz - 1000) <= 1, `${tone.hz} Hz`);
      const db = 20 * Math.log10(tone.rms / SINE_RMS);
      assert.ok(Math.abs(db) <= 0.5, `level ${db.toFixed(2)} dB off the file's`);
      const after = (await app.inject('/api/stats')).json();
      assert.equal(
        after.sources.filter((s: { name: string }) => s.name.startsWith('playurl/')).length,
        0,
        'the source is gone once its audio ended',
      );
      assert.equal(after.plugins.played, 1);
    });
  }
});

test('playurlmultiple plays three files in order without a gap over 50 ms', async (t) => {
  const dir = tempDir(t);
  const tones = [500, 1000, 1500];
  for (const [i, hz] of tones.entries()) encodeTone(dir, `t${i}`, 'flac', { hz, seconds: 1 });
  const server = await audioServer(t, dir);
  const { app, sink, playing } = await router(t);
  const before = sink.frames();
  const res = await app.inject({
    method: 'POST',
    url: '/plugins/playurlmultiple/play',
    payload: { urls: tones.map((_, i) => server.url(`/files/t${i}.flac`)), sink: 'Kitchen' },
  });
  assert.equal(res.statusCode, 200, res.body);
  await until('the playback to end', async () => (await playing()).length === 0, 15_000);
  await sleep(300);
  const x = sink.left().subarray(before);
  const blocks = blockRms(x);
  const loud = blocks.map((r) => r > SINE_RMS / 4);
  const first = loud.indexOf(true);
  const last = loud.lastIndexOf(true);
  assert.ok(first >= 0, 'the tones arrived');
  let gap = 0;
  let run = 0;
  for (let i = first; i <= last; i++) {
    run = loud[i] ? 0 : run + 1;
    gap = Math.max(gap, run);
  }
  assert.ok(gap * 10 <= 50, `a gap of ${gap * 10} ms between files`);
  const played = (last - first + 1) * 10;
  assert.ok(Math.abs(played - 3000) <= 80, `${played} ms of tone for 3 s of files`);
  // In order: each second measured on its own.
  const rate = 48000;
  for (const [i, hz] of tones.entries()) {
    const from = (first * 10 + i * 1000 + 200) * (rate / 1000);
    const part = x.subarray(from, from + 0.6 * rate);
    const tone = measureTone(part, rate, { maxSeconds: 0.6 });
    assert.ok(Math.abs(tone.hz - hz) <= 2, `file ${i}: ${tone.hz} Hz, wanted ${hz}`);
  }
});

test('a stream that never ends plays until DELETE, and stops within a second', async (t) => {
  const dir = tempDir(t);
  const file = encodeTone(dir, 'loop', 'mp3', { seconds: 5, rate: 48000 });
  const server = await audioServer(t, dir, { stream: file, streamBytesPerS: 192_000 / 8 + 2000 });
  const { app, sink, playing } = await router(t);
  const res = await app.inject(play(server.url('/stream.mp3')));
  assert.equal(res.statusCode, 200, res.body);
  const { id } = res.json();
  await sleep(4000);
  assert.equal((await playing()).length, 1, 'still playing after 4 s');
  const recent = blockRms(sink.left().subarray(-48000));
  assert.ok(
    recent.filter((r) => r > SINE_RMS / 2).length >= 90,
    'the last second carried the tone',
  );
  const stopped = await app.inject({ method: 'DELETE', url: `/plugins/playurl/${id}` });
  assert.equal(stopped.statusCode, 200, stopped.body);
  const at = sink.frames();
  await until('the listing to empty', async () => (await playing()).length === 0, 2000);
  await sleep(1000);
  const tail = blockRms(sink.left().subarray(at + 48000 * 0.5));
  assert.ok(tail.length > 20 && tail.every((r) => r < 0.001), 'silence after the stop');
  const again = await app.inject({ method: 'DELETE', url: `/plugins/playurl/${id}` });
  assert.equal(again.statusCode, 404);
});

describe('what cannot play gets its documented status, within the timeout', () => {
  let refused = 0;
  before(async () => {
    refused = await closedPort();
  });
  const cases: [string, (url: (p: string) => string) => string, number, RegExp][] = [
    ['a scheme other than http, https or file', () => 'ftp://127.0.0.1/a.mp3', 400, /scheme ftp:/],
    ['not a URL', () => 'chime.mp3', 400, /not an absolute URL/],
    ['a file URL with no directory set', () => 'file:///etc/passwd', 400, /file: URLs are off/],
    ['a missing file', (u) => u('/files/none.mp3'), 502, /answered 404/],
    ['HTML served as audio', (u) => u('/html'), 422, /./],
    ['a 1 GB file over the size limit', (u) => u('/huge'), 413, /max_bytes/],
    ['a host that never answers', (u) => u('/hang'), 504, /did not answer within 1500 ms/],
    ['too many redirects', (u) => u('/redirect/9'), 502, /more than 5 redirects/],
    ['a refused connection', () => `http://127.0.0.1:${refused}/a.mp3`, 502, /ECONNREFUSED/],
  ];
  for (const [what, url, status, message] of cases) {
    test(what, async (t) => {
      const dir = tempDir(t);
      const server = await audioServer(t, dir);
      const { app, playing } = await router(t, { max_bytes: 100 * 1024 * 1024 });
      const started = Date.now();
      const res = await app.inject(play(url(server.url)));
      const took = Date.now() - started;
      assert.equal(res.statusCode, status, res.body);
      assert.match(res.json().message, message);
      assert.ok(took < 1500 + 1000, `answered in ${took} ms`);
      assert.deepEqual(await playing(), []);
      const stats = (await app.inject('/api/stats')).json();
      assert.equal(stats.sources.length, 0, 'no source is left behind');
    });
  }

  test('an unknown sink is a 404 naming it, before anything is fetched', async (t) => {
    const dir = tempDir(t);
    const server = await audioServer(t, dir);
    const { app } = await router(t);
    const res = await app.inject(play(server.url('/files/tone.mp3'), 'Attic'));
    assert.equal(res.statusCode, 404);
    assert.match(res.json().message, /No sink named 'Attic'/);
    assert.deepEqual(server.hits, []);
  });

  test('a redirect chain within the limit is followed', async (t) => {
    const dir = tempDir(t);
    encodeTone(dir, 'tone', 'mp3', { seconds: 1 });
    const server = await audioServer(t, dir);
    const { app } = await router(t);
    const res = await app.inject(play(server.url('/redirect/3')));
    assert.equal(res.statusCode, 200, res.body);
    assert.deepEqual(server.hits, ['/redirect/3', '/redirect/2', '/redirect/1', '/files/tone.mp3']);
  });

  test('a list skips what fails and reports it; all failing answers the last error', async (t) => {
    const dir = tempDir(t);
    encodeTone(dir, 'tone', 'wav', { seconds: 1 });
    const server = await audioServer(t, dir);
    const { app, playing } = await router(t);
    const res = await app.inject({
      method: 'POST',
      url: '/plugins/playurlmultiple/play',
      payload: { urls: [server.url('/html'), server.url('/files/tone.wav')], sink: 'Kitchen' },
    });
    assert.equal(res.statusCode, 200, res.body);
    const { playback } = res.json();
    assert.equal(playback.items[0].state, 'skipped');
    assert.equal(playback.items[0].status, 422);
    assert.equal(playback.items[1].state, 'playing');
    await until('the end', async () => (await playing()).length === 0);
    assert.equal((await app.inject('/api/stats')).json().plugins.skipped, 1);

    const none = await app.inject({
      method: 'POST',
      url: '/plugins/playurlmultiple/play',
      payload: { urls: [server.url('/html'), server.url('/hang')], sink: 'Kitchen' },
    });
    assert.equal(none.statusCode, 504, none.body);
  });
});
