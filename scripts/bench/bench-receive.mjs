#!/usr/bin/env node
// `tributary receive -o pulse` (native/receive, issue 30): its added latency from a Scream packet
// in to the sound server, p50 and p99, and its CPU while playing 48 kHz stereo.
//   - A PulseAudio of the bench's own (as native/engine/tests/common/pulse.rs starts one: a
//     private socket, real-time priority where permitted) with a null sink in the receiver's
//     format (48 kHz stereo float); `parec` of its monitor (--latency-msec=10, real-time priority
//     where permitted) records throughout.
//   - This script sends paced Scream packets (6 ms, 16-bit stereo) to the receiver on 127.0.0.1:
//     a quiet 1 kHz tone (-40 dBFS, so the engine mixes sound, not zeros) and, every 500 ms after
//     2 s, a marker (10 ms of 1 kHz at -6 dBFS). A marker's latency is the time from sending its
//     packet to its first frame reaching the recorder.
//   - What the recording side adds is measured the same way: `pacat` (--latency-msec=10) plays
//     the same markers into the same sink, timed from the write to its stdin. Only each marker and
//     30 ms after it are written (its stream runs dry between markers and starts again from its
//     prebuffer), so no backlog builds up in pacat's pipe. The added latency printed is the
//     receiver's figure minus that reference's median.
//   - A marker's time in the recording is the arrival of the first parec read that holds it: late
//     by up to one read (about 10 ms) in the receiver's continuous stream, so the added latency may
//     overstate by that much; pacat's markers start a dry stream and arrive at once (under 2 ms). The null sink has no device buffer: a frame
//     reaches its monitor when the server mixes it, so the figure is packet in -> mixed by the
//     server (the receiver's jitter buffer, its ring, and the stream's -t buffer).
//   - CPU: the receiver process's CPU time (/proc/PID/stat) over the wall time of the marker run,
//     as % of one core, and over 3 s before any sender (nothing to play); with its busiest thread.
// The Scream Unix receiver (the one content/docs/linux-receiver.mdx installs): the docs quote no
// latency or CPU figure for it (only its -t target latency option, default 50 ms), so there is no
// reference figure and ours print alone. Receiver options: -u -t 50 (defaults otherwise).
// BENCH_RECEIVE_SECONDS=N sets the marker run (default 30), BENCH_RECEIVE_PROGRAM another build of
// the receiver (recorded in the result's options); `--json` writes
// bench/results/receive.json. Needs pulseaudio, parec and pacat (Debian pulseaudio,
// pulseaudio-utils) and builds target/release/tributary-receive when it is missing.
import { spawn, spawnSync } from 'node:child_process';
import dgram from 'node:dgram';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { root, startBench } from './bench-results.mjs';
import {
  frameTime,
  markerOnsets,
  matchMarkers,
  PACKET_FRAMES,
  percentile,
  RATE,
  screamPacket,
} from './receive-latency.mjs';

const seconds = Number(process.env.BENCH_RECEIVE_SECONDS ?? 30);
const MARKER_EVERY_MS = 500;
const MARKER_FRAMES = 480;
const WARMUP_MS = 2000;
const PACKET_MS = (PACKET_FRAMES / RATE) * 1000;
const load = () =>
  loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');

for (const tool of ['pulseaudio', 'parec', 'pacat', 'pactl']) {
  if (spawnSync('sh', ['-c', `command -v ${tool}`]).status !== 0) {
    console.error(`the receive bench needs ${tool} (Debian: pulseaudio, pulseaudio-utils)`);
    process.exit(1);
  }
}
const program =
  process.env.BENCH_RECEIVE_PROGRAM ?? join(root, 'target', 'release', 'tributary-receive');
if (!existsSync(program)) {
  console.log('building target/release/tributary-receive');
  const b = spawnSync('cargo', ['build', '--release', '-p', 'tributary-receive'], {
    cwd: root,
    stdio: 'inherit',
  });
  if (b.status !== 0) process.exit(1);
}
/** Real-time priority where this user may have it (chrt), else as is. */
const canChrt = spawnSync('chrt', ['-f', '10', 'true']).status === 0;
// The sender (this script) at real-time priority too, below the sound server's and the
// recorder's: at normal priority on a loaded machine its timers fired up to a second late.
if (canChrt && !process.env.TRIB_RECEIVE_BENCH_RT) {
  const again = spawnSync('chrt', ['-f', '5', process.execPath, ...process.argv.slice(1)], {
    stdio: 'inherit',
    env: { ...process.env, TRIB_RECEIVE_BENCH_RT: '1' },
  });
  process.exit(again.status ?? 1);
}
const rt = (args) => (canChrt ? ['chrt', '-f', '10', ...args] : args);
const bench = startBench('receive', {
  what: 'tributary receive -o pulse: added latency from a Scream packet in to a PulseAudio null sink (p50, p99; recorder path measured with pacat and subtracted) and its CPU at 48 kHz stereo; the Scream Unix receiver has no documented figure',
});
const run = (args, options) => spawn(args[0], args.slice(1), options);

/** The sample of frame `i` of the stream: the quiet tone, and a marker from frame `markerAt`. */
const sample = (i, markerAt) => {
  const m = i - markerAt;
  const marker = m >= 0 && m < MARKER_FRAMES;
  return (marker ? 0.5 : 0.01) * Math.sin((2 * Math.PI * 1000 * i) / RATE);
};

/**
 * Writes the paced stream for `ms` (markers after the warm-up) through `put(frames)`, catching
 * up when a timer fires late; returns the marker send times and the send cadence's lateness.
 */
async function pacedStream(ms, put) {
  const start = performance.now();
  const sent = [];
  const late = [];
  let packet = 0;
  let nextMarker = WARMUP_MS;
  while (packet * PACKET_MS < ms) {
    const due = start + packet * PACKET_MS;
    const now = performance.now();
    if (now < due) {
      await sleep(due - now);
      continue;
    }
    late.push(now - due);
    const t = packet * PACKET_MS;
    const hasMarker = t >= nextMarker && ms - t > MARKER_EVERY_MS;
    const frames = new Float64Array(PACKET_FRAMES);
    for (let f = 0; f < PACKET_FRAMES; f++)
      frames[f] = sample(packet * PACKET_FRAMES + f, hasMarker ? packet * PACKET_FRAMES : -1e9);
    if (hasMarker) {
      sent.push(performance.now());
      nextMarker += MARKER_EVERY_MS;
    }
    put(frames, hasMarker);
    packet++;
  }
  return { sent, late };
}

/** parec's and pacat's options: the device, raw 48 kHz stereo float, a 10 ms buffer. */
const pulseClient = (server, device) => [
  ...['--server', server, '-d', device, '--raw', '--format=float32le'],
  ...['--rate=48000', '--channels=2', '--latency-msec=10'],
];

/** The left channel recorded by parec, with when each read arrived. */
function record(server) {
  const child = run(rt(['parec', ...pulseClient(server, 'out.monitor')]), {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const samples = [];
  const arrivals = [];
  let pending = Buffer.alloc(0);
  child.stdout.on('data', (chunk) => {
    const at = performance.now();
    pending = Buffer.concat([pending, chunk]);
    const whole = Math.floor(pending.length / 8) * 8;
    for (let o = 0; o < whole; o += 8) samples.push(pending.readFloatLE(o));
    pending = pending.subarray(whole);
    arrivals.push({ at, frames: samples.length });
  });
  return { child, samples, arrivals };
}

/** The latencies of the markers sent at `sent` as the recording heard them. */
function latencies(rec, sent) {
  const onsets = markerOnsets(rec.samples, 0.1, RATE * 0.2).map((k) => frameTime(rec.arrivals, k));
  return matchMarkers(
    sent,
    onsets.filter((t) => t !== null),
  );
}

const TICKS = Number(spawnSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).stdout.trim());
/** utime + stime of a /proc stat line, in seconds. */
const statSeconds = (text) => {
  const fields = text.split(') ')[1].split(' ');
  return (Number(fields[11]) + Number(fields[12])) / TICKS;
};
/** The process's CPU seconds, and each thread's by name. */
function cpuSeconds(pid) {
  const threads = {};
  for (const task of readdirSync(`/proc/${pid}/task`)) {
    const name = readFileSync(`/proc/${pid}/task/${task}/comm`, 'utf8').trim();
    threads[name] =
      (threads[name] ?? 0) + statSeconds(readFileSync(`/proc/${pid}/task/${task}/stat`, 'utf8'));
  }
  return { total: statSeconds(readFileSync(`/proc/${pid}/stat`, 'utf8')), threads };
}
/** % of one core between two cpuSeconds over `wallMs`: the process's, and its busiest thread's. */
function cpuPercent(a, b, wallMs) {
  const pct = (x) => (x / (wallMs / 1000)) * 100;
  const [name, secs] = Object.entries(b.threads)
    .map(([n, v]) => [n, v - (a.threads[n] ?? 0)])
    .sort((x, y) => y[1] - x[1])[0];
  return { total: pct(b.total - a.total), busiest: `${name} ${pct(secs).toFixed(1)} %` };
}

const dir = mkdtempSync(join(tmpdir(), 'trib-bench-receive-'));
const socket = join(dir, 'native');
writeFileSync(
  join(dir, 'pa.pa'),
  `load-module module-native-protocol-unix auth-anonymous=1 socket=${socket}\n` +
    'load-module module-null-sink sink_name=out format=float32le rate=48000 channels=2\n',
);
const server = `unix:${socket}`;
const pulse = run(
  [
    ...(canChrt ? ['chrt', '-r', '10'] : []),
    'pulseaudio',
    '-n',
    '-F',
    join(dir, 'pa.pa'),
    '--exit-idle-time=-1',
    '--disallow-exit',
    '--system=false',
    '--daemonize=no',
    '--log-level=error',
  ],
  { env: { ...process.env, HOME: dir, XDG_RUNTIME_DIR: dir }, stdio: 'ignore' },
);
const children = [pulse];
const cleanup = () => {
  for (const c of children.reverse()) c.kill('SIGKILL');
  rmSync(dir, { recursive: true, force: true });
};
process.on('exit', cleanup);

try {
  for (let i = 0; !existsSync(socket); i++) {
    if (i > 200) throw new Error('PulseAudio did not start');
    await sleep(50);
  }
  await sleep(300);
  console.log(
    `load average ${load()} (figures are noisy when other work runs); real-time priority for ` +
      `PulseAudio and the recorder: ${canChrt ? 'yes' : 'no (chrt refused)'}`,
  );

  // The recorder path: pacat playing the markers into the sink, timed from the write.
  const recRef = record(server);
  children.push(recRef.child);
  const pacat = run(rt(['pacat', ...pulseClient(server, 'out')]), {
    stdio: ['pipe', 'ignore', 'inherit'],
  });
  children.push(pacat);
  // Writing before pacat's stream exists would leave what was written meanwhile queued in the
  // pipe for the whole run (seen: 360 ms): the paced writes start once the server has the stream.
  for (let i = 0; ; i++) {
    const inputs = spawnSync('pactl', ['--server', server, 'list', 'short', 'sink-inputs'], {
      encoding: 'utf8',
    });
    if (inputs.stdout.trim() !== '') break;
    if (i > 200) throw new Error("pacat's stream did not appear");
    await sleep(50);
  }
  await sleep(200);
  const refSeconds = Math.min(seconds, 15);
  // Only the marker and 30 ms after it: between markers pacat's stream runs dry and starts
  // again on the next (from its 10 ms prebuffer), so no backlog from a paced write stream that
  // runs ahead of the server's clock builds up (a continuous stream did: 60-490 ms).
  let tail = 0;
  const ref = await pacedStream(refSeconds * 1000, (frames, hasMarker) => {
    if (hasMarker) tail = 6;
    if (tail === 0) return;
    tail--;
    const b = Buffer.alloc(frames.length * 8);
    for (let f = 0; f < frames.length; f++) {
      b.writeFloatLE(frames[f], f * 8);
      b.writeFloatLE(frames[f], f * 8 + 4);
    }
    pacat.stdin.write(b);
  });
  await sleep(700);
  pacat.stdin.end();
  recRef.child.kill();
  const refLat = latencies(recRef, ref.sent);

  // The receiver.
  const port = await new Promise((resolve) => {
    const s = dgram.createSocket('udp4');
    s.bind(0, '127.0.0.1', () => {
      const p = s.address().port;
      s.close(() => resolve(p));
    });
  });
  const rec = record(server);
  children.push(rec.child);
  const rx = run(
    [program, '--no-advertise', '-u', '-p', String(port), '-s', 'out', '-t', '50', '-v'],
    { env: { ...process.env, PULSE_SERVER: server }, stdio: ['ignore', 'ignore', 'pipe'] },
  );
  children.push(rx);
  const rxLines = [];
  rx.stderr.setEncoding('utf8');
  rx.stderr.on('data', (d) => rxLines.push(...d.split('\n').filter(Boolean)));
  // Its CPU before any sender: 3 s with nothing to play.
  await sleep(700);
  const idle0 = cpuSeconds(rx.pid);
  const idleWall = performance.now();
  await sleep(3000);
  const idle = cpuPercent(idle0, cpuSeconds(rx.pid), performance.now() - idleWall);
  const udp = dgram.createSocket('udp4');
  await new Promise((resolve) => udp.bind(0, '127.0.0.1', resolve));
  // CPU over the run after the warm-up (the sender heard, the stream playing).
  let cpu0 = cpuSeconds(rx.pid);
  let wall0 = performance.now();
  const warm = setTimeout(() => {
    cpu0 = cpuSeconds(rx.pid);
    wall0 = performance.now();
  }, WARMUP_MS);
  const got = await pacedStream(seconds * 1000 + WARMUP_MS, (frames) =>
    udp.send(screamPacket(frames), port, '127.0.0.1'),
  );
  clearTimeout(warm);
  const cpu = cpuPercent(cpu0, cpuSeconds(rx.pid), performance.now() - wall0);
  await sleep(700);
  const rxLat = latencies(rec, got.sent);
  udp.close();
  rx.kill('SIGTERM');
  rec.child.kill();
  const lastLine = rxLines.filter((l) => l.includes('card:')).at(-1) ?? '(no -v line)';
  report(refLat, ref, rxLat, got, cpu, idle, lastLine);
} finally {
  cleanup();
}
bench.finish();

/** Records and prints the figures. */
function report(refLat, ref, rxLat, got, cpu, idle, lastLine) {
  const p = (v, q) => percentile(v, q);
  const refP50 = p(refLat.latencies, 50);
  const added = rxLat.latencies.map((l) => l - refP50);
  const f = bench.figure;
  f('seconds', seconds, 's', { digits: 0 });
  f('latency_p50_ms', p(added, 50), 'ms', {
    label: 'added latency p50: Scream packet sent to the sink, minus the pacat reference median',
  });
  f('latency_p99_ms', p(added, 99), 'ms', { label: 'added latency p99, the same' });
  f('raw_latency_p50_ms', p(rxLat.latencies, 50), 'ms', {
    label: 'Scream packet sent to the marker recorded (parec of the monitor), p50',
  });
  f('raw_latency_p99_ms', p(rxLat.latencies, 99), 'ms');
  f('recorder_latency_p50_ms', refP50, 'ms', {
    label: 'recorder path: pacat --latency-msec=10 write to the marker recorded, p50 (subtracted)',
  });
  f('recorder_latency_p99_ms', p(refLat.latencies, 99), 'ms');
  f('markers', rxLat.latencies.length, 'count', { digits: 0 });
  f('markers_missed', rxLat.missed, 'count', { digits: 0 });
  f('reference_markers', refLat.latencies.length, 'count', { digits: 0 });
  f('cpu_percent', cpu.total, '% of one core', {
    label: 'receiver process CPU, 48 kHz stereo Scream',
  });
  f('idle_cpu_percent', idle.total, '% of one core', {
    label: 'receiver process CPU before any sender (nothing to play)',
  });
  f('sender_late_p99_ms', p(got.late, 99), 'ms', {
    digits: 2,
    label: "this script's Scream sender: packets sent late against their schedule, p99",
  });
  const ms = (v) => (v === null ? 'not measured' : `${v.toFixed(1)} ms`);
  console.log(
    `\nrecorder path (pacat --latency-msec=10 -> null sink -> parec --latency-msec=10): ` +
      `p50 ${ms(refP50)}, p99 ${ms(p(refLat.latencies, 99))} over ${refLat.latencies.length} markers` +
      `${refLat.missed ? ` (${refLat.missed} not heard)` : ''}`,
  );
  console.log(
    `tributary receive -o pulse -u -t 50, ${seconds} s: Scream packet sent -> recorded: ` +
      `p50 ${ms(p(rxLat.latencies, 50))}, p99 ${ms(p(rxLat.latencies, 99))} over ` +
      `${rxLat.latencies.length} markers (${rxLat.missed} not heard, ${rxLat.unexplained} onsets no marker explains)`,
  );
  console.log(
    `  added latency (minus the recorder path's median): p50 ${ms(p(added, 50))}, p99 ${ms(p(added, 99))}`,
  );
  console.log(
    `  receiver CPU (process CPU time / wall): ${cpu.total.toFixed(1)} % of one core playing ` +
      `(busiest thread: ${cpu.busiest}), ${idle.total.toFixed(1)} % before any sender (${idle.busiest})`,
  );
  console.log(
    `  this script's sender, packets late against their 6 ms schedule: p99 ${p(got.late, 99).toFixed(2)} ms ` +
      `(pacat run: ${p(ref.late, 99).toFixed(2)} ms)`,
  );
  console.log(`  receiver's last -v line: ${lastLine}`);
  console.log(
    'Scream Unix receiver: no documented latency or CPU figure (content/docs/linux-receiver.mdx ' +
      'quotes only its -t option, default 50 ms): no reference, ours alone.',
  );
  console.log(`load average after: ${load()}`);
}
