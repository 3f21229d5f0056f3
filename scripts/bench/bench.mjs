#!/usr/bin/env node
// `npm run bench`: runs every benchmark script in order and prints their figures. Each compares
// Tributary with the reference tool on the same input in the same run and prints the ratios.
// `npm run bench -- native` runs only the benchmarks whose name contains "native". `--json` makes
// each write bench/results/NAME.json (scripts/bench/bench-results.mjs); a bench that misses a
// target it states exits 1, and so does this run, unless `--report-only`.
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { chooseByName } from '../shared/choose-by-name.mjs';

const benches = [
  {
    name: 'native',
    script: 'bench-native.mjs',
    what: 'DSP kernels (criterion) and tributary render vs ffmpeg',
  },
  {
    name: 'engine',
    script: 'bench-engine.mjs',
    what: 'audio engine end to end on loopback: latency, send cadence vs GStreamer, CPU',
  },
  {
    name: 'receive',
    script: 'bench-receive.mjs',
    what: 'tributary receive -o pulse: added latency from a Scream packet to the sound server (p50/p99), CPU',
  },
  {
    name: 'streams',
    script: 'bench-streams.mjs',
    what: 'MP3 encoder vs the lame CLI and ffmpeg libmp3lame, Opus vs ffmpeg libopus; 1 vs 50 stream listeners, time to first byte',
  },
  {
    name: 'decode',
    script: 'bench-decode.mjs',
    what: 'URL-playback decoder per format (MP3, FLAC, Vorbis, Opus, WAV, M4A) vs ffmpeg on the same files',
  },
  {
    name: 'fidelity',
    script: 'bench-fidelity.mjs',
    what: 'real senders (ffmpeg -re, GStreamer, 5-20 ms of injected jitter) idle and under load: pitch, gaps, latency vs GStreamer rtpjitterbuffer',
  },
  {
    name: 'solver',
    script: 'bench-solver.mjs',
    what: 'configuration solver: nested groups and 1,000 entities vs chain enumeration',
  },
  {
    name: 'dashboard',
    script: 'bench-dashboard.mjs',
    what: 'dashboard first-load JS vs an empty React app, frame times with 112 entries and live stats',
  },
  {
    name: 'site',
    script: 'bench-site.mjs',
    what: 'website page weight and Lighthouse vs an empty Next.js page',
  },
  {
    name: 'aarch64',
    script: 'bench-aarch64.mjs',
    what: 'the DSP cross-compiled for 64-bit Arm: tests under qemu-user, instructions per frame vs x86-64 (run by name only; needs the Arm cross tools)',
    byNameOnly: true,
  },
  {
    name: 'soak',
    script: 'bench-soak.mjs',
    what: 'a day of a house in an hour: memory, descriptors and gaps under churn (run by name only)',
    byNameOnly: true,
  },
];

// Options with a value, passed on to the benches (the soak's: --minutes N, --seed S, --out FILE).
const VALUE_OPTIONS = ['--minutes', '--seed', '--out'];
const args = process.argv.slice(2);
const flags = [];
const names = [];
for (let i = 0; i < args.length; i++) {
  if (VALUE_OPTIONS.includes(args[i])) flags.push(args[i], args[++i] ?? '');
  else if (args[i].startsWith('--')) flags.push(args[i]);
  else names.push(args[i]);
}
const unknown = flags.filter(
  (f, i) =>
    f.startsWith('--') &&
    f !== '--json' &&
    f !== '--report-only' &&
    f !== '--dashboard' &&
    !VALUE_OPTIONS.includes(f) &&
    !VALUE_OPTIONS.includes(flags[i - 1]),
);
if (unknown.length) {
  console.error(
    `unknown option ${unknown.join(' ')}: npm run bench -- [NAME...] [--json] [--report-only] [--minutes N --seed S --out FILE --dashboard (soak)]`,
  );
  process.exit(2);
}
// The soak runs an hour: only when named.
const chosen = chooseByName(
  names.length ? benches : benches.filter((b) => !b.byNameOnly),
  names,
  'benchmark',
);
const failed = [];
for (const b of chosen) {
  console.log(`\n=== bench: ${b.name} (${b.what})`);
  const script = fileURLToPath(new URL(b.script, import.meta.url));
  const res = spawnSync(process.execPath, [script, ...flags], { stdio: 'inherit' });
  if (res.status !== 0) failed.push(b.name);
}
if (failed.length) {
  console.error(
    `\nbenchmarks that failed to run or missed a target they state: ${failed.join(', ')}`,
  );
  process.exit(1);
}
