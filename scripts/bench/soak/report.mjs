// The soak's verdict from what it recorded: the trends (least-squares slopes after the warm-up)
// against the bounds below, the gaps each monitored sink heard split into those its senders
// caused and the others, 5xx answers, engine faults, config.yaml's validity at every sample, and
// the final configuration against the script's. Pure but for printing.
import { hourlySlope, warmupMs } from './fit.mjs';
import { attribute, intersect, outages, widen } from './gaps.mjs';
import { SINKS } from './house.mjs';
import { SENDERS } from './schedule.mjs';

/**
 * The bounds, per hour of the fitted line. RSS and heap: 1 MB/hour, the issue's figure: a router
 * living for months must not grow by more than a few hundred MB in a year. Descriptors: 5/hour:
 * the count moves with the listeners connected at each sample (a few sockets either way), so a
 * fit over an hour wanders by a few; a real leak (one per event) grows by hundreds an hour.
 * Slopes gate only runs of 30 minutes or more: over a shorter fit the garbage collector's
 * sawtooth and the listeners' coming and going outweigh any trend (smoke runs print them only).
 */
export const BOUNDS = { rssMBPerHour: 1, heapMBPerHour: 1, fdsPerHour: 5 };
export const MIN_MINUTES_TO_GATE_SLOPES = 30;
/** Above this share of the run with the control stream paused, the gap verdict says little. */
export const MAX_MACHINE_PAUSED = 0.01;

/** How long before an outage, and after it, a gap still counts as the sender's. */
export const MARGIN = {
  beforeMs: 500,
  afterMs: { rtp: 3000, scream: 3000, sap: 10_000, pulse: 10_000 },
};

/** Slopes per hour: RSS (from /proc and from inside), heap, external, array buffers, fds, threads, handles. */
export function slopes(outside, inside, minutes) {
  const w = warmupMs(minutes);
  const MB = 1e6;
  const handles = inside.map((s) => ({
    at: s.at,
    n: Object.values(s.resources ?? {}).reduce((a, b) => a + b, 0),
  }));
  // The heap split into compiled code (the JIT) and everything else (objects the daemon keeps).
  const heap = inside.map((s) => ({ at: s.at, objects: s.heapUsed - (s.codeUsed ?? 0) }));
  // The same fits over the second half of what follows the warm-up: a growth that slows down
  // (a JIT settling) shows a smaller late slope, a leak the same.
  const end = Math.max(0, ...inside.map((s) => s.at));
  const late = w + (end - w) / 2;
  return {
    warmupMs: w,
    rssMBPerHour: hourlySlope(outside, 'vmRss', w, MB),
    insideRssMBPerHour: hourlySlope(inside, 'rss', w, MB),
    heapMBPerHour: hourlySlope(inside, 'heapUsed', w, MB),
    heapCodeMBPerHour: hourlySlope(inside, 'codeUsed', w, MB),
    heapObjectsMBPerHour: hourlySlope(heap, 'objects', w, MB),
    late: {
      fromMs: late,
      rssMBPerHour: hourlySlope(outside, 'vmRss', late, MB),
      heapMBPerHour: hourlySlope(inside, 'heapUsed', late, MB),
      heapCodeMBPerHour: hourlySlope(inside, 'codeUsed', late, MB),
      heapObjectsMBPerHour: hourlySlope(heap, 'objects', late, MB),
    },
    externalMBPerHour: hourlySlope(inside, 'external', w, MB),
    arrayBuffersMBPerHour: hourlySlope(inside, 'arrayBuffers', w, MB),
    fdsPerHour: hourlySlope(outside, 'fds', w),
    threadsPerHour: hourlySlope(outside, 'threads', w),
    handlesPerHour: hourlySlope(handles, 'n', w),
  };
}

/**
 * What grew between the first sample after the warm-up and the last: threads by name and
 * descriptors by kind (from /proc), active handles by type (from inside), each `{ what, from, to }`.
 */
export function growth(outside, inside, warmup) {
  const grew = (samples, field, prefix) => {
    const kept = samples.filter((s) => s.at >= warmup && s[field]);
    if (kept.length < 2) return [];
    const [a, b] = [kept[0][field], kept.at(-1)[field]];
    return Object.keys({ ...a, ...b })
      .filter((k) => (b[k] ?? 0) > (a[k] ?? 0))
      .map((k) => ({ what: `${prefix} ${k}`, from: a[k] ?? 0, to: b[k] ?? 0 }));
  };
  return [
    ...grew(outside, 'threadNames', 'threads named'),
    ...grew(outside, 'fdKinds', 'descriptors of kind'),
    ...grew(inside, 'resources', 'handles of type'),
  ].sort((x, y) => y.to - y.from - (x.to - x.from));
}

/**
 * Unexplained gaps that every monitored sink heard at once (overlapping in time): the engine's
 * output as a whole paused (or the machine did), rather than one path.
 */
export function sharedGaps(gaps) {
  const lists = Object.values(gaps).map((g) => g.unexplained);
  if (lists.length < 2) return [];
  return lists[0].filter((g) =>
    lists.slice(1).every((list) => list.some((h) => h.from < g.to && g.from < h.to)),
  );
}

/** Each monitored sink's gaps, split by cause. */
export function sinkGaps(received, events, end) {
  // Only the day counts: at its end the soak stops every sender (and the browser) itself.
  const dayEnd = events.find((e) => e.type === 'day-end')?.at ?? end;
  const machine = received.control?.gaps ?? [];
  const out = outages(
    events,
    SENDERS.map((s) => s.id),
    dayEnd,
  );
  const result = {};
  for (const sink of SINKS.filter((s) => s.monitored)) {
    const senders = SENDERS.filter((s) => s.sink === sink.name);
    const explained = intersect(
      senders.map((s) => widen(out.get(s.id), MARGIN.beforeMs, MARGIN.afterMs[s.kind])),
    );
    const gaps = (received[sink.key]?.gaps ?? []).filter((g) => g.from < dayEnd);
    const { caused, byMachine, unexplained } = attribute(gaps, explained, machine);
    result[sink.key] = {
      senders: senders.map((s) => s.id),
      packets: received[sink.key]?.packets ?? 0,
      silentPackets: received[sink.key]?.silent ?? 0,
      causedBySender: caused.length,
      causedByMachine: byMachine.length,
      unexplained,
      causedMs: Math.round(caused.reduce((n, g) => n + g.to - g.from, 0)),
    };
  }
  return result;
}

/** The verdicts: each { name, ok, detail }, `gated: false` for those recorded only. */
/** The WHEP sessions of the day from the events log: joined, answered 201 (else the statuses),
 * left having received packets, and the errors. */
export function whepSummary(events) {
  const of = (type) => events.filter((e) => e.type === type);
  const opens = of('whep-open');
  const leaves = of('whep-leave');
  return {
    joins: of('whep-join').length,
    answered: opens.filter((e) => e.status === 201).length,
    refused: opens.filter((e) => e.status !== 201).map((e) => e.status),
    left: leaves.length,
    heard: leaves.filter((e) => e.packets > 0).length,
    withoutCandidates: opens.filter((e) => e.candidates === 0).length,
    connected: leaves.filter((e) => e.ice === 'connected' || e.ice === 'completed').length,
    packets: leaves.reduce((n, e) => n + (e.packets ?? 0), 0),
    errors: of('whep-error').map((e) => e.error),
  };
}

export function verdicts({
  dashboard = null,
  whep = null,
  machineGaps = [],
  minutes,
  slope,
  gaps,
  outside,
  errors5xx,
  configDiff,
  fileDiff,
  counts,
  daemonExit,
}) {
  const gate = minutes >= MIN_MINUTES_TO_GATE_SLOPES;
  const within = (v, bound) => v !== null && v < bound;
  const fmt = (v) => (v === null ? 'n/a' : v.toFixed(2));
  const faults = outside.filter(
    (s) => s.engineState !== 'running' || (s.engineRestarts ?? 0) > 0 || s.engineFault,
  );
  const badConfig = outside.filter((s) => s.configProblem);
  const unexplained = Object.entries(gaps).flatMap(([k, g]) =>
    g.unexplained.map((x) => ({ sink: k, ...x })),
  );
  const pausedShare = machineGaps.reduce((n, g) => n + g.to - g.from, 0) / (minutes * 60_000);
  return [
    {
      name: `machine quiet: its control stream paused under ${MAX_MACHINE_PAUSED * 100} % of the run`,
      ok: pausedShare < MAX_MACHINE_PAUSED,
      gated: false,
      note: 'recorded, not judged',
      detail: `${(pausedShare * 100).toFixed(1)} % in ${machineGaps.length} gaps (gaps the control shares are put down to the machine; on a busy machine that hides more)`,
    },
    {
      name: `RSS slope < ${BOUNDS.rssMBPerHour} MB/hour`,
      ok: within(slope.rssMBPerHour, BOUNDS.rssMBPerHour),
      gated: gate,
      detail: `${fmt(slope.rssMBPerHour)} MB/hour`,
    },
    {
      name: `heap slope < ${BOUNDS.heapMBPerHour} MB/hour`,
      ok: within(slope.heapMBPerHour, BOUNDS.heapMBPerHour),
      gated: gate,
      detail: `${fmt(slope.heapMBPerHour)} MB/hour`,
    },
    {
      name: `descriptor slope < ${BOUNDS.fdsPerHour}/hour`,
      ok: within(slope.fdsPerHour, BOUNDS.fdsPerHour),
      gated: gate,
      detail: `${fmt(slope.fdsPerHour)} fds/hour`,
    },
    {
      name: 'no gap a sender did not cause',
      ok: unexplained.length === 0,
      gated: true,
      detail: unexplained.slice(0, 10),
    },
    { name: 'no 5xx', ok: errors5xx.length === 0, gated: true, detail: errors5xx.slice(0, 10) },
    {
      name: 'no engine fault',
      ok: faults.length === 0,
      gated: true,
      detail: faults.slice(0, 3).map((s) => ({
        at: s.at,
        state: s.engineState,
        restarts: s.engineRestarts,
        fault: s.engineFault,
      })),
    },
    {
      name: 'config.yaml valid at every sample',
      ok: badConfig.length === 0,
      gated: true,
      detail: badConfig.slice(0, 3).map((s) => ({ at: s.at, problem: s.configProblem })),
    },
    {
      name: 'every API change accepted',
      ok: counts.refused === 0,
      gated: true,
      detail: `${counts.changes} accepted, ${counts.refused} refused or failed`,
    },
    {
      name: 'every hand edit taken',
      ok: counts.handEditsMissed === 0,
      gated: true,
      detail: `${counts.handEdits - counts.handEditsMissed} of ${counts.handEdits}`,
    },
    {
      name: 'final config as scripted (API)',
      ok: configDiff.length === 0,
      gated: true,
      detail: configDiff.slice(0, 10),
    },
    {
      name: 'final config as scripted (config.yaml)',
      ok: fileDiff.length === 0,
      gated: true,
      detail: fileDiff.slice(0, 10),
    },
    { name: 'daemon alive to the end', ok: daemonExit === null, gated: true, detail: daemonExit },
    ...(whep && whep.joins > 0
      ? [
          {
            name: 'every WHEP session answered, heard audio and left',
            ok:
              whep.answered === whep.joins &&
              whep.left === whep.joins &&
              whep.heard === whep.left &&
              whep.errors.length === 0,
            // Not judged yet: with the namespace's veth the sessions connect and hear audio, but
            // in a 3-minute run one ended early when a second session joined the same sink
            // (bench/README.md). Recorded until that is understood.
            gated: false,
            note: 'recorded, not judged',
            detail: `${whep.joins} joined, ${whep.answered} answered 201 (${whep.withoutCandidates} offered no candidate), ${whep.connected} connected, ${whep.heard} of ${whep.left} that left heard packets (${whep.packets} in all); refused ${JSON.stringify(whep.refused)}; errors ${JSON.stringify(whep.errors.slice(0, 3))}`,
          },
        ]
      : []),
    ...(dashboard
      ? [
          {
            name: 'dashboard page answered to the end, no uncaught page error',
            ok: dashboard.answers && dashboard.pageErrors.length === 0,
            gated: true,
            detail: `answered in ${dashboard.ms} ms; ${dashboard.pageErrors.length} page errors ${JSON.stringify(dashboard.pageErrors.slice(0, 3))}; ${dashboard.consoleErrors} console errors (recorded)`,
          },
        ]
      : []),
  ];
}

/** Prints the summary. */
export function printSummary(result) {
  const s = result.slopes;
  const f = (v, d = 2) => (v === null || v === undefined ? 'n/a' : v.toFixed(d));
  const last = result.samples.outside.at(-1) ?? {};
  console.log(
    `\nsoak: ${result.minutes} min, seed ${result.seed}, ${result.eventsCount} events (${result.counts.changes} API changes, ${result.counts.handEdits} hand edits)`,
  );
  console.log(
    `  samples: ${result.samples.outside.length} outside, ${result.samples.inside.length} inside; fit after ${f(s.warmupMs / 60000, 1)} min`,
  );
  console.log(
    `  RSS ${f(last.vmRss / 1e6, 1)} MB at the end, slope ${f(s.rssMBPerHour)} MB/hour (inside ${f(s.insideRssMBPerHour)})`,
  );
  console.log(
    `  heap slope ${f(s.heapMBPerHour)} MB/hour (compiled code ${f(s.heapCodeMBPerHour)}, objects ${f(s.heapObjectsMBPerHour)}), external ${f(s.externalMBPerHour)}, arrayBuffers ${f(s.arrayBuffersMBPerHour)}`,
  );
  if (s.late) {
    console.log(
      `  after ${f(s.late.fromMs / 60000, 1)} min: RSS slope ${f(s.late.rssMBPerHour)} MB/hour, heap ${f(s.late.heapMBPerHour)} (code ${f(s.late.heapCodeMBPerHour)}, objects ${f(s.late.heapObjectsMBPerHour)})`,
    );
  }
  console.log(
    `  fds ${last.fds ?? 'n/a'} at the end, slope ${f(s.fdsPerHour)}/hour; threads ${last.threads ?? 'n/a'}, slope ${f(s.threadsPerHour)}/hour; handles slope ${f(s.handlesPerHour)}/hour`,
  );
  console.log(
    `  /api/stats: p50 ${f(result.statsLatency.p50, 1)} ms, max ${f(result.statsLatency.max, 1)} ms, ${last.statsBytes ?? 'n/a'} bytes; engine CPU mean ${f(result.engineCpuMean, 1)} %`,
  );
  for (const g of result.growth.slice(0, 8)) {
    console.log(`  grew after the warm-up: ${g.what} ${g.from} -> ${g.to}`);
  }
  const paused = result.machineGaps.reduce((n, g) => n + g.to - g.from, 0);
  console.log(
    `  the machine's control stream: ${result.machineGaps.length} gaps over 40 ms (${paused.toFixed(0)} ms in all)`,
  );
  console.log(`  unexplained gaps on every monitored sink at once: ${result.sharedGaps.length}`);
  for (const [k, g] of Object.entries(result.gaps)) {
    const longest = Math.max(0, ...g.unexplained.map((x) => x.to - x.from));
    console.log(
      `  ${k}: unexplained ${g.unexplained.filter((x) => x.kind === 'packets').length} packet gaps and ${g.unexplained.filter((x) => x.kind === 'silence').length} silences, longest ${longest.toFixed(0)} ms`,
    );
    console.log(
      `  ${k} (${g.senders.join(', ')}): ${g.packets} packets, ${g.causedBySender} gaps senders caused (${g.causedMs} ms), ${g.causedByMachine} the machine's (the control stream paused too), ${g.unexplained.length} unexplained`,
    );
  }
  console.log(`  5xx: ${result.errors5xx.length}`);
  for (const v of result.verdicts) {
    const mark = !v.gated ? 'n/j ' : v.ok ? 'ok  ' : 'FAIL';
    const detail = typeof v.detail === 'string' ? v.detail : JSON.stringify(v.detail);
    console.log(
      `  ${mark} ${v.name}${v.gated ? '' : ` (${v.note ?? `not judged: run under ${MIN_MINUTES_TO_GATE_SLOPES} min`})`}: ${detail}`,
    );
  }
}
