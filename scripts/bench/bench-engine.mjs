#!/usr/bin/env node
// The audio engine's benchmark (issue 4), for two topologies of 32 Scream sources x 16 Scream
// sinks, 48 kHz stereo 16-bit, volume and a different non-flat 18-band EQ on every path:
//   - 64 paths: each sink mixes 4 sources;
//   - 512 paths: every source on every sink (all to all).
// For each, end to end on loopback (native/engine/benches/loopback.rs): send-cadence jitter p99
// (from the kernel's arrival stamps, and as the receiving threads saw it),
// engine CPU (its threads' CPU time) as % of one core and per path, underruns; added latency
// p50/p99 (one source -> one sink, default buffer) is measured once. Then the render cost alone
// (native/engine/benches/graph.rs: the same graph on a simulated clock, no network, no sleeping),
// which a busy machine disturbs much less. Reference in the same run: the send cadence of a
// GStreamer live RTP pipeline (audiotestsrc is-live ! rtpL16pay ptime 6 ms ! udpsink) measured the
// same way on an idle machine, printed as a ratio; its threads run at normal priority, the engine's at real-time priority when permitted.
// BENCH_ENGINE_SECONDS=N sets the load phase length (default 20); BENCH_SOAK=1 runs 10 minutes
// per topology; BENCH_ENGINE_PATHS=512 (or 64) runs one topology only. The targets are the ones
// loopback.rs states (it lists them in its JSON line); `--json` writes bench/results/engine.json.
import { spawnSync } from 'node:child_process';
import { cpus, loadavg } from 'node:os';
import { lastJsonLine, root, startBench } from './bench-results.mjs';

const bench = startBench('engine', {
  what: '32 Scream sources x 16 Scream sinks on loopback, 64 and 512 paths: added latency, send cadence against a GStreamer live RTP sender, engine CPU, render CPU alone',
});
const seconds = process.env.BENCH_SOAK ? 600 : Number(process.env.BENCH_ENGINE_SECONDS ?? 20);
const topologies = [
  { paths: 64, label: '64 paths (each sink mixes 4 sources)', perSink: 4 },
  { paths: 512, label: '512 paths (every source on every sink)', perSink: 32 },
].filter(
  (t) => !process.env.BENCH_ENGINE_PATHS || String(t.paths) === process.env.BENCH_ENGINE_PATHS,
);
if (topologies.length === 0) {
  console.error('BENCH_ENGINE_PATHS must be 64 or 512');
  process.exit(2);
}

const load = () =>
  loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');

/** Runs one engine bench binary through cargo and returns its JSON line. */
function cargoBench(name, args) {
  const run = spawnSync(
    'cargo',
    ['bench', '-p', 'tributary-engine', '--bench', name, '--', '--json', '--report-only', ...args],
    { cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] },
  );
  if (run.status !== 0) {
    console.error(`cargo bench --bench ${name} failed (${run.status})`);
    process.exit(1);
  }
  return lastJsonLine(run.stdout, `the ${name} benchmark`);
}

/** The GStreamer live L16 RTP sender's cadence jitter (p99 of |interval - median|, from kernel
 * arrival stamps and as the receiving thread saw it) over `secs` seconds, or null without gst. */
function gstreamerCadence(secs) {
  const r = cargoBench('loopback', ['--gst-reference', String(secs)]);
  return r.reference_p99_ms === null ? null : r;
}

/** `[target <what> <op> <limit>: meets target]` for a figure of this run, from loopback.rs's
 * targets, or nothing when it states none for it. */
const verdict = (id, what, unit = '') =>
  bench.result.targets
    .filter((t) => t.figure === id)
    .map(
      (t) =>
        ` [target ${what}${t.op === '==' ? '' : `${t.op} `}${t.limit}${unit}: ${t.met ? 'meets target' : 'MISSES target'}]`,
    )
    .join('');

console.log(
  `machine: ${cpus()[0]?.model ?? 'unknown'} x${cpus().length}, load average ${load()} ` +
    '(figures are noisy when other work runs)',
);
console.log(
  '32 Scream sources x 16 Scream sinks, 48 kHz stereo 16-bit in and out, volume and a different',
);
console.log('non-flat 18-band EQ on every path; senders on 127.0.0.10+, sinks on 127.0.0.1');
const results = [];
for (const [n, t] of topologies.entries()) {
  // The latency phase (one source -> one sink) does not depend on the topology: once.
  const latency = n === 0 ? [] : ['--latency-seconds', '0'];
  const loopback = cargoBench('loopback', [
    '--per-sink',
    String(t.perSink),
    '--seconds',
    String(seconds),
    ...latency,
  ]);
  const render = cargoBench('graph', ['--per-sink', String(t.perSink), '--seconds', '20']);
  results.push({ t, loopback, render, load: load() });
}
const reference = gstreamerCadence(Math.min(seconds, 10));

const gst = reference
  ? bench.figure('gstreamer.cadence_jitter_p99_ms', reference.reference_p99_ms, 'ms', {
      digits: 3,
      label: 'GStreamer live RTP sender, normal priority: send-cadence jitter p99 (kernel stamps)',
    })
  : null;
if (reference) {
  bench.figure('gstreamer.received_jitter_p99_ms', reference.reference_received_p99_ms, 'ms', {
    digits: 3,
    label: 'GStreamer live RTP sender: cadence jitter p99 as the receiving thread saw it',
  });
}
/** loopback.rs's figure names, and ours. */
const ids = {
  latency_ms_p99: 'latency_p99_ms',
  cadence_jitter_ms_p99: 'cadence_jitter_p99_ms',
  cpu_percent_of_one_core: 'cpu_percent',
  underruns: 'underruns',
  queue_overflows: 'queue_overflows',
};

for (const { t, loopback: r, render, load: after } of results) {
  const p = `paths_${t.paths}`;
  const f = (id, value, unit, more) => bench.figure(`${p}.${id}`, value, unit, more);
  f('seconds', r.seconds, 's', { digits: 0 });
  if (r.latency_ms_p50 !== null) {
    f('latency_p50_ms', r.latency_ms_p50, 'ms', { label: 'added latency p50, 1 source -> 1 sink' });
    f('latency_p99_ms', r.latency_ms_p99, 'ms', { label: 'added latency p99, 1 source -> 1 sink' });
    f('latency_markers', r.latency_samples, 'count', { digits: 0 });
  }
  f('cadence_jitter_p99_ms', r.cadence_jitter_ms_p99, 'ms', {
    digits: 3,
    label: 'send-cadence jitter p99, kernel arrival stamps',
    ...(gst !== null && {
      reference: {
        tool: 'GStreamer live RTP sender (audiotestsrc is-live ! rtpL16pay ! udpsink), normal priority',
        value: gst,
        ratio: r.cadence_jitter_ms_p99 / gst,
        ratio_is: 'ours / GStreamer',
      },
    }),
  });
  f('packets_out', r.packets_out, 'count', { digits: 0 });
  f('received_jitter_p99_ms', r.received_jitter_ms_p99, 'ms', { digits: 3 });
  f('cpu_percent', r.cpu_percent_of_one_core, '% of one core', { label: 'engine CPU' });
  f('cpu_percent_per_path', r.cpu_percent_per_path, '% of one core', { digits: 3 });
  f('render_cpu_percent', render.cpu_percent_of_one_core, '% of one core', {
    label: 'render alone (graph.rs, no network)',
  });
  f('render_cpu_percent_per_path', render.cpu_percent_per_path, '% of one core', { digits: 4 });
  f('underruns', r.underruns, 'count', { digits: 0 });
  f('queue_overflows', r.queue_overflows, 'count', { digits: 0 });
  f('engine_max_late_ms', r.engine_max_late_ms, 'ms');
  f('sender_stalls', r.sender_stalls, 'count', { digits: 0 });
  for (const target of r.targets) {
    const id = `${p}.${ids[target.figure] ?? target.figure}`;
    if (id in bench.result.figures && bench.result.figures[id].value !== null) {
      bench.target(id, target.op, target.limit, {
        stated: 'native/engine/benches/loopback.rs (issue 4)',
      });
    }
  }

  console.log(`\n${t.label}, ${r.seconds} s (load average after: ${after})`);
  if (r.latency_ms_p50 !== null) {
    console.log(
      `  added latency (1 source -> 1 sink, default buffer): p50 ${r.latency_ms_p50.toFixed(1)} ms, ` +
        `p99 ${r.latency_ms_p99.toFixed(1)} ms over ${r.latency_samples} markers` +
        verdict(`${p}.latency_p99_ms`, 'p99 ', ' ms'),
    );
  }
  const ratio = reference
    ? `; GStreamer live RTP sender, normal priority, idle machine: ${reference.reference_p99_ms.toFixed(3)} ms, ` +
      `ours/gst ${(r.cadence_jitter_ms_p99 / reference.reference_p99_ms).toFixed(2)}`
    : '; GStreamer reference unavailable';
  console.log(
    `  send-cadence jitter p99 (kernel arrival stamps): ${r.cadence_jitter_ms_p99.toFixed(3)} ms ` +
      `over ${r.packets_out} packets${ratio}${verdict(`${p}.cadence_jitter_p99_ms`, '', ' ms')}`,
  );
  console.log(
    `  as the benchmark's receiving threads saw it: ${r.received_jitter_ms_p99.toFixed(3)} ms` +
      (reference ? ` (GStreamer: ${reference.reference_received_p99_ms.toFixed(3)} ms)` : '') +
      "; they run below the engine's real-time threads, so on a busy machine this adds their own wait",
  );
  console.log(
    `  engine CPU: ${r.cpu_percent_of_one_core.toFixed(1)} % of one core, ` +
      `${r.cpu_percent_per_path.toFixed(3)} % per path` +
      `${verdict(`${p}.cpu_percent`, '', ' %')}; ` +
      `render alone (no network): ${render.cpu_percent_of_one_core.toFixed(1)} %, ` +
      `${render.cpu_percent_per_path.toFixed(4)} % per path`,
  );
  console.log(
    `  underruns: ${r.underruns}, receive-queue overflows: ${r.queue_overflows}` +
      `${verdict(`${p}.underruns`, 'underruns ')}${verdict(`${p}.queue_overflows`, 'overflows ')}; ` +
      `engine ticks late by at most ${r.engine_max_late_ms.toFixed(1)} ms` +
      (r.sender_stalls
        ? ` (the benchmark's own senders stalled > 18 ms ${r.sender_stalls} times; each stall ` +
          'empties every path, so up to one underrun per path per stall is theirs)'
        : ''),
  );
}
bench.finish();
