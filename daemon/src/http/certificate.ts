// The HTTPS certificate: the one given by CERTIFICATE/CERTIFICATE_KEY, or a self-signed one
// generated on first start (ECDSA P-256, 365 days: milliseconds to make, where RSA 4096 took
// seconds) and kept beside the configuration. A pair already on disk is used whatever its key
// type, so an RSA certificate an earlier version generated keeps working until it expires.
import { X509Certificate } from 'node:crypto';
import { mkdir, readFile } from 'node:fs/promises';
import { hostname } from 'node:os';
import { dirname, join } from 'node:path';
import { generate } from 'selfsigned';
import { readTextIfExists, writeFileAtomic } from '../files.js';

export interface CertificatePair {
  readonly cert: string;
  readonly key: string;
  readonly certPath: string;
  readonly keyPath: string;
  /** True when this start generated it. */
  readonly generated: boolean;
  readonly validTo: Date;
}

export const CERT_FILE = 'tributary.crt';
export const KEY_FILE = 'tributary.key';

export interface CertificateOptions {
  /** Given by CERTIFICATE / CERTIFICATE_KEY; null: use or generate the self-signed pair. */
  readonly certificatePath: string | null;
  readonly certificateKeyPath: string | null;
  /** Where the generated pair lives (the configuration directory). */
  readonly directory: string;
  readonly now?: Date;
}

export async function loadCertificate(options: CertificateOptions): Promise<CertificatePair> {
  if (options.certificatePath && options.certificateKeyPath) {
    // Both read at once; when both fail, CERTIFICATE is named first whichever failed first.
    const [certRead, keyRead] = await Promise.allSettled([
      readFile(options.certificatePath, 'utf8'),
      readFile(options.certificateKeyPath, 'utf8'),
    ]);
    const unreadable = (name: string, path: string, result: PromiseRejectedResult) =>
      new Error(`${name}: cannot read ${path}: ${(result.reason as Error).message}`);
    if (certRead.status === 'rejected') {
      throw unreadable('CERTIFICATE', options.certificatePath, certRead);
    }
    if (keyRead.status === 'rejected') {
      throw unreadable('CERTIFICATE_KEY', options.certificateKeyPath, keyRead);
    }
    const [cert, key] = [certRead.value, keyRead.value];
    return {
      cert,
      key,
      certPath: options.certificatePath,
      keyPath: options.certificateKeyPath,
      generated: false,
      validTo: new Date(new X509Certificate(cert).validTo),
    };
  }
  const certPath = join(options.directory, CERT_FILE);
  const keyPath = join(options.directory, KEY_FILE);
  const now = options.now ?? new Date();
  const [cert, key] = await Promise.all([readTextIfExists(certPath), readTextIfExists(keyPath)]);
  if (cert !== null && key !== null) {
    const validTo = new Date(new X509Certificate(cert).validTo);
    // Renew a generated certificate that expired (or is about to): it is ours to replace.
    if (validTo.getTime() - now.getTime() > 24 * 3600 * 1000) {
      return { cert, key, certPath, keyPath, generated: false, validTo };
    }
  }
  return generateCertificate(certPath, keyPath, now);
}

async function generateCertificate(
  certPath: string,
  keyPath: string,
  now: Date,
): Promise<CertificatePair> {
  const host = hostname();
  const notAfter = new Date(now.getTime() + 365 * 24 * 3600 * 1000);
  const pems = await generate([{ name: 'commonName', value: host }], {
    keyType: 'ec',
    curve: 'P-256',
    algorithm: 'sha256', // ecdsa-with-SHA256
    notBeforeDate: now,
    notAfterDate: notAfter,
    extensions: [
      { name: 'basicConstraints', cA: false },
      // An ECDSA key signs (the TLS handshake); it never enciphers a key, as RSA's did.
      { name: 'keyUsage', digitalSignature: true },
      { name: 'extKeyUsage', serverAuth: true },
      {
        name: 'subjectAltName',
        altNames: [
          { type: 2, value: host },
          { type: 2, value: `${host}.local` },
          { type: 2, value: 'localhost' },
          { type: 7, ip: '127.0.0.1' },
          { type: 7, ip: '::1' },
        ],
      },
    ],
  });
  await mkdir(dirname(certPath), { recursive: true });
  await writeFileAtomic(keyPath, pems.private, 0o600);
  await writeFileAtomic(certPath, pems.cert);
  return {
    cert: pems.cert,
    key: pems.private,
    certPath,
    keyPath,
    generated: true,
    validTo: notAfter,
  };
}

/**
 * The DNS names a certificate is for (its subjectAltName; wildcards left out): names of this
 * server the Host check accepts, so a certificate made for `tributary.home.arpa` needs no
 * ALLOWED_HOSTS entry too.
 */
export function certificateNames(pem: string): string[] {
  const names = new X509Certificate(pem).subjectAltName ?? '';
  return [...names.matchAll(/(?:^|, )DNS:([^,\s]+)/g)]
    .map((m) => m[1]!)
    .filter((name) => !name.includes('*'));
}
