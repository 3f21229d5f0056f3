#!/usr/bin/env node
// The DSP benchmark (issue 3). Part 1: criterion benches of the kernels (x realtime on one
// core). Part 2: `tributary render` against the equivalent ffmpeg commands on the same generated
// 10-minute input, in the same run, one thread each; prints x realtime and ours/ffmpeg.
// Then the accuracy of the same equalizers against their sliders (bench-native-eq.mjs). Part 3:
// instruction counts of the kernels and of the engine's path under callgrind
// (bench-native-callgrind.mjs), exact and repeatable on a shared machine. BENCH_SECONDS=N changes the input length, BENCH_RUNS=N the
// repetitions (best is kept), BENCH_KERNELS=0 skips parts 1 and 3. `--json` writes
// bench/results/native.json: kernel.NAME (criterion's name, lower case, '/' as '.'), render.JOB,
// eq_accuracy.TOOL, instructions.CASE.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { hasValgrind, instructionCounts } from './bench-native-callgrind.mjs';
import { root, sh } from './bench-native-common.mjs';
import { benchSettings, measure, printAccuracy } from './bench-native-eq.mjs';
import { startBench } from './bench-results.mjs';

const seconds = Number(process.env.BENCH_SECONDS ?? 600);
const runs = Number(process.env.BENCH_RUNS ?? 3);
const bench = startBench('native', {
  what: 'DSP kernels (criterion, callgrind), tributary render against ffmpeg and GStreamer on the same input, EQ accuracy of each',
});
const { figure } = bench;
/** A criterion name as a figure id: "eq 18 bands (all active), 48 kHz/pipelined/2ch" ->
 * "eq-18-bands-all-active-48-khz.pipelined.2ch". */
export const kernelId = (name) =>
  name
    .split('/')
    .map((part) =>
      part
        .toLowerCase()
        .replace(/[^a-z0-9]+/g, '-')
        .replace(/^-|-$/g, ''),
    )
    .join('.');

function step(what) {
  console.log(`\n--- ${what}`);
}

// ---------------------------------------------------------------- part 1: criterion kernels
if (process.env.BENCH_KERNELS !== '0') kernels();

function kernels() {
  step(
    'criterion: DSP kernels, then one path of the engine as render runs it (throughput in frames; x realtime = frames/s / rate)',
  );
  // The DSP core's kernels, and the engine's path (decode, conversion, EQ, volume, encode).
  for (const [crate, bench] of [
    ['tributary-dsp', 'kernels'],
    ['tributary-engine', 'path'],
  ]) {
    const crit = sh(
      'cargo',
      [
        'bench',
        '-p',
        crate,
        '--bench',
        bench,
        '--',
        '--warm-up-time',
        '1',
        '--measurement-time',
        '3',
        '--noplot',
      ],
      { stdio: ['ignore', 'pipe', 'inherit'] },
    );
    readCriterion(crit.stdout);
  }
}

/** Reads criterion's output: each benchmark's throughput, as frames per second and x realtime. */
function readCriterion(stdout) {
  let current = null;
  for (const line of stdout.split('\n')) {
    const name = /^(\S.*?)\s{2,}time:|^(\S[^\n]*\/[^\n]*)$/.exec(line);
    if (name && !line.startsWith(' ')) current = (name[1] ?? name[2]).trim();
    const thrpt = /thrpt:\s+\[\S+ \S+ (\S+) (\S+)/.exec(line);
    if (current && thrpt) {
      const unit = { elem: 1, Kelem: 1e3, Melem: 1e6, Gelem: 1e9 }[thrpt[2].replace('/s', '')] ?? 1;
      const perSecond = Number(thrpt[1]) * unit;
      const rate =
        /44\.1|44100/.test(current) && !/-> 48/.test(current)
          ? 44100
          : current.includes('44.1')
            ? 44100
            : 48000;
      const x = perSecond / rate;
      figure(`kernel.${kernelId(current)}.mframes_per_s`, perSecond / 1e6, 'Mframes/s', {
        label: current,
      });
      figure(`kernel.${kernelId(current)}.x_realtime`, x, 'x realtime', { digits: 0 });
      console.log(
        `${current.padEnd(70)} ${(perSecond / 1e6).toFixed(1).padStart(8)} Mframes/s ${Math.round(x).toString().padStart(7)}x realtime`,
      );
      current = null;
    }
  }
}

// ---------------------------------------------------------------- part 2: render vs ffmpeg
step('building the release addon and the daemon');
sh('npm', ['run', 'build', '-w', 'native/napi'], { stdio: 'inherit' });
const daemonBuild = spawnSync('npm', ['run', 'build', '-w', 'daemon'], {
  cwd: root,
  stdio: 'inherit',
});
if (daemonBuild.status !== 0) {
  // tsc still emits; a type error elsewhere in the daemon (work in progress) does not stop
  // `tributary render` from running.
  if (!existsSync(join(root, 'daemon', 'dist', 'commands', 'render.js'))) {
    throw new Error('the daemon did not build, so tributary render cannot run');
  }
  console.warn(
    'warning: the daemon build reported errors; benchmarking the JavaScript tsc emitted anyway',
  );
}

const dir = mkdtempSync(join(tmpdir(), 'tributary-bench-'));
process.on('exit', () => rmSync(dir, { recursive: true, force: true }));
step(`generating ${seconds} s of stereo s16 test audio (pink noise plus tones) at 44.1 and 48 kHz`);
const input = (rate) => {
  const file = join(dir, `in-${rate}.raw`);
  sh('ffmpeg', [
    '-v',
    'error',
    '-y',
    '-f',
    'lavfi',
    '-i',
    `anoisesrc=color=pink:sample_rate=${rate}:amplitude=0.25:duration=${seconds}`,
    '-f',
    'lavfi',
    '-i',
    `sine=frequency=997:sample_rate=${rate}:duration=${seconds}`,
    '-filter_complex',
    '[0][1]amix=inputs=2:normalize=0,volume=0.7',
    '-ac',
    '2',
    '-f',
    's16le',
    file,
  ]);
  return file;
};
const in44 = input(44100);
const in48 = input(48000);

const gains = Array.from({ length: 18 }, (_, i) => (i % 2 === 0 ? 1.6 : 0.6));
const centres = [
  65.406, 92.499, 130.81, 185.0, 261.63, 369.99, 523.25, 739.99, 1046.5, 1480.0, 2093.0, 2960.0,
  4186.0, 5919.9, 8372.0, 11840, 16744, 20000,
];
const superEq = gains.map((g, i) => `${i + 1}b=${g}`).join(':');
const biquads = centres
  .map((f, i) => `equalizer=f=${f}:t=o:w=0.5:g=${(20 * Math.log10(gains[i])).toFixed(4)}`)
  .join(',');
const eqFlag = gains.map((g, i) => `b${i + 1}=${g}`).join(',');
const out = join(dir, 'out.raw');

const cli = join(root, 'daemon', 'dist', 'cli.js');
const ours = (args) => [process.execPath, [cli, 'render', '--quiet', '--out', out, ...args]];
const ffmpeg = (inFile, rate, filters, outRate = rate) => [
  'ffmpeg',
  [
    '-v',
    'error',
    '-y',
    '-threads',
    '1',
    '-f',
    's16le',
    '-ar',
    String(rate),
    '-ac',
    '2',
    '-i',
    inFile,
    '-filter_threads',
    '1',
    '-af',
    filters,
    '-f',
    's16le',
    '-ar',
    String(outRate),
    '-ac',
    '2',
    out,
  ],
];
const gst = (inFile, rate) => [
  'gst-launch-1.0',
  [
    '-q',
    'filesrc',
    `location=${inFile}`,
    '!',
    `rawaudioparse`,
    'format=pcm',
    'pcm-format=s16le',
    `sample-rate=${rate}`,
    'num-channels=2',
    '!',
    'audioconvert',
    '!',
    'equalizer-nbands',
    'num-bands=18',
    ...gains.map((g, i) => `band${i}::gain=${(20 * Math.log10(g)).toFixed(3)}`),
    '!',
    'audioconvert',
    '!',
    'audio/x-raw,format=S16LE',
    '!',
    'filesink',
    `location=${out}`,
  ],
];

/** Runs a command `runs` times; keeps the best wall time and the best CPU time (user + sys of
 * the process and its threads, from bash's `times`), which a busy shared machine inflates far
 * less than wall time. */
function time([cmd, args]) {
  let wall = Number.POSITIVE_INFINITY;
  let cpu = Number.POSITIVE_INFINITY;
  const quoted = [cmd, ...args].map((a) => `'${a.replaceAll("'", "'\\''")}'`).join(' ');
  for (let i = 0; i < runs; i++) {
    const start = process.hrtime.bigint();
    const res = sh('bash', ['-c', `${quoted} >/dev/null 2>&1 || exit 1; times`]);
    wall = Math.min(wall, Number(process.hrtime.bigint() - start) / 1e9);
    const children = res.stdout.trim().split('\n').at(-1).split(/\s+/);
    const secs = (t) => {
      const m = /(\d+)m([\d.]+)s/.exec(t);
      return m ? Number(m[1]) * 60 + Number(m[2]) : Number.NaN;
    };
    cpu = Math.min(cpu, secs(children[0]) + secs(children[1]));
  }
  return { wall, cpu };
}

const hasGst = spawnSync('gst-inspect-1.0', ['equalizer-nbands'], { stdio: 'ignore' }).status === 0;
const scenarios = [
  {
    name: 'EQ 18 bands, 48 kHz stereo',
    id: 'eq_48k',
    ours: ours(['--in', in48, '--in-format', 's16le:48000:2', '--eq', eqFlag]),
    refs: [
      [
        'ffmpeg superequalizer',
        ffmpeg(in48, 48000, `superequalizer=${superEq}`),
        'ffmpeg_superequalizer',
      ],
      ['ffmpeg 18 x equalizer biquads', ffmpeg(in48, 48000, biquads), 'ffmpeg_biquads'],
      ...(hasGst ? [['gst equalizer-nbands 18', gst(in48, 48000), 'gst_equalizer_nbands']] : []),
    ],
    // The designed EQ (issue 19) must stay at least twice as fast as superequalizer.
    target: { ffmpegRatio: 2, xRealtime: 1000 },
  },
  {
    name: 'full chain s16 44.1k -> resample -> EQ -> volume -> s16 48k',
    id: 'chain_44k_48k',
    ours: ours([
      '--in',
      in44,
      '--in-format',
      's16le:44100:2',
      '--out-format',
      's16le:48000:2',
      '--eq',
      eqFlag,
      '--volume',
      '0.8',
    ]),
    refs: [
      [
        'ffmpeg soxr + superequalizer + volume',
        ffmpeg(
          in44,
          44100,
          `aresample=48000:resampler=soxr,superequalizer=${superEq},volume=0.8`,
          48000,
        ),
        'ffmpeg_soxr_superequalizer_volume',
      ],
    ],
    // Issue 33's open goal (1.4-1.5x today): recorded, not failing the run until it is met.
    target: {
      ffmpegRatio: 2,
      goal: 'open goal of issue 33 (the full chain at 2x ffmpeg), not met since it was set',
    },
  },
  {
    name: 'chain without resampling: s16 48k -> EQ -> volume -> s16 48k',
    id: 'chain_48k',
    ours: ours(['--in', in48, '--in-format', 's16le:48000:2', '--eq', eqFlag, '--volume', '0.8']),
    refs: [
      [
        'ffmpeg superequalizer + volume',
        ffmpeg(in48, 48000, `superequalizer=${superEq},volume=0.8`),
        'ffmpeg_superequalizer_volume',
      ],
    ],
    target: {
      ffmpegRatio: 5,
      goal: "not met since it was set (issue 3; native/README.md: 5x would take less time than Node's start-up and the EQ's arithmetic)",
    },
  },
  {
    name: 'resample only 44.1k -> 48k',
    id: 'resample_44k_48k',
    ours: ours(['--in', in44, '--in-format', 's16le:44100:2', '--out-format', 's16le:48000:2']),
    refs: [
      [
        'ffmpeg aresample soxr',
        ffmpeg(in44, 44100, 'aresample=48000:resampler=soxr', 48000),
        'ffmpeg_soxr',
      ],
    ],
    target: {},
  },
];

step(
  `tributary render vs reference tools: ${seconds} s of audio, best of ${runs}, one thread each (load average ${loadavg()
    .map((l) => l.toFixed(1))
    .join(' ')})`,
);
for (const s of scenarios) {
  const tOurs = time(s.ours);
  const line = (name, t) =>
    `  ${name.padEnd(38)} cpu ${t.cpu.toFixed(3).padStart(6)} s ${String(Math.round(seconds / t.cpu)).padStart(5)}x` +
    `   wall ${t.wall.toFixed(3).padStart(6)} s ${String(Math.round(seconds / t.wall)).padStart(5)}x realtime`;
  console.log(`\n${s.name}`);
  console.log(line('tributary render', tOurs));
  /** The figures of one tool's line. */
  const times = (who, t, label) => {
    const p = `render.${s.id}.${who}`;
    figure(`${p}.cpu_s`, t.cpu, 'CPU s', { digits: 3, label });
    figure(`${p}.x_realtime`, seconds / t.cpu, 'x realtime', { digits: 0 });
    figure(`${p}.wall_s`, t.wall, 's', { digits: 3 });
    figure(`${p}.x_realtime_wall`, seconds / t.wall, 'x realtime', { digits: 0 });
  };
  times('tributary', tOurs, `tributary render: ${s.name}`);
  for (const [refName, cmd, refId] of s.refs) {
    const t = time(cmd);
    // Throughput ratio from CPU time (robust on a shared machine); the wall-time ratio beside it.
    const ratio = t.cpu / tOurs.cpu;
    const wallRatio = t.wall / tOurs.wall;
    times(refId, t, refName);
    figure(`render.${s.id}.${refId}.ratio`, ratio, 'ratio', {
      digits: 2,
      label: `throughput by CPU time, tributary render / ${refName}`,
      reference: {
        tool: refName,
        value: seconds / t.cpu,
        ratio,
        ratio_is: 'reference CPU s / ours (throughput ours / reference)',
      },
    });
    figure(`render.${s.id}.${refId}.ratio_wall`, wallRatio, 'ratio', { digits: 2 });
    console.log(
      `${line(refName, t)}   ours/ref ${ratio.toFixed(2)}x (wall ${wallRatio.toFixed(2)}x)`,
    );
  }
  const how = { stated: 'scripts/bench/bench-native.mjs (issues 3 and 19)' };
  const judged = s.target.goal ? { ...how, gating: false, why: s.target.goal } : how;
  const verdict = (ok) =>
    ok ? 'met' : s.target.goal ? 'MISSED (an open goal: the run does not fail)' : 'MISSED';
  if (s.target.ffmpegRatio) {
    const [refName, , refId] = s.refs[0];
    const id = `render.${s.id}.${refId}.ratio`;
    const ok = bench.target(id, '>=', s.target.ffmpegRatio, judged);
    console.log(
      `  ${verdict(ok)}: target >= ${s.target.ffmpegRatio}x ${refName} (got ${bench.result.figures[id].value.toFixed(2)}x by CPU time)`,
    );
  }
  if (s.target.xRealtime) {
    const id = `render.${s.id}.tributary.x_realtime`;
    const ok = bench.target(id, '>=', s.target.xRealtime, judged);
    console.log(
      `  ${verdict(ok)}: target >= ${s.target.xRealtime}x realtime end to end by CPU time (got ${Math.round(seconds / tOurs.cpu)}x; the EQ kernel alone is in part 1)`,
    );
  }
}
figure('render.input_s', seconds, 's', { digits: 0 });
figure('render.runs', runs, 'count', { digits: 0 });

// ---------------------------------------------------------------- accuracy of the same EQs
step('EQ accuracy: the same slider settings through each equalizer, measured with tones');
const accuracySettings = benchSettings();
const accuracy = measure({ rate: 48000, settings: accuracySettings });
printAccuracy(accuracy, 48000, accuracySettings.length);
for (const r of accuracy) {
  const p = `eq_accuracy.${r.id}`;
  const db = (id, v) => figure(`${p}.${id}`, v, 'dB', { digits: 2, label: r.name.trim() });
  db('centres_max_db', r.centre.max);
  db('centres_rms_db', r.centre.rms);
  db('midpoints_max_db', r.midpoint.max);
  db('midpoints_rms_db', r.midpoint.rms);
  db('all_2_max_db', r.allUp);
}
figure('eq_accuracy.settings', accuracySettings.length, 'count', { digits: 0 });

if (process.env.BENCH_KERNELS !== '0') {
  step(
    "callgrind: instructions per input frame of the kernels and the engine's path (repeatable on a busy machine)",
  );
  if (hasValgrind()) {
    for (const c of instructionCounts()) {
      figure(`instructions.${c.name}`, c.perFrame, 'instructions per input frame');
    }
  } else {
    console.log('valgrind is not installed: skipped');
  }
}

bench.finish();
console.log(
  'Figures measured while other work runs on the machine are noisy; compare ratios from the same run.',
);
