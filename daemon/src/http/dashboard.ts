// The web dashboard (daemon/dashboard, built by Vite into dashboard/dist) served at `/` over the
// API's own origin. Client-side routes (`/site/DesktopMenu`, ...) get index.html; paths under the
// API's prefixes that match no route keep the API's JSON 404. The files are public (they hold no
// data), so the page can ask for API_TOKEN; everything it then reads needs the token.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { RouteNotFoundError, UrlTooLongError } from '../errors.js';
import { MAX_PARAM_LENGTH } from './error-body.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Served without API_TOKEN: always, or when the function says so for this request. */
    public?: boolean | ((request: FastifyRequest) => boolean);
  }
}

/** Where `npm run build -w daemon/dashboard` writes the app (from src/http or dist/http). */
export const DASHBOARD_DIR = fileURLToPath(new URL('../../dashboard/dist/', import.meta.url));

/** First path segments that belong to the API: never answered with the dashboard's page. */
export const API_PREFIXES = [
  'api',
  'ws',
  'sinks',
  'sources',
  'routes',
  'stream',
  'plugins',
  'equalizers',
] as const;

export interface DashboardOptions {
  /** The built dashboard (default DASHBOARD_DIR); served only when it holds index.html. */
  readonly directory?: string;
}

/** A file name with an extension (`/assets/index-3f2a.js`): a request for a file, not a page. */
const FILE_PATH = /^\/(?:[\w-]+\/)*[\w.-]+\.[a-z0-9]+$/i;

const NOT_BUILT = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Tributary</title></head>
<body><h1>The dashboard is not built</h1>
<p>Build it in the Tributary checkout with <code>npm run build</code> (or start with
<code>npm start</code>, which builds it), then reload. The API works without it.</p></body></html>
`;

function isApiPath(pathname: string): boolean {
  const first = pathname.split('/')[1] ?? '';
  return (API_PREFIXES as readonly string[]).includes(first);
}

/** The decoded path of a request URL, or null when it cannot be decoded. */
function pathOf(url: string): string | null {
  try {
    return decodeURIComponent(new URL(url, 'http://x').pathname);
  } catch {
    return null;
  }
}

/** index.html and the client's routes may change with every build; hashed assets never do. */
function cacheHeaders(reply: FastifyReply, file: string): void {
  reply.header(
    'cache-control',
    file.startsWith('/assets/') ? 'public, max-age=31536000, immutable' : 'no-cache',
  );
  reply.header('x-content-type-options', 'nosniff');
}

export default fp(
  async (fastify: FastifyInstance, options: DashboardOptions) => {
    const root = options.directory ?? DASHBOARD_DIR;
    const built = existsSync(join(root, 'index.html'));
    if (built) {
      // serve: false: no routes of its own, only reply.sendFile with the .br/.gz files Vite wrote.
      await fastify.register(fastifyStatic, {
        root,
        serve: false,
        preCompressed: true,
        cacheControl: false,
      });
    }

    fastify.route({
      method: ['GET', 'HEAD'],
      url: '/*',
      // Unknown API paths still need the token: no probing of the API without it.
      config: { public: (request) => !isApiPath(pathOf(request.url) ?? '/api') },
      schema: { hide: true },
      handler: async (request, reply) => {
        const pathname = pathOf(request.url);
        if (pathname === null || isApiPath(pathname)) {
          // No API route took it. The router falls back to this wildcard also when a path
          // segment is longer than any parameter may be: answer that as the API would (414).
          const segments = request.url.split('?')[0]?.split('/') ?? [];
          if (segments.some((s) => s.length > MAX_PARAM_LENGTH)) {
            throw new UrlTooLongError(MAX_PARAM_LENGTH);
          }
          return reply.callNotFound(); // the API's 404, or 405 with Allow
        }
        const isFile = FILE_PATH.test(pathname) && !pathname.includes('..');
        if (!built) {
          if (isFile) throw new RouteNotFoundError(request.method, request.url);
          return reply.code(503).type('text/html; charset=utf-8').send(NOT_BUILT);
        }
        const file = isFile ? pathname : '/index.html';
        if (isFile && !existsSync(join(root, file))) {
          throw new RouteNotFoundError(request.method, request.url);
        }
        cacheHeaders(reply, file);
        return reply.sendFile(file.slice(1));
      },
    });
  },
  { name: 'dashboard', fastify: '5.x' },
);
