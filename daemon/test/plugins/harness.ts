// What the play-URL tests stand on: tones encoded by ffmpeg into real files (made at test time,
// never committed), a local HTTP server that serves them and misbehaves on request (HTML, a
// 1 GB length, a server that never answers, an endless stream, redirects), and a Scream sink on
// 127.0.0.1 whose packets are kept as samples to measure.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { createSocket } from 'node:dgram';
import { readFileSync, statSync, writeFileSync } from 'node:fs';
import { createServer, type Server, type ServerResponse } from 'node:http';
import { join } from 'node:path';
import type { TestContext } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { build, localEngine, tempDir } from '../helpers.js';

/** Every format the play-URL plugins promise, as ffmpeg writes it. */
export const FORMATS = {
  mp3: ['-c:a', 'libmp3lame', '-b:a', '192k'],
  flac: ['-c:a', 'flac'],
  wav: ['-c:a', 'pcm_s16le'],
  ogg: ['-c:a', 'libvorbis', '-q:a', '5'],
  opus: ['-c:a', 'libopus', '-b:a', '128k'],
  m4a: ['-c:a', 'aac', '-b:a', '192k'],
} as const;
export type Format = keyof typeof FORMATS;

/**
 * RMS of each channel of the files: ffmpeg's sine source is mono at 1/8 of full scale (RMS
 * 0.0884), and `-ac 2` spreads it over two channels at -3 dB each: 0.0625 (-24.08 dBFS, as
 * ffmpeg's own astats reads the files).
 */
export const SINE_RMS = 0.125 / 2;

/** Writes `{name}.{format}`: a stereo sine of `hz` for `seconds` at `rate` Hz. */
export function encodeTone(
  dir: string,
  name: string,
  format: Format,
  { hz = 1000, seconds = 2, rate = 44100 } = {},
): string {
  const file = join(dir, `${name}.${format}`);
  const sampleRate = format === 'opus' ? 48000 : rate;
  execFileSync(
    'ffmpeg',
    [
      ...['-hide_banner', '-loglevel', 'error', '-y', '-f', 'lavfi'],
      ...['-i', `sine=frequency=${hz}:sample_rate=${sampleRate}:duration=${seconds}`],
      ...['-ac', '2', ...FORMATS[format], file],
    ],
    { stdio: ['ignore', 'ignore', 'inherit'] },
  );
  return file;
}

/** A local audio server; `url(path)` is where it serves `path`. */
export interface AudioServer {
  readonly url: (path: string) => string;
  /** Requests it answered (or hung), by path. */
  readonly hits: string[];
}

/**
 * Serves `/files/NAME` from `dir` (with a length), `/html` (a web page), `/huge` (claims 1 GiB),
 * `/hang` (never answers), `/stream.mp3` (the bytes of `stream` in a loop, without a length, at
 * about `streamBytesPerS`), `/redirect/N` (N redirects, then /files/tone.mp3), `/missing` (404).
 */
export async function audioServer(
  t: TestContext,
  dir: string,
  { stream, streamBytesPerS = 24000 }: { stream?: string; streamBytesPerS?: number } = {},
): Promise<AudioServer> {
  const hits: string[] = [];
  const hanging = new Set<ServerResponse>();
  const timers = new Set<NodeJS.Timeout>();
  const server: Server = createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    hits.push(path);
    if (path.startsWith('/files/')) {
      const file = join(dir, decodeURIComponent(path.slice('/files/'.length)));
      let size: number;
      try {
        size = statSync(file).size;
      } catch {
        res.writeHead(404).end('no such file');
        return;
      }
      res.writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': size });
      res.end(readFileSync(file));
    } else if (path === '/html') {
      const page = `<!doctype html><html><body>${'<p>not audio</p>'.repeat(500)}</body></html>`;
      res.writeHead(200, { 'content-type': 'audio/mpeg' }).end(page);
    } else if (path === '/huge') {
      res.writeHead(200, { 'content-type': 'audio/mpeg', 'content-length': 1024 ** 3 });
      res.flushHeaders();
      hanging.add(res);
    } else if (path === '/hang') {
      hanging.add(res);
    } else if (path === '/stream.mp3' && stream) {
      const bytes = readFileSync(stream);
      res.writeHead(200, { 'content-type': 'audio/mpeg' });
      let at = 0;
      const chunk = Math.round(streamBytesPerS / 10);
      const timer = setInterval(() => {
        const piece = Buffer.alloc(chunk);
        for (let i = 0; i < chunk; i++) piece[i] = bytes[(at + i) % bytes.length]!;
        at = (at + chunk) % bytes.length;
        res.write(piece);
      }, 100);
      timers.add(timer);
      res.on('close', () => clearInterval(timer));
    } else if (path.startsWith('/redirect/')) {
      const n = Number(path.slice('/redirect/'.length));
      res.writeHead(302, { location: n > 1 ? `/redirect/${n - 1}` : '/files/tone.mp3' }).end();
    } else {
      res.writeHead(404).end('not found');
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.after(async () => {
    for (const timer of timers) clearInterval(timer);
    for (const res of hanging) res.destroy();
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });
  const { port } = server.address() as { port: number };
  return { url: (p) => `http://127.0.0.1:${port}${p}`, hits };
}

/** A port on 127.0.0.1 where nothing listens (bound, then closed): connections are refused. */
export async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** A Scream sink on 127.0.0.1 (48 kHz, 16-bit, stereo): its left channel, as it arrives. */
export interface ScreamSink {
  readonly port: number;
  /** Samples of the left channel received so far (full scale 1). */
  left(): Float64Array;
  /** Samples received so far (per channel). */
  readonly frames: () => number;
}

export async function screamSink(t: TestContext): Promise<ScreamSink> {
  const socket = createSocket('udp4');
  await new Promise<void>((resolve) => socket.bind(0, '127.0.0.1', () => resolve()));
  t.after(() => socket.close());
  const packets: Buffer[] = [];
  let frames = 0;
  socket.on('message', (m) => {
    packets.push(m);
    frames += (m.length - 5) / 4;
  });
  return {
    port: socket.address().port,
    frames: () => frames,
    left: () => {
      const out = new Float64Array(frames);
      let at = 0;
      for (const p of packets) {
        for (let i = 5; i + 3 < p.length; i += 4) out[at++] = p.readInt16LE(i) / 32768;
      }
      return out;
    },
  };
}

/** RMS of each 10 ms block of `x` (48 kHz). */
export function blockRms(x: Float64Array, rate = 48000): number[] {
  const size = rate / 100;
  const out: number[] = [];
  for (let at = 0; at + size <= x.length; at += size) {
    let e = 0;
    for (let i = at; i < at + size; i++) e += x[i]! * x[i]!;
    out.push(Math.sqrt(e / size));
  }
  return out;
}

export async function until(what: string, check: () => boolean | Promise<boolean>, ms = 10_000) {
  const end = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > end) assert.fail(`timed out waiting for ${what}`);
    await sleep(25);
  }
}

/**
 * The daemon with a real engine and a sink "Kitchen" received here, over a config.yaml whose
 * `plugins.playurl` holds short timeouts for tests and `settings`. With `logs`, its log lines
 * go there; `logWindowMs` shortens the minute of the play-URL log cap.
 */
export async function router(
  t: TestContext,
  settings: Record<string, unknown> = {},
  { logs, logWindowMs }: { logs?: string[]; logWindowMs?: number } = {},
) {
  const sink = await screamSink(t);
  const dir = tempDir(t);
  const playurl = { connect_timeout_ms: 1500, read_timeout_ms: 1500, ...settings };
  // JSON is YAML: the file the daemon reads.
  writeFileSync(join(dir, 'config.yaml'), JSON.stringify({ plugins: { playurl } }));
  const app = await build(t, {
    dir,
    engine: localEngine,
    ...(logs ? { logs } : {}),
    ...(logWindowMs ? { plugins: { playUrl: { logWindowMs } } } : {}),
  });
  const res = await app.inject({
    method: 'POST',
    url: '/sinks',
    payload: { name: 'Kitchen', ip: '127.0.0.1', port: sink.port },
  });
  assert.equal(res.statusCode, 201, res.body);
  const playing = async () => (await app.inject('/plugins/playurl/')).json() as unknown[];
  return { app, sink, playing };
}

export const play = (url: string, sink = 'Kitchen') =>
  `/plugins/playurl/play?url=${encodeURIComponent(url)}&sink=${encodeURIComponent(sink)}`;
