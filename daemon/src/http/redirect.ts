// Where the plain-HTTP port sends a browser: the same host name it asked for, on the HTTPS
// port. The Host header is the client's to write, so it is used only when it is a host name or
// an IP address (and an optional port); anything else (`evil.example/phish?`, spaces, a user
// name) falls back to the address the request arrived on. The path is the request's own.
import { isIP } from 'node:net';

const LABEL = /^(?!-)[A-Za-z0-9-]{1,63}(?<!-)$/;

/** The host part of a Host header (no port) if it is a valid name or address, else null. */
export function validHost(header: string | undefined): string | null {
  if (!header) return null;
  const m = /^(\[[^\]]+\]|[^:[\]]+)(?::(\d{1,5}))?$/.exec(header);
  if (!m) return null;
  const host = m[1]!;
  if (host.startsWith('[')) return isIP(host.slice(1, -1)) === 6 ? host : null;
  if (isIP(host) === 4) return host;
  const name = host.endsWith('.') ? host.slice(0, -1) : host;
  if (name.length > 253 || !name.split('.').every((l) => LABEL.test(l))) return null;
  return host;
}

/** The address a connection arrived on, as a URL host. */
function urlHostOf(address: string | undefined): string {
  const a = (address ?? '127.0.0.1').replace(/^::ffff:(?=\d+\.)/, '');
  return a.includes(':') ? `[${a.replace(/%.*$/, '')}]` : a;
}

/** The Location of the redirect for a request (`url` as given: path or absolute form). */
export function redirectLocation(
  hostHeader: string | undefined,
  url: string | undefined,
  localAddress: string | undefined,
  httpsPort: number,
): string {
  const host = validHost(hostHeader) ?? urlHostOf(localAddress);
  let path = '/';
  try {
    const parsed = new URL(url ?? '/', 'http://localhost');
    path = `${parsed.pathname}${parsed.search}`;
  } catch {
    // Not a URL at all: the root.
  }
  return `https://${host}${httpsPort === 443 ? '' : `:${httpsPort}`}${path}`;
}
