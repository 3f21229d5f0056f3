import assert from 'node:assert/strict';
import { X509Certificate } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { loadCertificate } from '../../src/http/certificate.js';
import { tempDir } from '../helpers.js';

test('the generated certificate is kept, and renewed once it is about to expire', async (t) => {
  const dir = tempDir(t);
  const options = {
    certificatePath: null,
    certificateKeyPath: null,
    directory: dir,
    keyBits: 2048,
  };
  const first = await loadCertificate(options);
  assert.equal(first.generated, true);
  const again = await loadCertificate(options);
  assert.equal(again.generated, false, 'an existing valid certificate is reused');
  assert.equal(again.cert, first.cert);
  const later = new Date(first.validTo.getTime() - 3600_000); // an hour before it expires
  const renewed = await loadCertificate({ ...options, now: later });
  assert.equal(renewed.generated, true);
  assert.notEqual(renewed.cert, first.cert);
  assert.equal(readFileSync(join(dir, 'tributary.crt'), 'utf8'), renewed.cert);
  const x509 = new X509Certificate(renewed.cert);
  assert.ok(x509.checkHost('localhost'));
  assert.ok(x509.checkIP('::1'));
});

test('a given certificate that cannot be read is an error naming the variable', async () => {
  await assert.rejects(
    loadCertificate({
      certificatePath: '/nonexistent/c.pem',
      certificateKeyPath: '/nonexistent/k.pem',
      directory: '/tmp',
    }),
    /CERTIFICATE: cannot read \/nonexistent\/c\.pem/,
  );
});
