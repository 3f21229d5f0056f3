import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { UnauthorizedError } from '../errors.js';

export const TOKEN_COOKIE = 'tributary_token';

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * The token may also come as the query parameter `token` (the MP3 stream: players and
     * speakers can open a URL but send no header or cookie).
     */
    tokenInQuery?: boolean;
  }
}

/** `url` with the value of a `token` query parameter replaced by `***` (for logs). */
export function withoutToken(url: string): string {
  return url.replace(/([?&]token=)[^&#]*/gi, '$1***');
}

export interface AuthOptions {
  /** When set, every request must carry it (bearer header or cookie). */
  readonly apiToken?: string | undefined;
}

const digest = (s: string) => createHash('sha256').update(s).digest();

/** A cookie value as sent; percent-encoding that does not decode is taken as it is. */
function decodeCookie(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}

function presented(request: FastifyRequest): string | undefined {
  const header = request.headers.authorization;
  const bearer = header?.match(/^Bearer\s+(.+)$/i)?.[1];
  if (bearer) return bearer.trim();
  if (request.routeOptions.config?.tokenInQuery) {
    const query = (request.query ?? {}) as { token?: unknown };
    if (typeof query.token === 'string' && query.token !== '') return query.token;
  }
  for (const part of (request.headers.cookie ?? '').split(';')) {
    const [key, ...value] = part.trim().split('=');
    if (key === TOKEN_COOKIE) return decodeCookie(value.join('='));
  }
  return undefined;
}

/**
 * Optional access control: when API_TOKEN is set, every request (WebSocket upgrades included)
 * must present it as `Authorization: Bearer <token>` or the cookie `tributary_token`. Compared
 * in constant time; a route with config `tokenInQuery` (the MP3 stream) also takes `?token=`.
 * Without a token the API stays open, as the product documents.
 */
export default fp(
  async (fastify: FastifyInstance, options: AuthOptions) => {
    const token = options.apiToken;
    if (!token) return;
    const expected = digest(token);
    fastify.addHook('onRequest', async (request) => {
      // The dashboard's files (route config `public`) hold no data; the page asks for the token.
      const open = request.routeOptions.config?.public;
      if (open === true || (typeof open === 'function' && open(request))) return;
      const given = presented(request);
      if (given === undefined || !timingSafeEqual(digest(given), expected)) {
        throw new UnauthorizedError();
      }
    });
  },
  { name: 'auth' },
);
