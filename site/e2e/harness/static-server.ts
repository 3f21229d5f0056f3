// A small static file server for the exported site, the way a static host or CDN serves it:
// "/x/" -> x/index.html, "/x" -> 308 to "/x/" when x is a folder, anything missing -> 404.html
// with status 404. Optionally under a base path. Binds 127.0.0.1 on a port the OS picks.
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';

const contentTypes: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.txt': 'text/plain; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.wasm': 'application/wasm',
  '.zip': 'application/zip',
  '.bin': 'application/octet-stream',
};

export interface StaticServer {
  /** The site's root URL, base path included, with a trailing slash. */
  url: string;
  origin: string;
  /** Every request path served, in order (for tests that check what was downloaded). */
  requests: string[];
  close(): Promise<void>;
}

export interface StaticServerOptions {
  root: string;
  basePath?: string;
  /** Called first for every request; return true when it answered the request itself. */
  intercept?: (request: IncomingMessage, response: ServerResponse) => boolean;
}

async function fileAt(file: string): Promise<'file' | 'dir' | null> {
  try {
    const info = await stat(file);
    return info.isDirectory() ? 'dir' : info.isFile() ? 'file' : null;
  } catch {
    return null;
  }
}

function send(response: ServerResponse, file: string, status = 200): void {
  response.writeHead(status, {
    'content-type': contentTypes[path.extname(file)] ?? 'application/octet-stream',
    'cache-control': 'no-cache',
  });
  createReadStream(file).pipe(response);
}

export async function serveStatic(options: StaticServerOptions): Promise<StaticServer> {
  const root = path.resolve(options.root);
  const basePath = options.basePath ?? '';
  const requests: string[] = [];
  const notFound = async (response: ServerResponse) => {
    const page = path.join(root, '404.html');
    if ((await fileAt(page)) === 'file') send(response, page, 404);
    else response.writeHead(404, { 'content-type': 'text/plain' }).end('Not found');
  };

  const server = createServer(async (request, response) => {
    const url = new URL(request.url ?? '/', 'http://localhost');
    requests.push(url.pathname);
    if (options.intercept?.(request, response)) return;
    if (request.method !== 'GET' && request.method !== 'HEAD') {
      response.writeHead(405, { allow: 'GET, HEAD' }).end();
      return;
    }
    if (!url.pathname.startsWith(`${basePath}/`)) {
      await notFound(response);
      return;
    }
    let relative: string;
    try {
      relative = decodeURIComponent(url.pathname.slice(basePath.length));
    } catch {
      await notFound(response);
      return;
    }
    const file = path.join(root, relative);
    if (!file.startsWith(root)) {
      await notFound(response);
      return;
    }
    const kind = await fileAt(file);
    if (kind === 'file') return send(response, file);
    if (kind === 'dir') {
      if (!url.pathname.endsWith('/')) {
        response.writeHead(308, { location: `${url.pathname}/${url.search}` }).end();
        return;
      }
      const index = path.join(file, 'index.html');
      if ((await fileAt(index)) === 'file') return send(response, index);
    }
    if ((await fileAt(`${file}.html`)) === 'file') return send(response, `${file}.html`);
    await notFound(response);
  });

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const origin = `http://127.0.0.1:${port}`;
  return {
    url: `${origin}${basePath}/`,
    origin,
    requests,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}
