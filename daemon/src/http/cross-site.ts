// Requests another site's page can make: any web page a user visits can make the browser send a
// form post, a `fetch` with a "simple" content type (text/plain, form data; no CORS preflight
// asked), a link or image GET, or open a WebSocket, to the daemon; and with API_TOKEN's cookie
// when the page is of the same site (SameSite ignores ports: another program's page on this
// machine is the same site). Browsers say where such a request comes from (Origin,
// Sec-Fetch-Site), so one app-wide hook refuses from another site's page:
// - every change: any method but GET, HEAD and OPTIONS, whatever its content type;
// - the GET setters of the specification (route config `changes`), HEAD too;
// - every WebSocket upgrade (a socket can read what a page of another site must not).
// Programs (curl, scripts, Home Assistant) send no Origin, or `Sec-Fetch-Site: none`, and keep
// working; so do the dashboard's own pages (same origin). The hook is global, so a route added
// later is covered without doing anything.
import { type TSchema, Type } from '@sinclair/typebox';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { CrossSiteChangeError, CrossSiteError, CrossSiteSocketError } from '../errors.js';
import { ErrorResponse } from '../schema/problem.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * A GET that changes something (the specification's setters): refused from another site's
     * page like every change; names the method of the same change safe to use instead (at
     * the same path, or `POST /other/path` when the change lives elsewhere).
     */
    changes?: 'PUT' | 'POST' | `POST /${string}`;
  }
}

/** Methods that change nothing (setters aside): answered whatever page sent them. */
export const SAFE_METHODS: ReadonlySet<string> = new Set(['GET', 'HEAD', 'OPTIONS']);

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
    return `Sec-Fetch-Site: ${site.slice(0, 100)}`;
  }
  const origin = request.headers.origin;
  if (typeof origin === 'string' && !sameHost(origin, request)) {
    return `Origin: ${origin.slice(0, 100)}`;
  }
  return null;
}

/** Whether the request asks to become a WebSocket (or any other protocol). */
export function isUpgrade(request: FastifyRequest): boolean {
  return request.headers.upgrade !== undefined;
}

/** Whether a route answers WebSocket upgrades (@fastify/websocket's route options). */
function isWebSocketRoute(route: { wsHandler?: unknown; websocket?: unknown }): boolean {
  return route.wsHandler !== undefined || route.websocket === true;
}

/** The error answering a request from another site's page, or null when it is not refused. */
export function crossSiteRefusal(request: FastifyRequest): Error | null {
  const setter = request.routeOptions.config?.changes;
  const upgrade = isUpgrade(request);
  if (SAFE_METHODS.has(request.method) && !setter && !upgrade) return null;
  const evidence = crossSiteEvidence(request);
  if (!evidence) return null;
  const path = (request.url.split('?')[0] ?? request.url).slice(0, 200);
  if (upgrade) return new CrossSiteSocketError(evidence);
  if (setter && SAFE_METHODS.has(request.method)) {
    return new CrossSiteError(evidence, setter.includes(' ') ? setter : `${setter} ${path}`);
  }
  return new CrossSiteChangeError(`${request.method} ${path}`, evidence);
}

const response403: TSchema = Type.Ref(ErrorResponse, {
  description:
    "Refused: sent by another site's page (Origin or Sec-Fetch-Site). Changes and WebSockets " +
    "are taken from the dashboard's own pages and from programs.",
});

export default fp(
  async (fastify: FastifyInstance) => {
    // Every route that refuses says so in its response schemas (and so in the OpenAPI document).
    fastify.addHook('onRoute', (route) => {
      const response = route.schema?.response as Record<string, TSchema> | undefined;
      const methods = [route.method].flat();
      const refuses =
        methods.some((m) => !SAFE_METHODS.has(m)) ||
        route.config?.changes !== undefined ||
        isWebSocketRoute(route as never);
      if (!response || !refuses || response[403]) return;
      route.schema = { ...route.schema, response: { ...response, 403: response403 } };
    });

    fastify.addHook('onRequest', async (request) => {
      const refusal = crossSiteRefusal(request);
      if (!refusal) return;
      fastify.refusals.count(
        'cross_site',
        `refused ${request.method} ${request.url.slice(0, 100)} from ${request.ip}: ${refusal.message}`,
      );
      throw refusal;
    });
  },
  { name: 'cross-site', dependencies: ['refusals'] },
);
