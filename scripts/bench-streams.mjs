#!/usr/bin/env node
// The MP3 streams' benchmark (issue 14). On the same input in the same run (BENCH_STREAMS_S
// seconds, default 600 as the issue asks, of 48 kHz stereo: tones, a sweep and pink noise, made
// by ffmpeg; `BENCH_STREAMS_S=60 npm run bench -- streams` for a quicker look):
//   - Tributary's encoder (tributary-codec, LAME built from source, f32 blocks as the engine
//     feeds it; native/codec/examples/mp3_encode.rs) vs the `lame` CLI and ffmpeg's libmp3lame
//     at 320 kbit/s CBR, CPU seconds each (one thread), printed as ratios;
//   - Tributary's Opus encoder (libopus built from source; opus_encode.rs) vs ffmpeg's libopus at
//     the three listening profiles (64/128/256 kbit/s, complexity 5/8/10), 20 ms frames;
//   - WebRTC listening's added latency, from a sink's tap to the RTP packet at a WebRTC
//     listener (p50/p99, target p99 <= 40 ms; native/engine/benches/whep.rs);
//   - the daemon with 1 and 50 listeners of one sink: CPU, encoder CPU, time to first byte
//     (daemon/scripts/bench-streams.ts).
// The references are whole processes (their start, input parsing and muxing count; ours is the
// encoding loop alone), so small ratios favour us by that much. A reference tool that is not
// installed is reported and skipped (Debian: lame, ffmpeg).
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const seconds = Number(process.env.BENCH_STREAMS_S ?? 600);
if (!Number.isInteger(seconds) || seconds < 1 || seconds > 3600) {
  console.error(
    `BENCH_STREAMS_S must be whole seconds from 1 to 3600 (the input's length), not '${process.env.BENCH_STREAMS_S}'`,
  );
  process.exit(2);
}
const dir = mkdtempSync(join(tmpdir(), 'tributary-bench-mp3-'));
const raw = join(dir, 'in.raw');

function run(cmd, args, options = {}) {
  const res = spawnSync(cmd, args, { encoding: 'utf8', maxBuffer: 1 << 26, ...options });
  if (res.error || res.status !== 0) {
    throw new Error(`${cmd} failed: ${res.error?.message ?? res.stderr.slice(-500)}`);
  }
  return res;
}

/** CPU seconds (user + system) of a command, through bash's `time`. */
function cpuOf(cmd, args) {
  const quoted = [cmd, ...args].map((a) => `'${a.replaceAll("'", "'\\''")}'`).join(' ');
  const res = run('bash', ['-c', `TIMEFORMAT='%U %S'; { time ${quoted} >/dev/null 2>&1; } 2>&1`]);
  const [user, sys] = res.stdout.trim().split(/\s+/).map(Number);
  return user + sys;
}

const have = (tool) => spawnSync(tool, ['--help'], { stdio: 'ignore' }).error === undefined;

try {
  if (!have('ffmpeg'))
    throw new Error('ffmpeg is needed to make the input (apt-get install ffmpeg)');
  console.log(`input: ${seconds} s of 48 kHz stereo s16le (tones, sweep, pink noise)`);
  run('ffmpeg', [
    ...['-v', 'error', '-f', 'lavfi', '-i'],
    `aevalsrc=0.25*sin(2*PI*220*t)+0.15*sin(2*PI*(300+200*t/${seconds})*t)|0.25*sin(2*PI*330*t)+0.1*sin(2*PI*1375*t):s=48000:d=${seconds}`,
    ...['-f', 'lavfi', '-i', `anoisesrc=c=pink:a=0.08:r=48000:d=${seconds}`],
    ...['-filter_complex', '[0][1]amix=inputs=2:normalize=0', '-ac', '2'],
    ...['-f', 's16le', '-acodec', 'pcm_s16le', raw],
  ]);

  run(
    'cargo',
    ['build', '--release', '--quiet', '-p', 'tributary-codec', '--example', 'mp3_encode'],
    {
      cwd: root,
      stdio: ['ignore', 'ignore', 'inherit'],
    },
  );
  const ours = JSON.parse(
    run(join(root, 'target/release/examples/mp3_encode'), [raw, '48000', join(dir, 'ours.mp3')])
      .stdout,
  );
  const rows = [
    ['tributary-codec (LAME 3.100 from source)', ours.cpu_s, statSync(join(dir, 'ours.mp3')).size],
  ];
  if (have('lame')) {
    const out = join(dir, 'lame.mp3');
    const cpu = cpuOf('lame', [
      ...['-r', '-s', '48', '--bitwidth', '16', '--signed', '--little-endian'],
      ...['-m', 'j', '-b', '320', '--cbr', '--silent', raw, out],
    ]);
    const version = run('lame', ['--version']).stdout.match(/version ([\d.]+)/)?.[1] ?? '?';
    rows.push([`lame CLI ${version}`, cpu, statSync(out).size]);
  } else console.log('lame is not installed (apt-get install lame): its row is skipped');
  {
    const out = join(dir, 'ffmpeg.mp3');
    const cpu = cpuOf('ffmpeg', [
      ...['-v', 'error', '-threads', '1', '-f', 's16le', '-ar', '48000', '-ac', '2', '-i', raw],
      ...['-c:a', 'libmp3lame', '-b:a', '320k', '-y', out],
    ]);
    rows.push(['ffmpeg -c:a libmp3lame -b:a 320k', cpu, statSync(out).size]);
  }
  console.log('\nMP3 320 kbit/s CBR encode of the same input, CPU seconds (lower is better):');
  for (const [name, cpu, bytes] of rows) {
    console.log(
      `  ${name.padEnd(42)} ${cpu.toFixed(2).padStart(7)} s  ${(seconds / cpu).toFixed(0).padStart(5)}x real time  ` +
        `${((cpu / seconds) * 100).toFixed(2)} % of a core per stream  ${bytes} bytes  ` +
        `ratio ours/this ${(ours.cpu_s / cpu).toFixed(2)}`,
    );
  }

  run(
    'cargo',
    ['build', '--release', '--quiet', '-p', 'tributary-codec', '--example', 'opus_encode'],
    { cwd: root, stdio: ['ignore', 'ignore', 'inherit'] },
  );
  console.log('\nOpus 20 ms frames at each profile, CPU seconds (lower is better):');
  for (const [profile, kbps, complexity] of [
    ['low_latency', 64, 5],
    ['balanced', 128, 8],
    ['high_quality', 256, 10],
  ]) {
    const mine = JSON.parse(
      run(join(root, 'target/release/examples/opus_encode'), [raw, profile]).stdout,
    );
    const out = join(dir, `${profile}.ogg`);
    const cpu = cpuOf('ffmpeg', [
      ...['-v', 'error', '-threads', '1', '-f', 's16le', '-ar', '48000', '-ac', '2', '-i', raw],
      ...['-c:a', 'libopus', '-b:a', `${kbps}k`, '-compression_level', String(complexity)],
      ...['-frame_duration', '20', '-application', 'audio', '-y', out],
    ]);
    console.log(
      `  ${`${profile} (${kbps} kbit/s, complexity ${complexity})`.padEnd(42)} ` +
        `tributary-codec ${mine.cpu_s.toFixed(2)} s (${(seconds / mine.cpu_s).toFixed(0)}x real time, ` +
        `${mine.bytes} bytes), ffmpeg libopus ${cpu.toFixed(2)} s (${statSync(out).size} bytes, Ogg): ` +
        `ratio ${(mine.cpu_s / cpu).toFixed(2)}`,
    );
  }

  console.log('\nWebRTC (WHEP):');
  const whep = spawnSync(
    'cargo',
    ['bench', '--quiet', '-p', 'tributary-engine', '--bench', 'whep', '--', '--seconds', '20'],
    { cwd: root, stdio: ['ignore', 'inherit', 'inherit'] },
  );
  if (whep.status !== 0) process.exitCode = 1;

  console.log('\nDaemon, one sink, 1 and 50 listeners:');
  const daemon = spawnSync(process.execPath, ['--import', 'tsx', 'scripts/bench-streams.ts'], {
    cwd: join(root, 'daemon'),
    stdio: 'inherit',
  });
  if (daemon.status !== 0) process.exitCode = 1;
} catch (err) {
  console.error(err.message);
  process.exitCode = 1;
} finally {
  rmSync(dir, { recursive: true, force: true });
}
