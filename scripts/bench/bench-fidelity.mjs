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
// whose label ("sender, load") contains TEXT, e.g. "stress-ng". No target is stated here (the
// engine's tests read the committed bench/results/fidelity.json and hold their runs to it:
// native/engine/tests/fidelity/bounds.rs); `--json` writes that file, whose
// figures are named SENDER.LOAD.RECEIVER.FIGURE (e.g. ffmpeg_48k.idle.tributary.pitch_ppm_p99).
import { fileURLToPath } from 'node:url';
import { runEchoing, startBench } from './bench-results.mjs';

/** fidelity.rs's sender names (common/senders.rs), and the ids of their figures. */
export const SENDER_IDS = {
  'ffmpeg -re': 'ffmpeg_48k',
  'ffmpeg -re 44.1 kHz PT 10': 'ffmpeg_44k',
  'gst rtpL16pay': 'gst',
  'pulseaudio module-rtp-send': 'pulse',
  'bursty 5-20 ms': 'jitter',
};

/** How each receiver's figures are recorded: field, unit, digits printed. */
const HEARD = [
  ['pitch_ppm_p50', 'ppm', 1],
  ['pitch_ppm_p99', 'ppm', 1],
  ['windows', 'count', 0],
  ['gaps', 'count', 0],
  ['gap_ms', 'ms', 1],
  ['heard_s', 's', 1],
];
const TRIBUTARY = [
  ...HEARD,
  ['counted_ms', 'ms', 1],
  ['queued_ms', 'ms', 1],
  ['correction_ppm_p50', 'ppm', 1],
  ['correction_ppm_p99', 'ppm', 1],
  ['late', 'count', 0],
  ['lost', 'count', 0],
  ['skips', 'count', 0],
  ['skipped_ms', 'ms', 1],
  ['repeats', 'count', 0],
  ['repeated_ms', 'ms', 1],
];

/** Records one run's JSON line (fidelity.rs) as figures. */
export function recordRun(bench, run) {
  const sender = SENDER_IDS[run.sender];
  if (!sender) throw new Error(`fidelity.rs ran a sender this script does not know: ${run.sender}`);
  const p = `${sender}.${run.load ? 'stress' : 'idle'}`;
  bench.figure(`${p}.seconds`, run.seconds, 's', { digits: 0 });
  bench.figure(`${p}.sender_clock_ppm`, run.sender_clock_ppm, 'ppm', {
    label: "the sender's clock against this machine's, from its RTP timestamps",
  });
  for (const [field, unit, digits] of TRIBUTARY) {
    bench.figure(`${p}.tributary.${field}`, run.tributary[field], unit, {
      digits,
      ...(field.startsWith('pitch') && {
        reference: {
          tool: 'GStreamer rtpjitterbuffer latency=50 ! rtpL16depay ! audioconvert ! audioresample ! pulsesink, same packets',
          value: run.gstreamer[field],
          ratio: null,
          ratio_is: 'none: compare the two figures (either may be 0)',
        },
      }),
    });
  }
  for (const [field, unit, digits] of HEARD) {
    bench.figure(`${p}.gstreamer.${field}`, run.gstreamer[field], unit, { digits });
  }
  if (run.bursty) {
    bench.figure(`${p}.bursty.packets`, run.bursty.packets, 'count', { digits: 0 });
    bench.figure(`${p}.bursty.holds`, run.bursty.holds, 'count', { digits: 0 });
    bench.figure(`${p}.bursty.max_hold_ms`, run.bursty.max_hold_ms, 'ms');
    bench.figure(`${p}.bursty.mean_late_ms`, run.bursty.mean_late_ms, 'ms');
  }
}

async function main() {
  const seconds = process.env.BENCH_SOAK ? 300 : Number(process.env.BENCH_FIDELITY_SECONDS ?? 60);
  const only = process.env.BENCH_FIDELITY_ONLY;
  const bench = startBench('fidelity', {
    what: 'one RTP stream from real senders to Tributary and to GStreamer rtpjitterbuffer, idle and under stress-ng --cpu 2: pitch, gaps, queued audio, correction',
  });
  const { status, results } = await runEchoing('cargo', [
    ...['bench', '-p', 'tributary-engine', '--bench', 'fidelity', '--'],
    ...['--json', '--seconds', String(seconds), ...(only ? ['--only', only] : [])],
  ]);
  if (status !== 0) {
    console.error(`cargo bench --bench fidelity failed (${status})`);
    process.exit(status ?? 1);
  }
  for (const run of results) recordRun(bench, run);
  const loaded = results.filter((r) => r.load).map((r) => r.sender);
  if (loaded.length) bench.stressNg(`the runs marked stress: ${loaded.join(', ')}`);
  bench.finish();
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await main();
