// The dashboard's files at `/`: index.html for the app's own routes, hashed assets cached for a
// year and sent pre-compressed, the API's JSON 404 kept under its prefixes, no token needed for
// the files (the page asks for it) but still for everything under the API.
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { brotliCompressSync } from 'node:zlib';
import { build, tempDir } from '../helpers.js';

const INDEX = '<!doctype html><title>Tributary</title><div id="root"></div>';
const SCRIPT = `console.log(${JSON.stringify('x'.repeat(2000))});`;

function fakeBuild(dir: string): string {
  const root = join(dir, 'dist');
  mkdirSync(join(root, 'assets'), { recursive: true });
  writeFileSync(join(root, 'index.html'), INDEX);
  writeFileSync(join(root, 'assets', 'index-4f2a9c.js'), SCRIPT);
  writeFileSync(join(root, 'assets', 'index-4f2a9c.js.br'), brotliCompressSync(SCRIPT));
  writeFileSync(join(root, 'icon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
  return root;
}

describe('the dashboard at /', () => {
  test('index.html at / and at client routes, never cached', async (t) => {
    const app = await build(t, { dashboardDirectory: fakeBuild(tempDir(t)) });
    for (const url of ['/', '/site/DesktopMenu', '/anything/else?x=1']) {
      const res = await app.inject(url);
      assert.equal(res.statusCode, 200, url);
      assert.match(String(res.headers['content-type']), /text\/html/);
      assert.equal(res.body, INDEX);
      assert.equal(res.headers['cache-control'], 'no-cache');
    }
  });

  test('assets: cached for a year, brotli when the browser takes it, 404 when missing', async (t) => {
    const app = await build(t, { dashboardDirectory: fakeBuild(tempDir(t)) });
    const plain = await app.inject('/assets/index-4f2a9c.js');
    assert.equal(plain.statusCode, 200);
    assert.equal(plain.body, SCRIPT);
    assert.equal(plain.headers['cache-control'], 'public, max-age=31536000, immutable');
    assert.match(String(plain.headers['content-type']), /javascript/);
    const br = await app.inject({
      url: '/assets/index-4f2a9c.js',
      headers: { 'accept-encoding': 'gzip, br' },
    });
    assert.equal(br.headers['content-encoding'], 'br');
    assert.ok(br.rawPayload.length < SCRIPT.length / 4);
    assert.equal((await app.inject('/icon.svg')).statusCode, 200);
    const missing = await app.inject('/assets/gone-123.js');
    assert.equal(missing.statusCode, 404);
    assert.equal(missing.json().code, 'TRIBUTARY_NOT_FOUND');
    assert.equal((await app.inject('/assets/../../etc/passwd.txt')).statusCode, 404);
  });

  test('unknown paths under the API prefixes keep the JSON 404', async (t) => {
    const app = await build(t, { dashboardDirectory: fakeBuild(tempDir(t)) });
    for (const url of [
      '/api/nope',
      '/ws/nope',
      '/sinks/a/b/c',
      '/stream/x',
      '/plugins',
      '/equalizers/a/b',
    ]) {
      const res = await app.inject(url);
      assert.equal(res.statusCode, 404, url);
      assert.equal(res.json().code, 'TRIBUTARY_NOT_FOUND', url);
    }
    assert.equal((await app.inject('/sinks')).statusCode, 200);
    assert.equal((await app.inject({ method: 'POST', url: '/site/DesktopMenu' })).statusCode, 404);
  });

  test('with API_TOKEN the files load without it, the API does not', async (t) => {
    const app = await build(t, { apiToken: 's3cret', dashboardDirectory: fakeBuild(tempDir(t)) });
    assert.equal((await app.inject('/')).statusCode, 200);
    assert.equal((await app.inject('/assets/index-4f2a9c.js')).statusCode, 200);
    assert.equal((await app.inject('/api/config')).statusCode, 401);
    assert.equal((await app.inject('/sinks/x/y/z')).statusCode, 401);
    assert.equal((await app.inject('/api/nope')).statusCode, 401);
  });

  test('not built: a page that says how to build it, 503', async (t) => {
    const app = await build(t, { dashboardDirectory: join(tempDir(t), 'missing') });
    const res = await app.inject('/');
    assert.equal(res.statusCode, 503);
    assert.match(res.body, /npm run build/);
    assert.equal((await app.inject('/assets/x.js')).statusCode, 404);
  });
});
