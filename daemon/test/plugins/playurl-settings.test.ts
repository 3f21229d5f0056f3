// The play-URL limits are config.yaml settings (plugins.playurl): their defaults are the limits
// the plugins had as constants, a lowered one is enforced, a hand edit applies to the next
// request without a restart, an out-of-range value is refused naming the field; and the
// playbacks' log lines are capped per minute, the rest counted in GET /api/stats.
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { run as configCheck } from '../../src/commands/config-check.js';
import { PLAYURL_LOG_LINES_PER_MINUTE } from '../../src/product-plugins/playurl/limits.js';
import { PLAYURL_SETTINGS_DEFAULTS, PlayUrlSettings } from '../../src/schema/plugin-settings.js';
import { build, runCommand, tempDir } from '../helpers.js';
import { audioServer, closedPort, encodeTone, play, router } from './harness.js';

test('without plugins.playurl the limits are those the plugins always had', async (t) => {
  const app = await build(t);
  const { config } = (await app.inject('/api/config')).json();
  assert.deepEqual(config.plugins, {
    playurl: {
      max_playing: 8,
      max_urls: 32,
      max_bytes: 512 * 1024 * 1024,
      max_seconds: 0,
      connect_timeout_ms: 10_000,
      read_timeout_ms: 15_000,
      max_redirects: 5,
    },
  });
});

test('the plugins page lists every setting with its range and default, as the schema has them', () => {
  const page = readFileSync(new URL('../../../content/docs/plugins.mdx', import.meta.url), 'utf8');
  const rows = new Map(
    [...page.matchAll(/^\| `plugins\.playurl\.([a-z_]+)` \|.*\| (\d+) to (\d+) \| `(\d+)`/gm)].map(
      (m) => [m[1], { minimum: Number(m[2]), maximum: Number(m[3]), default: Number(m[4]) }],
    ),
  );
  const fields = Object.entries(PlayUrlSettings.properties).map(([field, schema]) => [
    field,
    { minimum: schema.minimum, maximum: schema.maximum, default: schema.default },
  ]);
  assert.deepEqual(Object.fromEntries(rows), Object.fromEntries(fields));
  assert.deepEqual(
    Object.fromEntries(fields.map(([f, s]) => [f, (s as { default: number }).default])),
    PLAYURL_SETTINGS_DEFAULTS,
  );
});

test('max_playing 1: a second play is refused with 503 until the hand edit that raises it', async (t) => {
  const dir = tempDir(t);
  const stream = encodeTone(dir, 'tone', 'mp3', { seconds: 2 });
  const server = await audioServer(t, dir, { stream });
  const { app } = await router(t, { max_playing: 1 });
  const first = await app.inject(play(server.url('/stream.mp3')));
  assert.equal(first.statusCode, 200, first.body);
  const second = await app.inject(play(server.url('/stream.mp3')));
  assert.equal(second.statusCode, 503, second.body);
  assert.match(second.json().message, /plugins\.playurl\.max_playing/);

  // A hand edit of config.yaml, picked up while the first still plays: the next request gets it.
  const file = join(app.dir, 'config.yaml');
  const text = readFileSync(file, 'utf8');
  assert.match(text, /max_playing: 1\n/, 'the daemon writes the section back');
  writeFileSync(file, text.replace('max_playing: 1\n', 'max_playing: 2\n'));
  await app.configStore.reload();
  assert.equal(app.configStore.snapshot().config.plugins.playurl.max_playing, 2);
  const third = await app.inject(play(server.url('/stream.mp3')));
  assert.equal(third.statusCode, 200, third.body);
  assert.equal((await app.inject('/plugins/playurl/')).json().length, 2);
});

test('max_bytes lowered: a file over it is refused with 413 naming the setting', async (t) => {
  const dir = tempDir(t);
  const file = encodeTone(dir, 'tone', 'wav', { seconds: 1 });
  const server = await audioServer(t, dir);
  const { app } = await router(t, { max_bytes: 4096 });
  const res = await app.inject(play(server.url('/files/tone.wav')));
  assert.equal(res.statusCode, 413, res.body);
  const size = readFileSync(file).length;
  assert.equal(
    res.json().message,
    `url: ${size} bytes is more than plugins.playurl.max_bytes (4096)`,
    res.body,
  );
});

test('max_urls lowered: a longer list is refused with 400 naming the setting', async (t) => {
  const { app } = await router(t, { max_urls: 2 });
  const res = await app.inject({
    method: 'POST',
    url: '/plugins/playurlmultiple/play',
    payload: {
      urls: ['http://127.0.0.1/a.mp3', 'http://127.0.0.1/b.mp3', 'http://127.0.0.1/c.mp3'],
      sink: 'Kitchen',
    },
  });
  assert.equal(res.statusCode, 400, res.body);
  assert.match(res.json().message, /3 URLs is more than plugins\.playurl\.max_urls \(2\)/);
});

test('an out-of-range setting is refused by config check and by a reload, naming the field', async (t) => {
  const dir = tempDir(t);
  const file = join(dir, 'config.yaml');
  writeFileSync(
    file,
    'plugins:\n  playurl:\n    max_playing: 0\n    max_bytes: 1000000000000\n    max_redirects: 50\n',
  );
  const res = await runCommand(configCheck, [file]);
  assert.equal(res.status, 1, res.stdout);
  for (const expected of [
    'plugins.playurl.max_playing must be >= 1 (got 0)',
    'plugins.playurl.max_bytes must be <= 4294967296 (got 1000000000000)',
    'plugins.playurl.max_redirects must be <= 10 (got 50)',
  ]) {
    assert.ok(res.stdout.includes(`${file}: ${expected}`), `${expected}\n${res.stdout}`);
  }

  // A running daemon keeps what it had when a hand edit breaks a bound, and logs why.
  const logs: string[] = [];
  const app = await build(t, { logs });
  writeFileSync(join(app.dir, 'config.yaml'), 'plugins:\n  playurl:\n    max_playing: 1000\n');
  await app.configStore.reload();
  assert.equal(app.configStore.snapshot().config.plugins.playurl.max_playing, 8);
  assert.ok(
    logs.some((l) => l.includes('plugins.playurl.max_playing must be <= 32 (got 1000)')),
    logs.join(''),
  );
});

test('100 failing plays write at most the per-minute cap of lines; the rest are counted', async (t) => {
  const refused = await closedPort();
  const logs: string[] = [];
  const windowMs = 10_000;
  const { app } = await router(t, {}, { logs, logWindowMs: windowMs });
  const lines = () =>
    logs.map((l) => JSON.parse(l)).filter((l) => l.plugin === 'playurl' && l.level >= 30);
  const started = Date.now();
  for (let i = 0; i < 100; i++) {
    const res = await app.inject(play(`http://127.0.0.1:${refused}/${i}.mp3`));
    assert.equal(res.statusCode, 502, res.body);
  }
  const took = Date.now() - started;
  assert.ok(took < windowMs, `the 100 plays took ${took} ms, more than the window`);
  assert.equal(lines().length, PLAYURL_LOG_LINES_PER_MINUTE);
  assert.ok(lines().every((l) => /skipped http:\/\/127\.0\.0\.1:\d+\/\d+\.mp3/.test(l.msg)));
  const dropped = 100 - PLAYURL_LOG_LINES_PER_MINUTE;
  const stats = (await app.inject('/api/stats')).json().plugins;
  assert.equal(stats.log_suppressed, dropped);
  assert.equal(stats.skipped, 100);

  // The first line after the window says how many were left out.
  await sleep(windowMs - (Date.now() - started) + 100);
  await app.inject(play(`http://127.0.0.1:${refused}/last.mp3`));
  const after = lines().slice(PLAYURL_LOG_LINES_PER_MINUTE);
  assert.equal(after.length, 2, JSON.stringify(after));
  assert.equal(after[0].msg, `playurl: (${dropped} more like this in the last minute, not logged)`);
  assert.match(after[1].msg, /skipped .*last\.mp3/);
  assert.equal((await app.inject('/api/stats')).json().plugins.log_suppressed, dropped);
});
