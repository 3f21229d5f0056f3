// The names a real daemon answers to besides the machine's own: those of ALLOWED_HOSTS and
// those of a certificate given with CERTIFICATE (its subjectAltName), on the API and on the
// HTTP port's redirect; any other name is 421 on both.
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { join } from 'node:path';
import { test } from 'node:test';
import { generate } from 'selfsigned';
import { certificateNames } from '../../src/http/certificate.js';
import { startDaemon } from '../daemon-process.js';
import { tempDir } from '../helpers.js';

/** Status and Location of a request to `url` with the given Host header. */
function ask(url: string, host: string): Promise<{ status?: number; location?: string }> {
  const request = url.startsWith('https:') ? httpsRequest : httpRequest;
  return new Promise((resolve, reject) => {
    request(url, { headers: { host }, rejectUnauthorized: false }, (res) => {
      res.resume();
      resolve({ status: res.statusCode, location: res.headers.location });
    })
      .on('error', reject)
      .end();
  });
}

test('ALLOWED_HOSTS and the names of the given certificate are accepted (API and redirect); other names are 421', async (t) => {
  const dir = tempDir(t);
  const pems = await generate([{ name: 'commonName', value: 'tributary.home.arpa' }], {
    keyType: 'rsa',
    keySize: 2048,
    extensions: [
      {
        name: 'subjectAltName',
        altNames: [
          { type: 2, value: 'tributary.home.arpa' },
          { type: 2, value: '*.tributary.home.arpa' },
          { type: 7, ip: '127.0.0.1' },
        ],
      },
    ],
  });
  writeFileSync(join(dir, 'given.crt'), pems.cert);
  writeFileSync(join(dir, 'given.key'), pems.private);
  assert.deepEqual(certificateNames(pems.cert), ['tributary.home.arpa'], 'wildcards left out');
  const daemon = await startDaemon(dir, {
    CERTIFICATE: join(dir, 'given.crt'),
    CERTIFICATE_KEY: join(dir, 'given.key'),
    ALLOWED_HOSTS: 'music.example.org, 192.0.2.10',
  });
  t.after(() => daemon.stop('SIGKILL'));
  const apiPort = new URL(daemon.apiUrl).port;
  for (const name of ['tributary.home.arpa', 'music.example.org', '192.0.2.10', '127.0.0.1']) {
    const api = await ask(`${daemon.apiUrl}/api/health`, `${name}:${apiPort}`);
    assert.equal(api.status, 200, `API, Host ${name}`);
    const redirect = await ask(`${daemon.httpUrl}/x`, name);
    assert.deepEqual(
      [redirect.status, redirect.location],
      [308, `https://${name}:${apiPort}/x`],
      `redirect, Host ${name}`,
    );
  }
  for (const name of ['www.tributary.home.arpa', 'example.org', '192.0.2.11']) {
    assert.equal((await ask(`${daemon.apiUrl}/api/health`, name)).status, 421, `API, Host ${name}`);
    assert.equal((await ask(`${daemon.httpUrl}/x`, name)).status, 421, `redirect, Host ${name}`);
  }
  assert.equal(await daemon.stop('SIGTERM'), 0);
});
