// The soak's result in the shape every bench writes (scripts/bench/bench-results.d.mts), so that
// bench/results/soak.json sits with the others, passes their shape check and the docs can quote
// it: its figures, and its checks as targets (the slope bounds gate runs of 30 minutes or more
// only). Everything it recorded (samples, gaps, growth, verdicts, the final configuration's
// differences) goes beside it as one JSON object in OUT.record.jsonl (bench/results holds only
// results of the common shape as .json), with the events log as OUT.events.jsonl.
import { writeFileSync } from 'node:fs';
import { startBench } from '../bench-results.mjs';
import { BOUNDS, MIN_MINUTES_TO_GATE_SLOPES } from './report.mjs';

/** A file beside the result `out`: `soak.json` -> `soak.WHAT.jsonl`. */
export const besideResult = (out, what) => `${out.replace(/\.json$/, '')}.${what}.jsonl`;

/** Starts the common result (its date, machine, commit and load now). */
export function startResult(out) {
  return startBench('soak', {
    what: 'a day of a house in an hour: one daemon in a network namespace through senders starting, stopping and stalling, a configuration change a second, hand edits and listeners coming and going; memory, descriptors and threads over time, gaps each sink heard',
    out,
  });
}

/** Records the figures and targets of `result` (runSoak's) and writes both files. */
export function finishResult(bench, result, out) {
  const s = result.slopes;
  const last = result.samples.outside.at(-1) ?? {};
  const sum = (key) => Object.values(result.gaps).reduce((n, g) => n + (g[key] ?? 0), 0);
  const unexplained = Object.values(result.gaps).reduce((n, g) => n + g.unexplained.length, 0);
  const f = bench.figure;
  f('minutes', result.minutes, 'min', { digits: 0, label: 'length of the run' });
  f('events', result.eventsCount, 'count', { digits: 0, label: 'events played' });
  f('api_changes', result.counts?.changes, 'count', { digits: 0 });
  f('hand_edits', result.counts?.handEdits, 'count', { digits: 0 });
  f('rss_slope_mb_per_hour', s.rssMBPerHour, 'MB/hour', {
    digits: 2,
    label: 'RSS, fitted after the warm-up',
  });
  f('heap_slope_mb_per_hour', s.heapMBPerHour, 'MB/hour', {
    digits: 2,
    label: 'V8 heap used, fitted after the warm-up',
  });
  f('heap_code_slope_mb_per_hour', s.heapCodeMBPerHour ?? null, 'MB/hour', {
    digits: 2,
    label: "of which compiled code (V8's code spaces)",
  });
  f('heap_objects_slope_mb_per_hour', s.heapObjectsMBPerHour ?? null, 'MB/hour', {
    digits: 2,
    label: 'of which everything else (objects)',
  });
  f('rss_late_slope_mb_per_hour', s.late?.rssMBPerHour ?? null, 'MB/hour', {
    digits: 2,
    label: 'RSS, fitted over the second half after the warm-up',
  });
  f('heap_late_slope_mb_per_hour', s.late?.heapMBPerHour ?? null, 'MB/hour', {
    digits: 2,
    label: 'V8 heap used, fitted over the second half after the warm-up',
  });
  f('heap_code_late_slope_mb_per_hour', s.late?.heapCodeMBPerHour ?? null, 'MB/hour', {
    digits: 2,
  });
  f('fds_slope_per_hour', s.fdsPerHour, 'per hour', {
    digits: 2,
    label: 'open descriptors, fitted after the warm-up',
  });
  f('threads_slope_per_hour', s.threadsPerHour, 'per hour', { digits: 2 });
  f('rss_end_mb', last.vmRss === undefined ? null : last.vmRss / 1e6, 'MB', { digits: 1 });
  f('fds_end', last.fds, 'count', { digits: 0 });
  f('threads_end', last.threads, 'count', { digits: 0 });
  f('gaps_senders_caused', sum('causedBySender'), 'count', {
    digits: 0,
    label: 'gaps heard that a sender caused (its stop or stall)',
  });
  f('gaps_machine', sum('causedByMachine'), 'count', {
    digits: 0,
    label: "gaps the soak's own control stream had too",
  });
  f('gaps_unexplained', unexplained, 'count', {
    digits: 0,
    label: 'gaps no sender and no machine pause explains',
  });
  f('errors_5xx', result.errors5xx.length, 'count', { digits: 0 });
  f('stats_latency_p50_ms', result.statsLatency.p50, 'ms', {
    digits: 1,
    label: '/api/stats answer time',
  });
  f('stats_latency_max_ms', result.statsLatency.max, 'ms', { digits: 1 });
  f('engine_cpu_mean_percent', result.engineCpuMean, '% of one core', { digits: 1 });
  if (result.whep?.joins > 0) {
    f('whep_sessions', result.whep.joins, 'count', {
      digits: 0,
      label: 'WHEP sessions in Chromium that joined a sink',
    });
    f('whep_heard', result.whep.heard, 'count', {
      digits: 0,
      label: 'of those, sessions that received audio packets',
    });
  }
  f('checks_failed', result.verdicts.filter((v) => v.gated && !v.ok).length, 'count', {
    digits: 0,
    label: "the soak's gated checks that failed",
  });

  const stated = 'scripts/bench/soak/report.mjs (issue 35)';
  const slopesGate = result.minutes >= MIN_MINUTES_TO_GATE_SLOPES;
  const slopeHow = slopesGate
    ? { stated }
    : {
        stated,
        gating: false,
        why: `a fit over under ${MIN_MINUTES_TO_GATE_SLOPES} minutes is the garbage collector's sawtooth and the listeners' churn, not a trend`,
      };
  bench.target('rss_slope_mb_per_hour', '<', BOUNDS.rssMBPerHour, slopeHow);
  bench.target('heap_slope_mb_per_hour', '<', BOUNDS.heapMBPerHour, slopeHow);
  bench.target('fds_slope_per_hour', '<', BOUNDS.fdsPerHour, slopeHow);
  bench.target('gaps_unexplained', '==', 0, { stated });
  bench.target('errors_5xx', '==', 0, { stated });
  bench.target('checks_failed', '==', 0, { stated });
  writeFileSync(besideResult(out, 'record'), `${JSON.stringify(result)}\n`);
  return bench.finish();
}
