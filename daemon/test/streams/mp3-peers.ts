// Real peers of the MP3 stream tests: a Scream tone sender, HTTP listeners, ffprobe/ffmpeg.
import { execFile, spawn } from 'node:child_process';
import { createSocket, type Socket } from 'node:dgram';
import { get, type IncomingMessage } from 'node:http';
import type { TestContext } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { promisify } from 'node:util';

const run = promisify(execFile);

export async function udp(t: TestContext): Promise<Socket> {
  const socket = createSocket('udp4');
  await new Promise<void>((resolve) => socket.bind(0, '127.0.0.1', () => resolve()));
  t.after(() => socket.close());
  return socket;
}

/**
 * Sends a stereo Scream tone (48 kHz, 16-bit) at the real rate, `hz` on the left and `hzRight`
 * on the right at `amplitude` (0..1), until `signal` aborts.
 */
export async function sendTone(
  tx: Socket,
  port: number,
  tone: { hz: number; hzRight: number; amplitude: number },
  signal: AbortSignal,
): Promise<void> {
  const start = performance.now();
  let frame = 0;
  for (let k = 0; !signal.aborted; k++) {
    const packet = Buffer.alloc(5 + 1152);
    packet.set([0x01, 16, 2, 0x03, 0x00]);
    for (let i = 0; i < 288; i++, frame++) {
      const t = frame / 48_000;
      const l = Math.sin(2 * Math.PI * tone.hz * t) * tone.amplitude;
      const r = Math.sin(2 * Math.PI * tone.hzRight * t) * tone.amplitude;
      packet.writeInt16LE(Math.round(l * 32767), 5 + i * 4);
      packet.writeInt16LE(Math.round(r * 32767), 7 + i * 4);
    }
    tx.send(packet, port, '127.0.0.1');
    await sleep(Math.max(0, start + (k + 1) * 6 - performance.now()));
  }
}

/** Opens the stream; resolves with the response once headers arrived. */
export function listen(url: string): Promise<IncomingMessage> {
  return new Promise((resolve, reject) => get(url, resolve).once('error', reject));
}

/** Reads `res` until `bytes` arrived; resolves with them (later data flows on, unread). */
export function readBytes(res: IncomingMessage, bytes: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let n = 0;
    const onData = (c: Buffer) => {
      chunks.push(c);
      n += c.length;
      if (n >= bytes) {
        res.off('data', onData);
        resolve(Buffer.concat(chunks));
      }
    };
    res.on('data', onData);
    res.resume();
    res.once('error', reject);
    res.once('end', () => reject(new Error(`stream ended after ${n} bytes`)));
  });
}

export interface Probe {
  codec_name: string;
  channels: number;
  sample_rate: string;
  bit_rate: string;
}

/** ffprobe's view of the first audio stream at `url`. */
export async function ffprobe(url: string): Promise<Probe> {
  const { stdout } = await run(
    'ffprobe',
    ['-v', 'error', '-show_streams', '-select_streams', 'a:0', '-of', 'json', url],
    { timeout: 20_000 },
  );
  return (JSON.parse(stdout) as { streams: Probe[] }).streams[0]!;
}

/** `seconds` of the stream at `url` decoded by ffmpeg: interleaved stereo float samples. */
export function ffmpegDecode(url: string, seconds: number): Promise<Float32Array> {
  return new Promise((resolve, reject) => {
    const ff = spawn('ffmpeg', [
      ...['-v', 'error', '-i', url, '-t', String(seconds)],
      ...['-f', 'f32le', '-ac', '2', '-ar', '48000', 'pipe:1'],
    ]);
    const chunks: Buffer[] = [];
    let err = '';
    ff.stdout.on('data', (c: Buffer) => chunks.push(c));
    ff.stderr.on('data', (c: Buffer) => {
      err += c;
    });
    ff.once('error', reject);
    ff.once('close', (code) => {
      if (code !== 0) return reject(new Error(`ffmpeg exited ${code}: ${err}`));
      const all = Buffer.concat(chunks);
      resolve(new Float32Array(all.buffer, all.byteOffset, Math.floor(all.length / 4)));
    });
  });
}

/** One channel of interleaved stereo. */
export function channel(samples: Float32Array, c: 0 | 1): Float32Array {
  const out = new Float32Array(samples.length / 2);
  for (let i = 0; i < out.length; i++) out[i] = samples[i * 2 + c]!;
  return out;
}

/** Frequency by counting rising zero crossings (after a high-pass by mean removal). */
export function frequency(x: Float32Array, rate: number): number {
  let mean = 0;
  for (const v of x) mean += v;
  mean /= x.length;
  let first = -1;
  let last = -1;
  let crossings = 0;
  for (let i = 1; i < x.length; i++) {
    if (x[i - 1]! - mean < 0 && x[i]! - mean >= 0) {
      if (first < 0) first = i;
      else crossings++;
      last = i;
    }
  }
  return crossings > 0 ? (crossings * rate) / (last - first) : 0;
}

/** RMS level in dBFS. */
export function rmsDb(x: Float32Array): number {
  let sum = 0;
  for (const v of x) sum += v * v;
  return 10 * Math.log10(sum / x.length);
}

/**
 * Plays the stream at `url` with ffplay (no window; SDL's dummy audio device, which consumes at
 * the real rate) for `seconds` counted from its first playback clock line, so start-up on a
 * loaded machine does not eat into the playing time, then stops it (a live stream never ends, so
 * -autoexit cannot); gives up `limit` seconds after starting it. Resolves with its stderr (stream
 * info and the playback clock).
 */
export function ffplay(url: string, seconds: number, limit = 30): Promise<string> {
  return new Promise((resolve, reject) => {
    const player = spawn('ffplay', ['-nodisp', '-loglevel', 'info', '-stats', url], {
      env: { ...process.env, SDL_AUDIODRIVER: 'dummy' },
    });
    let log = '';
    let playing: NodeJS.Timeout | undefined;
    player.stderr.on('data', (c: Buffer) => {
      log += c;
      if (!playing && / M-A/.test(log)) {
        playing = setTimeout(() => player.kill('SIGTERM'), seconds * 1000);
      }
    });
    player.once('error', reject);
    const giveUp = setTimeout(() => player.kill('SIGTERM'), limit * 1000);
    player.once('close', () => {
      clearTimeout(playing);
      clearTimeout(giveUp);
      resolve(log);
    });
  });
}

/** ffprobe's packet timestamps (pts, in seconds) of the first `seconds` of the stream at `url`. */
export async function packetTimes(url: string, seconds: number): Promise<number[]> {
  const { stdout } = await run(
    'ffprobe',
    [
      ...['-v', 'error', '-select_streams', 'a:0', '-read_intervals', `%+${seconds}`],
      ...['-show_entries', 'packet=pts_time', '-of', 'csv=p=0', url],
    ],
    { timeout: 30_000 },
  );
  return stdout
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map(Number);
}
