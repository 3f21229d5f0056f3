// The plain-HTTP port: it sends a browser to the same host name it asked for, on the HTTPS
// port, with the request's own path. The Host header is the client's to write, so it is used
// only when it names this server (server-names.ts, as the API's Host check); a request naming
// another host is answered 421 like the API would, so the redirect never points anywhere else.
// Without a Host header (HTTP/1.0) it goes to the address the request arrived on.
// One exception: a GET of an MP3 stream (`/stream/{ip}` or `/stream/{ip}/`, one path segment)
// is answered here, by the app's own route and guards (Host, token, listener cap), because
// players, smart speakers and home-automation media players cannot trust a self-signed
// certificate. The stream is read-only audio; every other request is redirected as before.
import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import type { FastifyInstance } from 'fastify';
import { errorBody } from './error-body.js';
import { misdirected } from './host-check.js';
import { validHost } from './server-names.js';

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

/** A request the plain-HTTP port serves itself: GET of one sink's MP3 stream. */
export function isStreamRequest(method: string | undefined, url: string | undefined): boolean {
  return method === 'GET' && /^\/stream\/[^/?#]+\/?(?:\?[^#]*)?$/.test(url ?? '');
}

/** The redirect server's request handler, with the app's names and refusal counters. */
export function redirectHandler(fastify: FastifyInstance, httpsPort: number): RequestListener {
  return (req: IncomingMessage, res: ServerResponse) => {
    if (isStreamRequest(req.method, req.url)) {
      fastify.routing(req, res);
      return;
    }
    const host = req.headers.host;
    if (host !== undefined && !fastify.serverNames.accepts(host)) {
      fastify.refusals.count(
        'unknown_host',
        `refused to redirect ${req.method} ${req.url?.slice(0, 100)} from ` +
          `${req.socket.remoteAddress}: Host '${host.slice(0, 100)}' is not a name of this ` +
          'server (ALLOWED_HOSTS)',
      );
      res.writeHead(421, { 'content-type': 'application/json; charset=utf-8' });
      res.end(JSON.stringify(errorBody(misdirected(host) as never, 421)));
      return;
    }
    const location = redirectLocation(host, req.url, req.socket.localAddress, httpsPort);
    res.writeHead(308, { location, 'content-type': 'text/plain; charset=utf-8' });
    res.end(`Tributary is served over HTTPS: ${location}\n`);
  };
}
