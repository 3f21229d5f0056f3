// What the discovery scenarios share inside their namespace: the daemon as a real process,
// peers as child processes (stopped at the end, whatever happens), waiting for a condition,
// and reading recorded audio (tone.ts measures it).
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { type Daemon, startDaemon } from '../../daemon-process.js';

export interface Peer {
  readonly child: ChildProcess;
  output(): string;
  /** Resolves with the exit code once it has exited. */
  exited(): Promise<number | null>;
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

export class Lab {
  readonly #cleanups: (() => Promise<unknown> | unknown)[] = [];

  /** A temporary directory, removed at the end. */
  dir(prefix = 'tributary-disc-'): string {
    const dir = mkdtempSync(join(tmpdir(), prefix));
    this.#cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
    return dir;
  }

  /** `tributary serve` with discovery and the engine on, over `configYaml`. */
  async daemon(
    configYaml: string,
    env: Record<string, string> = {},
  ): Promise<Daemon & { dir: string }> {
    const dir = this.dir();
    writeFileSync(join(dir, 'config.yaml'), configYaml);
    return this.daemonIn(dir, env);
  }

  /** The same over the configuration already in `dir` (a restart). */
  async daemonIn(dir: string, env: Record<string, string> = {}): Promise<Daemon & { dir: string }> {
    const daemon = await startDaemon(dir, {
      DISCOVERY: 'on',
      ENGINE: 'on',
      ENGINE_BIND: '0.0.0.0',
      SCREAM_PORTS: 'off',
      SCREAM_TAGGED_PORT: 'off',
      RTP_PORTS: 'off',
      LOG_FORMAT: 'pretty',
      ...env,
    });
    this.#cleanups.push(() => daemon.stop('SIGKILL'));
    // A kept-alive connection the server closes (idle) just as a request reuses it fails with
    // ECONNRESET; every request the scenarios make is idempotent, so it is made again.
    const call = daemon.call.bind(daemon);
    const retried: Daemon['call'] = (method, path, body) =>
      call(method, path, body).catch((err: NodeJS.ErrnoException) => {
        if (err.code !== 'ECONNRESET') throw err;
        return call(method, path, body);
      });
    return Object.assign(daemon, { dir, call: retried });
  }

  /** Starts a peer program; it is killed at the end if still running. */
  spawn(command: string, args: string[], env: Record<string, string> = {}): Peer {
    const child = spawn(command, args, {
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, ...env },
    });
    let text = '';
    child.stdout!.on('data', (c) => {
      text += c;
    });
    child.stderr!.on('data', (c) => {
      text += c;
    });
    const done = new Promise<number | null>((resolve) => {
      child.on('exit', (code) => resolve(code));
      child.on('error', (err) => {
        text += `\n${err.message}`;
        resolve(-1);
      });
    });
    const peer: Peer = {
      child,
      output: () => text,
      exited: () => done,
      async stop(signal = 'SIGTERM') {
        if (child.exitCode === null && child.signalCode === null) child.kill(signal);
        const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
        const code = await done;
        clearTimeout(timer);
        return code;
      },
    };
    this.#cleanups.push(() => peer.stop('SIGKILL'));
    return peer;
  }

  atEnd(fn: () => Promise<unknown> | unknown): void {
    this.#cleanups.push(fn);
  }

  async close(): Promise<void> {
    for (const fn of this.#cleanups.reverse()) {
      try {
        await fn();
      } catch {}
    }
  }
}

/** Runs `body` with a lab that is cleaned up afterwards. */
export async function withLab<R>(body: (lab: Lab) => Promise<R>): Promise<R> {
  const lab = new Lab();
  try {
    return await body(lab);
  } finally {
    await lab.close();
  }
}

/** Polls `check` every 50 ms until it returns a value other than undefined/false. */
export async function waitFor<T>(
  what: string,
  check: () => Promise<T | undefined | false> | T | undefined | false,
  timeoutMs: number,
  context: () => string = () => '',
): Promise<T> {
  const start = performance.now();
  for (;;) {
    const value = await check();
    if (value !== undefined && value !== false) return value as T;
    if (performance.now() - start > timeoutMs) {
      throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}\n${context()}`);
    }
    await sleep(50);
  }
}

/** Left channel of interleaved 16-bit PCM, as floats in [-1, 1). */
export function leftChannel(pcm: Buffer, channels: number, bigEndian = false): Float64Array {
  const frames = Math.floor(pcm.length / (2 * channels));
  const out = new Float64Array(frames);
  for (let i = 0; i < frames; i++) {
    const at = i * 2 * channels;
    out[i] = (bigEndian ? pcm.readInt16BE(at) : pcm.readInt16LE(at)) / 32768;
  }
  return out;
}

/** The PCM data of a 16-bit WAV file (the `data` chunk). */
export function wavData(wav: Buffer): { pcm: Buffer; rate: number; channels: number } {
  let at = 12;
  let rate = 0;
  let channels = 0;
  while (at + 8 <= wav.length) {
    const id = wav.toString('latin1', at, at + 4);
    const size = wav.readUInt32LE(at + 4);
    if (id === 'fmt ') {
      channels = wav.readUInt16LE(at + 10);
      rate = wav.readUInt32LE(at + 12);
    }
    if (id === 'data') return { pcm: wav.subarray(at + 8, at + 8 + size), rate, channels };
    at += 8 + size + (size % 2);
  }
  throw new Error('no data chunk in the WAV file');
}

/** `GET` through the daemon, failing on anything but 200. */
export async function get<T>(daemon: Daemon, path: string): Promise<T> {
  const res = await daemon.call('GET', path);
  if (res.status !== 200) throw new Error(`GET ${path}: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body as T;
}

/** A sink as `GET /sinks` lists it (the fields the discovery scenarios read). */
export interface SinkView {
  name: string;
  config_id: string;
  ip: string | null;
  port: number | null;
  volume: number;
  auto_added: { via: string; key: string } | null;
}
