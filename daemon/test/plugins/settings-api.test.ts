// The play-URL limits through the API (GET/PUT /api/plugins/playurl/settings): a change is saved
// to config.yaml, survives a restart and applies to the next play request; a hand edit still
// works; a value out of range is refused naming the field and the rule, with nothing saved; a
// change from another site's page is refused.
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { PLAYURL_SETTINGS_DEFAULTS } from '../../src/schema/plugin-settings.js';
import { build, tempDir } from '../helpers.js';

const URL = '/api/plugins/playurl/settings';

const put = (payload: unknown, headers: Record<string, string> = {}) => ({
  method: 'PUT' as const,
  url: URL,
  payload: payload as Record<string, unknown>,
  headers,
});

test('a PUT is saved to config.yaml, answered whole, kept across a restart and applied', async (t) => {
  const dir = tempDir(t);
  const first = await build(t, { dir });
  const before = await first.inject(URL);
  assert.equal(before.statusCode, 200, before.body);
  assert.deepEqual(before.json(), PLAYURL_SETTINGS_DEFAULTS);

  const res = await first.inject(put({ max_urls: 2, max_seconds: 600 }));
  assert.equal(res.statusCode, 200, res.body);
  const expected = { ...PLAYURL_SETTINGS_DEFAULTS, max_urls: 2, max_seconds: 600 };
  assert.deepEqual(res.json(), expected);
  assert.deepEqual((await first.inject(URL)).json(), expected);
  assert.deepEqual((await first.inject('/api/config')).json().config.plugins.playurl, expected);
  const text = readFileSync(join(dir, 'config.yaml'), 'utf8');
  assert.match(text, /^plugins:\n {2}playurl:\n(?: {4}.*\n)*? {4}max_urls: 2\n/m, text);
  assert.match(text, /^ {4}max_seconds: 600\n/m, text);

  // The next play request gets the new limit.
  const urls = ['http://127.0.0.1/a.mp3', 'http://127.0.0.1/b.mp3', 'http://127.0.0.1/c.mp3'];
  const many = await first.inject({
    method: 'POST',
    url: '/plugins/playurlmultiple/play',
    payload: { urls, sink: 'Kitchen' },
  });
  assert.equal(many.statusCode, 400, many.body);
  assert.match(many.json().message, /3 URLs is more than plugins\.playurl\.max_urls \(2\)/);

  // A restart over the same folder reads them back.
  await first.close();
  const second = await build(t, { dir });
  assert.deepEqual((await second.inject(URL)).json(), expected);

  // A hand edit still works, and the API shows it.
  const file = join(dir, 'config.yaml');
  writeFileSync(file, readFileSync(file, 'utf8').replace('max_urls: 2\n', 'max_urls: 5\n'));
  await second.configStore.reload();
  assert.deepEqual((await second.inject(URL)).json(), { ...expected, max_urls: 5 });
});

test('out-of-range and unknown fields are refused naming the field and the rule; nothing is saved', async (t) => {
  const app = await build(t);
  const saved = await app.inject(put({ max_playing: 4 }));
  assert.equal(saved.statusCode, 200, saved.body);
  const file = join(app.dir, 'config.yaml');
  const text = readFileSync(file, 'utf8');

  for (const [body, path, message] of [
    [{ max_playing: 100 }, 'max_playing', 'max_playing must be <= 32 (got 100)'],
    [{ max_redirects: -1 }, 'max_redirects', 'max_redirects must be >= 0 (got -1)'],
    [{ max_bytes: 1.5 }, 'max_bytes', 'max_bytes must be integer (got 1.5)'],
    [{ max_seconds: '60' }, 'max_seconds', 'max_seconds must be integer (got "60")'],
    [{ max_urls: 3, loud: true }, 'loud', 'loud is not a known field (got true)'],
  ] as const) {
    const res = await app.inject(put(body));
    assert.equal(res.statusCode, 400, `${JSON.stringify(body)}: ${res.body}`);
    const problems = res.json().details as { path: string; message: string }[];
    assert.ok(
      problems.some((p) => p.path.endsWith(path) && p.message.endsWith(message)),
      `${JSON.stringify(body)}: ${res.body}`,
    );
  }
  assert.equal(readFileSync(file, 'utf8'), text, 'config.yaml is untouched');
  assert.equal((await app.inject(URL)).json().max_playing, 4);
  assert.equal((await app.inject(URL)).json().max_urls, 32);
});

test("a change from another site's page is refused (403) and nothing is saved", async (t) => {
  const app = await build(t);
  const res = await app.inject(
    put({ max_playing: 1 }, { origin: 'https://evil.example', 'sec-fetch-site': 'cross-site' }),
  );
  assert.equal(res.statusCode, 403, res.body);
  assert.equal((await app.inject(URL)).json().max_playing, PLAYURL_SETTINGS_DEFAULTS.max_playing);
  // The dashboard's own page (same origin) may change them.
  const same = await app.inject(
    put({ max_playing: 1 }, { origin: 'http://localhost:80', host: 'localhost:80' }),
  );
  assert.equal(same.statusCode, 200, same.body);
  assert.equal((await app.inject(URL)).json().max_playing, 1);
});

test('with API_TOKEN, the settings need the token like every route', async (t) => {
  const app = await build(t, { apiToken: 'secret-token-1234' });
  assert.equal((await app.inject(URL)).statusCode, 401);
  assert.equal((await app.inject(put({ max_playing: 2 }))).statusCode, 401);
  const res = await app.inject(
    put({ max_playing: 2 }, { authorization: 'Bearer secret-token-1234' }),
  );
  assert.equal(res.statusCode, 200, res.body);
});
