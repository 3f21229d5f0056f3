// Changes through GET (the specification's setters: /sinks/{name}/volume/{v}, ...) can be made
// by any web page a user visits: a link, an image or a fetch sends a GET to the daemon with the
// browser's cookies. Browsers say where such a request comes from; a setter refuses requests
// that come from another site's page. Scripts, curl and bookmarks send neither header (or
// `Sec-Fetch-Site: none`) and keep working; PUT needs no such check (a page of another site
// cannot send it without the daemon agreeing to CORS, which it never does).
import type { FastifyRequest } from 'fastify';
import { CrossSiteError } from '../errors.js';

/** `host:port` of a URL, the port filled in from the scheme; null when it is not a URL. */
function hostAndPort(url: string): string | null {
  try {
    const u = new URL(url);
    return `${u.hostname}:${u.port || (u.protocol === 'https:' ? '443' : '80')}`;
  } catch {
    return null; // "null" (a sandboxed frame, a file) or garbage
  }
}

/** Whether `origin` names the host the request was sent to. */
function sameHost(origin: string, request: FastifyRequest): boolean {
  const asked = hostAndPort(`${request.protocol}://${request.headers.host ?? ''}`);
  return asked !== null && hostAndPort(origin) === asked;
}

/** What shows that `request` came from another site's page, or null when nothing does. */
export function crossSiteEvidence(request: FastifyRequest): string | null {
  const site = request.headers['sec-fetch-site'];
  if (typeof site === 'string' && site !== 'same-origin' && site !== 'none') {
    return `Sec-Fetch-Site: ${site}`;
  }
  const origin = request.headers.origin;
  if (typeof origin === 'string' && !sameHost(origin, request)) {
    return `Origin: ${origin.slice(0, 100)}`;
  }
  return null;
}

/**
 * An onRequest hook for a GET that changes something: refused (403) from another site's page,
 * naming the evidence and the same request by `instead` (PUT or POST on the same URL).
 */
export function refuseCrossSite(instead: 'PUT' | 'POST') {
  return async (request: FastifyRequest): Promise<void> => {
    const evidence = crossSiteEvidence(request);
    if (evidence) {
      const path = request.url.split('?')[0] ?? request.url;
      throw new CrossSiteError(evidence, `${instead} ${path}`);
    }
  };
}
