import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { PlaybackView, Problem, StatsMessage } from '../src/api/schema';
import {
  currentItem,
  playbackLabel,
  playbackSignal,
  playbacksOn,
  playUrlRefusal,
  somethingPlays,
  urlLabel,
} from '../src/lib/playbacks';

type Item = PlaybackView['items'][number];
const item = (url: string, state: Item['state']): Item => ({
  url,
  state,
  error: null,
  codec: null,
});
const playback = (
  id: string,
  sink: string,
  items: Item[],
  playing: number | null,
): PlaybackView => ({
  id,
  sink,
  started_at: '2026-12-06T15:00:00.000Z',
  playing,
  items,
});

test('a playback shows on the card of the sink it names, by name or by config_id', () => {
  const list = [
    playback('a', 'Kitchen', [item('http://h/a.mp3', 'playing')], 0),
    playback('b', 'sink-2', [item('http://h/b.mp3', 'playing')], 0),
    playback('c', 'Downstairs', [item('http://h/c.mp3', 'playing')], 0),
  ];
  assert.deepEqual(
    playbacksOn(list, { name: 'Kitchen', config_id: 'sink-1' }).map((p) => p.id),
    ['a'],
  );
  assert.deepEqual(
    playbacksOn(list, { name: 'Office', config_id: 'sink-2' }).map((p) => p.id),
    ['b'],
  );
  assert.deepEqual(playbacksOn(list, { name: 'Bath', config_id: 'sink-9' }), []);
});

test('the card names the URL playing, else the next to open, else the last', () => {
  const list = [item('http://h/one.mp3', 'played'), item('http://h/two.mp3', 'playing')];
  assert.equal(currentItem(playback('p', 'K', list, 1))?.url, 'http://h/two.mp3');
  const between = [item('http://h/one.mp3', 'played'), item('http://h/two.mp3', 'opening')];
  assert.equal(currentItem(playback('p', 'K', between, null))?.url, 'http://h/two.mp3');
  const over = [item('http://h/one.mp3', 'played'), item('http://h/two.mp3', 'skipped')];
  assert.equal(currentItem(playback('p', 'K', over, null))?.url, 'http://h/two.mp3');
  assert.equal(currentItem(playback('p', 'K', [], null)), undefined);
});

test('a URL reads as its file name, decoded, or its host for a bare stream', () => {
  assert.equal(urlLabel('http://192.168.1.20:8123/api/tts_proxy/chime.mp3'), 'chime.mp3');
  assert.equal(urlLabel('https://radio.example/live%20jazz.ogg?x=1'), 'live jazz.ogg');
  assert.equal(urlLabel('http://radio.example:8000/'), 'radio.example:8000');
  assert.equal(urlLabel('file:///srv/sounds/bell.wav'), 'bell.wav');
  assert.equal(urlLabel('http://h/%E0%A4%A.mp3'), '%E0%A4%A.mp3');
  assert.equal(urlLabel('not a url'), 'not a url');
});

test('a list says where it is; one URL does not', () => {
  const list = [
    item('http://h/a.mp3', 'played'),
    item('http://h/b.mp3', 'playing'),
    item('http://h/c.mp3', 'waiting'),
  ];
  assert.equal(playbackLabel(playback('p', 'K', list, 1)), 'b.mp3 (2 of 3)');
  assert.equal(playbackLabel(playback('p', 'K', [item('http://h/a.mp3', 'playing')], 0)), 'a.mp3');
});

test('the signal changes when a playback starts, ends or skips, and only then', () => {
  const stats = (playing: number, played: number, skipped: number) =>
    ({ plugins: { plugins: [], playing, played, skipped } }) as unknown as StatsMessage;
  assert.equal(playbackSignal(null), '');
  const idle = playbackSignal(stats(0, 0, 0));
  const started = playbackSignal(stats(1, 1, 0));
  const ended = playbackSignal(stats(0, 1, 0));
  const again = playbackSignal(stats(1, 2, 0));
  assert.equal(new Set([idle, started, ended, again]).size, 4);
  assert.equal(playbackSignal(stats(1, 1, 0)), started);
  assert.notEqual(playbackSignal(stats(1, 1, 1)), started);
  assert.equal(somethingPlays(stats(0, 3, 1)), false);
  assert.equal(somethingPlays(stats(2, 3, 1)), true);
  assert.equal(somethingPlays(null), false);
});

test("a refusal goes next to the URL field in the API's words", () => {
  const problem = (path: string, rule: string): Problem => ({
    path,
    keyword: 'playurl',
    rule,
    message: `${path} ${rule}`,
  });
  // 400 from the plugin: the problem names the field; its path is dropped next to the field.
  assert.equal(
    playUrlRefusal(400, 'Invalid request', [
      problem('urls', 'scheme ftp: is not played (http, https, file)'),
    ]),
    'scheme ftp: is not played (http, https, file)',
  );
  // 400 from the schema, on the list's first entry.
  assert.equal(
    playUrlRefusal(400, 'Invalid request', [
      problem('urls[0]', 'must NOT have fewer than 1 characters'),
    ]),
    'must NOT have fewer than 1 characters',
  );
  // A problem about something else keeps its path, so it says what it is about.
  assert.equal(
    playUrlRefusal(400, 'Invalid request', [
      problem('sink', 'must NOT have more than 256 characters'),
    ]),
    'sink must NOT have more than 256 characters',
  );
  assert.equal(playUrlRefusal(400, 'Bad request', []), 'Bad request');
  for (const [status, message] of [
    [404, "No sink named 'Gone'"],
    [413, 'urls: the file is 2000000000 bytes, over plugins.playurl.max_bytes'],
    [422, 'urls: not audio: the content is text/html'],
    [502, 'urls: 127.0.0.1:9: connection refused'],
    [503, 'plugins.playurl.max_playing playbacks already play'],
    [504, 'urls: no answer within 5000 ms'],
  ] as const) {
    assert.equal(playUrlRefusal(status, message, []), message);
  }
});
