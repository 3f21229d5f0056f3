// Opens what a play request names, within the play-URL limits: an http(s) URL (redirects
// followed a bounded number of times, each hop checked again), or a file: URL under the one
// configured directory. Answers with the bytes as they arrive and what the server said of them;
// every refusal is a PlayUrlError carrying the status the API answers with.
import { createReadStream } from 'node:fs';
import { realpath, stat } from 'node:fs/promises';
import { extname, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PlayUrlError } from './errors.js';
import type { PlayUrlLimits } from './limits.js';

/** An opened URL: its bytes (as they arrive) and what is known of them before decoding. */
export interface OpenedAudio {
  /** The URL the bytes come from (after redirects). */
  readonly url: string;
  /** A hint for the decoder's probe: the MIME type, else the file extension. */
  readonly hint: string | undefined;
  /** Bytes the server declared (Content-Length, a file's size); null for a stream. */
  readonly length: number | null;
  /** The bytes; iteration throws a PlayUrlError (504) when the next bytes are too late. */
  readonly body: AsyncIterable<Uint8Array>;
  /** Stops reading (closes the connection or the file). */
  close(): void;
}

/** The URL parsed and checked against the schemes allowed; 400 naming why not. */
export function parsePlayUrl(text: string): URL {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new PlayUrlError(400, 'url', `'${cut(text)}' is not an absolute URL`);
  }
  if (!['http:', 'https:', 'file:'].includes(url.protocol)) {
    throw new PlayUrlError(400, 'url', `scheme ${url.protocol} is not played (http, https, file)`);
  }
  if (url.username || url.password) {
    throw new PlayUrlError(400, 'url', 'credentials in a URL are not accepted');
  }
  return url;
}

/** Opens `url` (see the module comment); `signal` aborts it (stop, shutdown). */
export async function openUrl(
  url: URL,
  limits: PlayUrlLimits,
  signal: AbortSignal,
): Promise<OpenedAudio> {
  return url.protocol === 'file:' ? openFile(url, limits) : openHttp(url, limits, signal);
}

async function openFile(url: URL, limits: PlayUrlLimits): Promise<OpenedAudio> {
  if (!limits.directory) {
    throw new PlayUrlError(
      400,
      'url',
      'file: URLs are off: set PLAYURL_DIRECTORY to the folder they may play from',
    );
  }
  let path: string;
  let root: string;
  try {
    root = await realpath(limits.directory);
    path = await realpath(fileURLToPath(url));
  } catch {
    throw new PlayUrlError(404, 'url', `no file at ${url.pathname}`);
  }
  if (!path.startsWith(root + sep)) {
    throw new PlayUrlError(400, 'url', `${url.pathname} is outside the play-URL directory`);
  }
  const info = await stat(path);
  if (!info.isFile()) throw new PlayUrlError(404, 'url', `${url.pathname} is not a file`);
  if (info.size > limits.maxBytes) throw tooLarge(info.size, limits);
  const stream = createReadStream(path, { highWaterMark: 64 * 1024 });
  return {
    url: url.href,
    hint: extname(path).slice(1) || undefined,
    length: info.size,
    body: stream,
    close: () => stream.destroy(),
  };
}

async function openHttp(
  first: URL,
  limits: PlayUrlLimits,
  signal: AbortSignal,
): Promise<OpenedAudio> {
  const controller = new AbortController();
  const abort = () => controller.abort();
  signal.addEventListener('abort', abort, { once: true });
  const fail = (err: PlayUrlError): never => {
    signal.removeEventListener('abort', abort);
    controller.abort();
    throw err;
  };
  let url = first;
  let response: Response | undefined;
  for (let hop = 0; ; hop++) {
    response = await headers(url, limits, controller).catch((err: unknown) => {
      if (err instanceof PlayUrlError) return fail(err);
      if (signal.aborted) return fail(new PlayUrlError(409, 'url', 'stopped'));
      return fail(new PlayUrlError(502, 'url', `${url.host}: ${reasonOf(err)}`));
    });
    const location = response.headers.get('location');
    if (response.status < 300 || response.status >= 400 || location === null) break;
    await response.body?.cancel().catch(() => {});
    if (hop >= limits.maxRedirects) {
      fail(new PlayUrlError(502, 'url', `more than ${limits.maxRedirects} redirects`));
    }
    const next = new URL(location, url);
    if (next.protocol !== 'http:' && next.protocol !== 'https:') {
      fail(
        new PlayUrlError(502, 'url', `redirected to a ${next.protocol} URL, which is not followed`),
      );
    }
    url = next;
  }
  if (!response.ok || !response.body) {
    await response.body?.cancel().catch(() => {});
    fail(
      new PlayUrlError(
        502,
        'url',
        `${url.host} answered ${response.status} ${response.statusText}`,
      ),
    );
  }
  const declared = response.headers.get('content-length');
  const length = declared !== null && /^\d+$/.test(declared) ? Number(declared) : null;
  if (length !== null && length > limits.maxBytes) fail(tooLarge(length, limits));
  const type = response.headers.get('content-type')?.split(';')[0]?.trim().toLowerCase();
  const body = response.body as ReadableStream<Uint8Array>;
  return {
    url: url.href,
    hint:
      type && type !== 'application/octet-stream'
        ? type
        : extname(url.pathname).slice(1) || undefined,
    length,
    body: timedBody(body, limits, length, controller),
    close: () => {
      signal.removeEventListener('abort', abort);
      controller.abort();
    },
  };
}

/** The response's headers, within the connect timeout. */
async function headers(url: URL, limits: PlayUrlLimits, controller: AbortController) {
  const timer = setTimeout(() => controller.abort(new Timeout()), limits.connectTimeoutMs);
  try {
    return await fetch(url, {
      redirect: 'manual',
      signal: controller.signal,
      headers: { accept: 'audio/*, application/ogg, */*;q=0.5', 'icy-metadata': '0' },
    });
  } catch (err) {
    if (controller.signal.reason instanceof Timeout) {
      throw new PlayUrlError(
        504,
        'url',
        `${url.host} did not answer within ${limits.connectTimeoutMs} ms`,
      );
    }
    throw err;
  } finally {
    clearTimeout(timer);
  }
}

/** The body's chunks, each within the read timeout, never more than a declared length. */
async function* timedBody(
  body: ReadableStream<Uint8Array>,
  limits: PlayUrlLimits,
  length: number | null,
  controller: AbortController,
): AsyncGenerator<Uint8Array> {
  const reader = body.getReader();
  let read = 0;
  try {
    for (;;) {
      const timer = setTimeout(() => controller.abort(new Timeout()), limits.readTimeoutMs);
      let next: Awaited<ReturnType<typeof reader.read>>;
      try {
        next = await reader.read();
      } catch (err) {
        if (controller.signal.reason instanceof Timeout) {
          throw new PlayUrlError(504, 'url', `no data for ${limits.readTimeoutMs} ms`);
        }
        throw new PlayUrlError(502, 'url', `the connection broke: ${reasonOf(err)}`);
      } finally {
        clearTimeout(timer);
      }
      if (next.done) return;
      read += next.value.byteLength;
      if (length !== null && read > length) return;
      yield next.value;
    }
  } finally {
    controller.abort();
    reader.releaseLock();
  }
}

class Timeout extends Error {}

function tooLarge(bytes: number, limits: PlayUrlLimits): PlayUrlError {
  return new PlayUrlError(
    413,
    'url',
    `${bytes} bytes is more than plugins.playurl.max_bytes (${limits.maxBytes})`,
  );
}

function reasonOf(err: unknown): string {
  const cause = (err as { cause?: { code?: string; message?: string } }).cause;
  return cause?.code ?? cause?.message ?? (err as Error).message;
}

function cut(text: string): string {
  return text.length > 80 ? `${text.slice(0, 77)}...` : text;
}
