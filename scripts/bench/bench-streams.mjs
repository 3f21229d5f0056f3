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
// installed is reported and skipped (Debian: lame, ffmpeg). The one target is WebRTC's p99 (stated
// in whep.rs); `--json` writes bench/results/streams.json.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { root, runEchoing, startBench } from './bench-results.mjs';

const seconds = Number(process.env.BENCH_STREAMS_S ?? 600);
if (!Number.isInteger(seconds) || seconds < 1 || seconds > 3600) {
  console.error(
    `BENCH_STREAMS_S must be whole seconds from 1 to 3600 (the input's length), not '${process.env.BENCH_STREAMS_S}'`,
  );
  process.exit(2);
}
const bench = startBench('streams', {
  what: 'MP3 and Opus encoders against lame and ffmpeg on the same input, WebRTC added latency, the daemon with 1 and 50 MP3 listeners',
});
const figure = bench.figure;
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
  figure('input_s', seconds, 's', { digits: 0 });
  const rows = [
    [
      'tributary-codec (LAME 3.100 from source)',
      ours.cpu_s,
      statSync(join(dir, 'ours.mp3')).size,
      'tributary',
    ],
  ];
  if (have('lame')) {
    const out = join(dir, 'lame.mp3');
    const cpu = cpuOf('lame', [
      ...['-r', '-s', '48', '--bitwidth', '16', '--signed', '--little-endian'],
      ...['-m', 'j', '-b', '320', '--cbr', '--silent', raw, out],
    ]);
    const version = run('lame', ['--version']).stdout.match(/version ([\d.]+)/)?.[1] ?? '?';
    rows.push([`lame CLI ${version}`, cpu, statSync(out).size, 'lame']);
  } else console.log('lame is not installed (apt-get install lame): its row is skipped');
  {
    const out = join(dir, 'ffmpeg.mp3');
    const cpu = cpuOf('ffmpeg', [
      ...['-v', 'error', '-threads', '1', '-f', 's16le', '-ar', '48000', '-ac', '2', '-i', raw],
      ...['-c:a', 'libmp3lame', '-b:a', '320k', '-y', out],
    ]);
    rows.push(['ffmpeg -c:a libmp3lame -b:a 320k', cpu, statSync(out).size, 'ffmpeg']);
  }
  console.log('\nMP3 320 kbit/s CBR encode of the same input, CPU seconds (lower is better):');
  for (const [name, cpu, bytes, id] of rows) {
    figure(`mp3.${id}.cpu_s`, cpu, 'CPU s', { digits: 2, label: name });
    figure(`mp3.${id}.x_realtime`, seconds / cpu, 'x realtime', { digits: 0 });
    figure(`mp3.${id}.core_percent`, (cpu / seconds) * 100, '% of one core', { digits: 2 });
    figure(`mp3.${id}.bytes`, bytes, 'bytes', { digits: 0 });
    if (id !== 'tributary') {
      figure(`mp3.${id}.ratio`, ours.cpu_s / cpu, 'ratio', {
        digits: 2,
        label: `CPU seconds, tributary-codec / ${name}`,
        reference: {
          tool: name,
          value: cpu,
          ratio: ours.cpu_s / cpu,
          ratio_is: 'ours CPU s / reference CPU s',
        },
      });
    }
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
    const bytes = statSync(out).size;
    const tool = `ffmpeg libopus ${kbps}k, compression_level ${complexity}, 20 ms, Ogg`;
    figure(`opus.${profile}.tributary.cpu_s`, mine.cpu_s, 'CPU s', { digits: 2 });
    figure(`opus.${profile}.tributary.x_realtime`, seconds / mine.cpu_s, 'x realtime', {
      digits: 0,
    });
    figure(`opus.${profile}.tributary.bytes`, mine.bytes, 'bytes', { digits: 0 });
    figure(`opus.${profile}.ffmpeg.cpu_s`, cpu, 'CPU s', { digits: 2, label: tool });
    figure(`opus.${profile}.ffmpeg.bytes`, bytes, 'bytes', { digits: 0 });
    figure(`opus.${profile}.ratio`, mine.cpu_s / cpu, 'ratio', {
      digits: 2,
      reference: {
        tool,
        value: cpu,
        ratio: mine.cpu_s / cpu,
        ratio_is: 'ours CPU s / reference CPU s',
      },
    });
    console.log(
      `  ${`${profile} (${kbps} kbit/s, complexity ${complexity})`.padEnd(42)} ` +
        `tributary-codec ${mine.cpu_s.toFixed(2)} s (${(seconds / mine.cpu_s).toFixed(0)}x real time, ` +
        `${mine.bytes} bytes), ffmpeg libopus ${cpu.toFixed(2)} s (${bytes} bytes, Ogg): ` +
        `ratio ${(mine.cpu_s / cpu).toFixed(2)}`,
    );
  }

  console.log('\nWebRTC (WHEP):');
  const whep = await runEchoing('cargo', [
    ...['bench', '--quiet', '-p', 'tributary-engine', '--bench', 'whep', '--'],
    ...['--seconds', '20', '--json', '--report-only'],
  ]);
  const w = whep.results.at(-1);
  if (whep.status !== 0 || !w) throw new Error(`the whep bench failed (${whep.status})`);
  figure('webrtc.seconds', w.seconds, 's', { digits: 0 });
  figure('webrtc.bursts', w.bursts, 'count', { digits: 0 });
  figure('webrtc.heard', w.heard, 'count', { digits: 0 });
  figure('webrtc.latency_p50_ms', w.p50_ms, 'ms', {
    label: "added latency, a sink's WebRTC tap to the RTP packet at a str0m listener",
  });
  figure('webrtc.latency_p99_ms', w.p99_ms, 'ms');
  figure('webrtc.latency_max_ms', w.max_ms, 'ms');
  figure('webrtc.tap_to_write_max_ms', w.tap_to_write_max_ms, 'ms');
  bench.target('webrtc.latency_p99_ms', '<=', w.target_p99_ms, {
    stated: 'native/engine/benches/whep.rs (issue 14)',
  });

  console.log('\nDaemon, one sink, 1 and 50 listeners:');
  const daemon = await runEchoing(
    process.execPath,
    ['--import', 'tsx', 'scripts/bench-streams.ts'],
    { cwd: join(root, 'daemon') },
  );
  const d = daemon.results.at(-1);
  if (daemon.status !== 0 || !d)
    throw new Error(`the daemon's stream bench failed (${daemon.status})`);
  for (const r of [d.one, d.fifty]) {
    const p = `listeners_${r.listeners}`;
    figure(`${p}.daemon_cpu_percent`, r.daemon_cpu_percent, '% of one core', {
      label: 'daemon process: engine, encoder, HTTP',
    });
    figure(`${p}.encoder_cpu_percent`, r.encoder_cpu_percent, '% of one core');
    figure(`${p}.ttfb_first_ms`, r.ttfb_first_ms, 'ms', {
      label: 'first listener (starts the encoder)',
    });
    if (r.ttfb_join_ms !== null) {
      figure(`${p}.ttfb_join_ms`, r.ttfb_join_ms, 'ms', { label: 'joining listeners, median' });
    }
  }
  figure(
    'listeners_50_vs_1.daemon_cpu',
    d.fifty.daemon_cpu_percent / d.one.daemon_cpu_percent,
    'ratio',
    { digits: 2 },
  );
  figure(
    'listeners_50_vs_1.encoder_cpu',
    (d.fifty.encoder_cpu_percent ?? 0) / (d.one.encoder_cpu_percent || 1),
    'ratio',
    { digits: 2 },
  );
  bench.finish();
} catch (err) {
  console.error(err.message);
  process.exitCode = 1;
} finally {
  rmSync(dir, { recursive: true, force: true });
}
