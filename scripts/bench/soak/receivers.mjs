// The soak's stand-ins for speakers: in a worker thread, a UDP socket on each sink's address and port that takes the
// engine's RTP (L16, big-endian, any channel count) and notes for each packet when it came and
// whether it was silent (peak under -66 dBFS), feeding a gap finder as it goes (gaps.mjs).
import { createSocket } from 'node:dgram';
import { Worker } from 'node:worker_threads';
import { gapFinder } from './gaps.mjs';

/** Peak below this (of full scale) is silence. */
export const SILENT_PEAK = 0.0005;

/** The L16 payload of an RTP packet (after the header, CSRCs and any extension). */
export function rtpPayload(msg) {
  if (msg.length < 12 || msg[0] >> 6 !== 2) return null;
  let at = 12 + (msg[0] & 0x0f) * 4;
  if (msg[0] & 0x10) {
    if (msg.length < at + 4) return null;
    at += 4 + msg.readUInt16BE(at + 2) * 4;
  }
  let end = msg.length;
  if (msg[0] & 0x20) end -= msg[end - 1];
  return at <= end ? msg.subarray(at, end) : null;
}

/** Peak of 16-bit big-endian samples, 0-1. */
export function peakL16(payload) {
  let peak = 0;
  for (let i = 0; i + 1 < payload.length; i += 2) {
    const v = Math.abs(payload.readInt16BE(i));
    if (v > peak) peak = v;
  }
  return peak / 32768;
}

/**
 * Receivers for `sinks` ({ key, ip, port }) in a worker thread of their own, so the soak's other
 * work (samples, config parsing, requests) never delays an arrival time. Times are ms from
 * `base` (a performance.timeOrigin + performance.now() instant of the caller's). `stats()` and
 * `close()` (which also returns each one's gaps) resolve with each sink's figures.
 */
export async function startReceivers(sinks, base) {
  const worker = new Worker(new URL('./receiver-worker.mjs', import.meta.url), {
    workerData: { sinks: sinks.map(({ key, ip, port, raw }) => ({ key, ip, port, raw })), base },
  });
  const waiting = [];
  worker.on('message', (m) => waiting.shift()?.(m));
  worker.on('error', (err) => {
    for (const w of waiting.splice(0)) w({ error: err.message });
  });
  const ask = (type) =>
    new Promise((resolve) => {
      waiting.push(resolve);
      worker.postMessage(type);
    });
  const ready = await ask('ready');
  if (ready.error) throw new Error(`receivers: ${ready.error}`);
  return {
    stats: () => ask('stats'),
    async close() {
      const out = await ask('close');
      await worker.terminate();
      return out;
    },
  };
}

/**
 * One sink's receiver in the worker: its socket, gap finder and counts. A `raw` one (the
 * machine's control stream) only notes arrival times: each packet is 6 ms, never silent.
 */
export async function receiver(sink, now, channels = 2, rate = 48_000) {
  const socket = createSocket('udp4');
  const finder = gapFinder();
  const stats = { packets: 0, bytes: 0, silent: 0, malformed: 0, firstAt: null, lastAt: null };
  socket.on('message', (msg) => {
    const at = now();
    if (sink.raw) {
      stats.packets += 1;
      finder.push(at, 6, false);
      return;
    }
    const payload = rtpPayload(msg);
    if (!payload) {
      stats.malformed += 1;
      return;
    }
    const silent = peakL16(payload) < SILENT_PEAK;
    stats.packets += 1;
    stats.bytes += msg.length;
    if (silent) stats.silent += 1;
    stats.firstAt ??= at;
    stats.lastAt = at;
    finder.push(at, (payload.length / (2 * channels) / rate) * 1000, silent);
  });
  await new Promise((resolve) => socket.bind(sink.port, sink.ip, resolve));
  return {
    stats: () => ({ ...stats }),
    close() {
      socket.close();
      return { ...stats, gaps: finder.end() };
    },
  };
}
