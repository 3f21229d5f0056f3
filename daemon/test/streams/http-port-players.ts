// The MP3 stream's players from Debian for the plain-HTTP port tests: mpg123 and VLC decoding a
// live stream to raw PCM, and a real daemon with a sink, a source and a route to stream.
import { execFile, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { TestContext } from 'node:test';
import { promisify } from 'node:util';
import { type Daemon, engineOnLoopback, startQuickDaemon } from '../daemon-process.js';
import { tempDir } from '../helpers.js';

const run = promisify(execFile);

/**
 * A real daemon (`tributary serve`, engine on loopback, HTTP_PORT on) with a sink "Desk" at
 * 127.0.0.1 fed by source "PC".
 */
export async function streamingDaemon(
  t: TestContext,
  env: Record<string, string> = {},
  mp3?: object,
): Promise<Daemon & { screamPort: number; stream: string }> {
  const daemon = await startQuickDaemon(tempDir(t), { ...engineOnLoopback, ...env });
  t.after(() => daemon.stop('SIGKILL'));
  const calls: Array<[string, object]> = [
    ['/sinks', { name: 'Desk', ip: '127.0.0.1', port: 9, ...(mp3 ? { mp3 } : {}) }],
    ['/sources', { name: 'PC', ip: '127.0.0.1' }],
    ['/routes', { name: 'PC to Desk', source: 'PC', sink: 'Desk' }],
  ];
  for (const [path, body] of calls) {
    const res = await daemon.call('POST', path, body);
    if (res.status !== 201) throw new Error(`${path}: ${res.status} ${JSON.stringify(res.body)}`);
  }
  const stats = (await daemon.call('GET', '/api/stats')).body as {
    engine: { ports: { scream: number[] } };
  };
  return Object.assign(daemon, {
    screamPort: stats.engine.ports.scream[0]!,
    stream: `${daemon.httpUrl}/stream/127.0.0.1/`,
  });
}

/** Interleaved stereo s16 PCM as floats. */
function floats(pcm: Buffer): Float32Array {
  const out = new Float32Array(Math.floor(pcm.length / 2));
  for (let i = 0; i < out.length; i++) out[i] = pcm.readInt16LE(i * 2) / 32768;
  return out;
}

/** `frames` MP3 frames of `url` decoded by mpg123 (its own HTTP client): stereo s16 at 48 kHz. */
export async function mpg123Decode(url: string, frames: number): Promise<Float32Array> {
  const { stdout } = await run('mpg123', ['-q', '-s', '-n', String(frames), url], {
    encoding: 'buffer',
    maxBuffer: 64 * 1024 * 1024,
    timeout: 30_000,
  });
  return floats(stdout);
}

/**
 * `seconds` of `url` played by VLC (cvlc, no interface) into a WAV file with its file audio
 * output, as an unprivileged user (VLC refuses to run as root). Resolves with the samples.
 */
export async function vlcDecode(url: string, seconds: number, dir: string): Promise<Float32Array> {
  const wav = join(dir, 'vlc.wav');
  const args = [
    ...['--intf', 'dummy', '--no-video', '--aout', 'afile'],
    ...['--audiofile-file', wav, '--audiofile-format', 's16', '--audiofile-channels', '2'],
    ...['--run-time', String(seconds), url, 'vlc://quit'],
  ];
  const asRoot = process.getuid?.() === 0;
  const command = asRoot ? 'runuser' : 'cvlc';
  const argv = asRoot ? ['-u', 'nobody', '--', 'cvlc', ...args] : args;
  await new Promise<void>((resolve, reject) => {
    const vlc = spawn(command, argv, { stdio: ['ignore', 'ignore', 'pipe'] });
    let err = '';
    vlc.stderr.on('data', (c: Buffer) => {
      err += c;
    });
    const timer = setTimeout(() => vlc.kill('SIGKILL'), (seconds + 30) * 1000);
    vlc.once('error', reject);
    vlc.once('close', (code) => {
      clearTimeout(timer);
      if (code === 0) resolve();
      else reject(new Error(`cvlc exited ${code}: ${err.slice(-2000)}`));
    });
  });
  const file = readFileSync(wav);
  // The data chunk of the WAV (VLC writes a 44-byte header).
  const data = file.indexOf('data', 12);
  return floats(file.subarray(data + 8));
}
