// The README's "Hear it", headless (issue 32): its receiver caps and its WAV recipe, run as
// written against a real daemon (ports swapped for free ones), record the tone ffmpeg sends at
// the level the README promises. The caps once said payload=96 while an RTP sink sends 127, and
// GStreamer dropped every packet: the WAV had 44 bytes and nothing was heard.
import assert from 'node:assert/strict';
import { execFile, spawn } from 'node:child_process';
import { createSocket } from 'node:dgram';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { engineOnLoopback, startQuickDaemon } from './daemon-process.js';
import { tempDir } from './helpers.js';

const run = promisify(execFile);
const readme = readFileSync(fileURLToPath(new URL('../../README.md', import.meta.url)), 'utf8');

/** A UDP port free now on 127.0.0.1. */
async function freePort(): Promise<number> {
  const s = createSocket('udp4');
  await new Promise<void>((resolve) => s.bind(0, '127.0.0.1', () => resolve()));
  const { port } = s.address();
  await new Promise<void>((resolve) => s.close(() => resolve()));
  return port;
}

/** The arguments of a README command line (`gst-launch-1.0 ...`), continuation lines joined. */
function readmeCommand(startsWith: string, containing: string): string[] {
  const lines = readme.replace(/\\\n\s*/g, '').split('\n');
  const line = lines.find((l) => l.startsWith(startsWith) && l.includes(containing));
  assert.ok(line, `the README has a '${startsWith} ... ${containing}' line`);
  const command = line.replace(/\s+&?\s*(#.*)?$/, '').replace(/\s&$/, '');
  // Shell words: "..." quoted or bare.
  return [...command.matchAll(/"([^"]*)"|(\S+)/g)].map((m) => m[1] ?? m[2]!);
}

test("the README's Hear it, headless: the recorded WAV holds the 440 Hz tone at the level it names", async (t) => {
  const dir = tempDir(t);
  const sinkPort = await freePort();
  const sourcePort = await freePort();
  const daemon = await startQuickDaemon(dir, { ...engineOnLoopback });
  t.after(() => daemon.stop('SIGKILL'));

  // The receiver, as the README records it: its caps, its pipeline, this test's port and file.
  const wav = join(dir, 'desk.wav');
  const gst = readmeCommand('gst-launch-1.0 -e', 'wavenc')
    .slice(1)
    .map((a) => a.replace(/^port=5004$/, `port=${sinkPort}`))
    .map((a) => a.replace(/^location=desk\.wav$/, `location=${wav}`));
  assert.ok(gst.includes(`port=${sinkPort}`) && gst.includes(`location=${wav}`), gst.join(' '));
  const receiver = spawn('gst-launch-1.0', gst, { stdio: 'ignore' });
  t.after(() => receiver.kill('SIGKILL'));
  const receiverDone = new Promise((resolve) => receiver.once('close', resolve));

  const calls: Array<[string, object]> = [
    ['/sinks', { name: 'Desk', ip: '127.0.0.1', port: sinkPort, protocol: 'rtp' }],
    ['/sources', { name: 'Tone', ip: '127.0.0.1', rtp: { port: sourcePort } }],
    ['/routes', { name: 'Tone to Desk', source: 'Tone', sink: 'Desk' }],
  ];
  for (const [path, body] of calls) {
    const res = await daemon.call('POST', path, body);
    assert.equal(res.status, 201, JSON.stringify(res.body));
  }
  await sleep(500);
  // The README's ffmpeg line, 3 s instead of 10, to this test's source port.
  const ffmpeg = readmeCommand('ffmpeg -re', 'sine=')
    .slice(1)
    .map((a) => a.replace('duration=10', 'duration=3'))
    .map((a) => a.replace('rtp://127.0.0.1:40000', `rtp://127.0.0.1:${sourcePort}`));
  assert.ok(
    ffmpeg.some((a) => a.includes(`:${sourcePort}?pkt_size=1164`)),
    ffmpeg.join(' '),
  );
  await run('ffmpeg', ['-v', 'error', ...ffmpeg], { timeout: 30_000 });
  await sleep(500);
  receiver.kill('SIGINT'); // the README's kill -INT: -e finishes the WAV
  await receiverDone;

  // The README's measure: ffmpeg's volumedetect, max_volume as it prints it.
  const { stderr } = await run('ffmpeg', ['-i', wav, '-af', 'volumedetect', '-f', 'null', '-'], {
    timeout: 30_000,
  });
  const promised = /max_volume: (-?\d+\.\d) dB/.exec(readme)?.[1];
  const measured = /max_volume: (-?\d+\.\d) dB/.exec(stderr)?.[1];
  assert.ok(promised, 'the README names the max_volume to expect');
  assert.equal(measured, promised, `the recorded max_volume (${readFileSync(wav).length} bytes)`);
  // And it is the tone: 440 Hz by zero crossings over the middle second.
  const pcm = await run(
    'ffmpeg',
    ['-v', 'error', '-i', wav, '-ss', '1', '-t', '1', '-ac', '1', '-f', 's16le', '-'],
    { encoding: 'buffer', maxBuffer: 1 << 24 },
  );
  const samples = new Int16Array(pcm.stdout.buffer, pcm.stdout.byteOffset, pcm.stdout.length >> 1);
  let rising = 0;
  for (let i = 1; i < samples.length; i++) if (samples[i - 1]! < 0 && samples[i]! >= 0) rising++;
  assert.ok(Math.abs(rising - 440) <= 2, `${rising} rising zero crossings in 1 s`);
});
