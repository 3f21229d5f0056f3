#!/usr/bin/env node
// Fidelity with real senders (issue 12), Tributary beside GStreamer's rtpjitterbuffer on the
// same stream in the same run (native/engine/benches/fidelity.rs): ffmpeg -re (bursty) at 48 kHz
// and at 44.1 kHz (static payload type 10), a GStreamer live sender (paced), PulseAudio's
// module-rtp-send and a sender injecting 5-20 ms of jitter, idle and under stress-ng --cpu 2.
// For each: the sender's own clock (from its RTP timestamps), pitch error against it per 0.5 s
// window after 5 s (p50/p99 ppm), skips and repeats, gaps
// after the first sound (count and ms, and the ms Tributary's stats counted), Tributary's queued
// audio (added latency) and applied correction. BENCH_FIDELITY_SECONDS=N sets each run's length
// (default 60); BENCH_SOAK=1 runs 5 minutes each; BENCH_FIDELITY_ONLY=TEXT runs only the runs
// whose label ("sender, load") contains TEXT, e.g. "stress-ng".
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const seconds = process.env.BENCH_SOAK ? 300 : Number(process.env.BENCH_FIDELITY_SECONDS ?? 60);
const run = spawnSync(
  'cargo',
  [
    'bench',
    '-p',
    'tributary-engine',
    '--bench',
    'fidelity',
    '--',
    '--seconds',
    String(seconds),
    ...(process.env.BENCH_FIDELITY_ONLY ? ['--only', process.env.BENCH_FIDELITY_ONLY] : []),
  ],
  { cwd: root, stdio: 'inherit' },
);
process.exit(run.status ?? 1);
