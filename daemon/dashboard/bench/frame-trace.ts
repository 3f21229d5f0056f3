// Frame figures from a Chromium trace of the page while `act` runs. The renderer's vsync ticks
// (BeginFrame) cut the run into frame intervals; the main thread's top-level tasks are summed per
// interval (by start time): that is the frame's main-thread time, which must stay under 16.7 ms
// for the page to keep up at 60 fps. Also: the rendering work of each frame (BeginMainFrame:
// rAF callbacks, style, layout, paint, commit), the tasks long enough to cost a frame, the same
// per frame in CPU time (a shared machine stretches wall time: CPU time is the page's own cost),
// and the compositor's presented and dropped frames.
import type { Browser, Page } from 'playwright-core';

/** A Chromium trace event, the fields the benches read. */
export interface TraceEvent {
  name: string;
  ph: string;
  ts: number;
  dur?: number;
  /** Thread (CPU) time, µs: what the task cost, whatever else the machine ran meanwhile. */
  tdur?: number;
  pid: number;
  tid: number;
  args?: { frame_reporter?: { state?: string } };
}

export interface Distribution {
  readonly p50: number;
  readonly p95: number;
  readonly p99: number;
  readonly max: number;
  readonly count: number;
}

export interface FrameFigures {
  readonly seconds: number;
  /** Main-thread time per vsync interval, ms (wall clock: a busy machine lengthens it). */
  readonly frame: Distribution & { readonly over16: number };
  /** The same in the main thread's CPU time, ms: the page's own work per frame. */
  readonly cpu: Distribution & { readonly over16: number };
  /** The compositor's frames: presented (whole or in part) and dropped (Chromium's
   * PipelineReporter, frames where an update was due). */
  readonly presented: number;
  readonly dropped: number;
  /** Rendering work of each main frame (BeginMainFrame), ms. */
  readonly render: Distribution;
  /** Main-thread tasks over 16.7 ms (each costs at least one frame) and over 50 ms. */
  readonly tasksOver16: number;
  readonly tasksOver50: number;
  /** Share of the run the main thread was busy. */
  readonly busy: number;
  /** Where the main thread's time went, ms per frame interval (mean), by kind of work. */
  readonly breakdown: Readonly<Record<WorkKind, number>>;
}

/** Trace events by the kind of work they are (Chromium's timeline names). Events of one kind
 * nest (a FunctionCall inside a FireAnimationFrame): their time is counted once. A script's
 * forced layout counts as layout and as script. */
const WORK = {
  script: ['FunctionCall', 'TimerFire', 'FireAnimationFrame', 'EventDispatch', 'RunMicrotasks'],
  style: ['UpdateLayoutTree', 'ScheduleStyleRecalculation'],
  layout: ['Layout'],
  paint: ['PrePaint', 'Paint', 'Layerize', 'UpdateLayer'],
  commit: ['Commit'],
} as const;
export type WorkKind = keyof typeof WORK;

const FRAME_MS = 1000 / 60;

function distribution(values: number[]): Distribution {
  const sorted = [...values].sort((a, b) => a - b);
  const at = (p: number) =>
    sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;
  return { p50: at(50), p95: at(95), p99: at(99), max: sorted.at(-1) ?? 0, count: sorted.length };
}

/** The time (µs) `spans` cover, each moment once. */
function covered(spans: readonly TraceEvent[]): number {
  let total = 0;
  let end = Number.NEGATIVE_INFINITY;
  for (const e of [...spans].sort((a, b) => a.ts - b.ts)) {
    const stop = e.ts + (e.dur ?? 0);
    if (stop <= end) continue;
    total += stop - Math.max(e.ts, end);
    end = stop;
  }
  return total;
}

export async function traceFrames(
  browser: Browser,
  page: Page,
  act: () => Promise<void>,
): Promise<FrameFigures> {
  await browser.startTracing(page, {
    categories: [
      'toplevel',
      'cc',
      'benchmark',
      'devtools.timeline',
      'disabled-by-default-devtools.timeline.frame',
    ],
  });
  await act();
  const { traceEvents: events } = JSON.parse((await browser.stopTracing()).toString()) as {
    traceEvents: TraceEvent[];
  };

  // The page's renderer main thread: where the main frames ran.
  const mainFrames = events.filter((e) => e.name === 'ProxyMain::BeginMainFrame' && e.ph === 'X');
  const threads = new Map<string, number>();
  for (const e of mainFrames)
    threads.set(`${e.pid}:${e.tid}`, (threads.get(`${e.pid}:${e.tid}`) ?? 0) + 1);
  const [main] = [...threads.entries()].sort((a, b) => b[1] - a[1])[0] ?? [''];
  const [pid, tid] = main.split(':').map(Number);
  const onMain = (e: TraceEvent) => e.pid === pid && e.tid === tid;

  const vsync = events
    .filter((e) => e.pid === pid && e.name === 'BeginFrame')
    .map((e) => e.ts)
    .sort((a, b) => a - b);
  const tasks = events
    .filter((e) => onMain(e) && e.name === 'ThreadControllerImpl::RunTask' && e.ph === 'X')
    .sort((a, b) => a.ts - b.ts);
  const perFrame: number[] = [];
  const cpuPerFrame: number[] = [];
  let t = 0;
  for (let i = 0; i + 1 < vsync.length; i++) {
    let busy = 0;
    let cpu = 0;
    while (t < tasks.length && tasks[t]!.ts < vsync[i + 1]!) {
      if (tasks[t]!.ts >= vsync[i]!) {
        busy += tasks[t]!.dur ?? 0;
        cpu += tasks[t]!.tdur ?? tasks[t]!.dur ?? 0;
      }
      t++;
    }
    perFrame.push(busy / 1000);
    cpuPerFrame.push(cpu / 1000);
  }
  const states = events
    .filter((e) => e.pid === pid && e.name === 'PipelineReporter')
    .map((e) => e.args?.frame_reporter?.state)
    .filter((state) => state !== undefined && state !== 'STATE_NO_UPDATE_DESIRED');
  const dropped = states.filter((state) => state === 'STATE_DROPPED').length;
  const span = vsync.length > 1 ? vsync.at(-1)! - vsync[0]! : 1;
  const busyTotal = tasks
    .filter((e) => e.ts >= vsync[0]! && e.ts < vsync.at(-1)!)
    .reduce((n, e) => n + (e.dur ?? 0), 0);
  const frame = distribution(perFrame);
  const inRun = events.filter(
    (e) => onMain(e) && e.ph === 'X' && e.ts >= vsync[0]! && e.ts < vsync.at(-1)!,
  );
  const breakdown = Object.fromEntries(
    Object.entries(WORK).map(([kind, names]) => {
      const spans = inRun.filter((e) => (names as readonly string[]).includes(e.name));
      return [kind, covered(spans) / 1000 / Math.max(1, perFrame.length)];
    }),
  ) as Record<WorkKind, number>;
  return {
    seconds: span / 1e6,
    frame: { ...frame, over16: perFrame.filter((ms) => ms > FRAME_MS).length },
    cpu: {
      ...distribution(cpuPerFrame),
      over16: cpuPerFrame.filter((ms) => ms > FRAME_MS).length,
    },
    presented: states.length - dropped,
    dropped,
    render: distribution(mainFrames.filter(onMain).map((e) => (e.dur ?? 0) / 1000)),
    tasksOver16: tasks.filter((e) => (e.dur ?? 0) > FRAME_MS * 1000).length,
    tasksOver50: tasks.filter((e) => (e.dur ?? 0) > 50_000).length,
    busy: busyTotal / span,
    breakdown,
  };
}

export function formatFrames(label: string, f: FrameFigures): string {
  const ms = (v: number) => `${v.toFixed(1)} ms`;
  const share = (n: number, of: number) => `${((100 * n) / Math.max(1, of)).toFixed(1)}%`;
  const spread = (d: Distribution & { over16: number }) =>
    `p50 ${ms(d.p50)}, p95 ${ms(d.p95)}, p99 ${ms(d.p99)}, max ${ms(d.max)}, ` +
    `${d.over16} over 16.7 ms (${share(d.over16, d.count)})`;
  const work = Object.entries(f.breakdown)
    .map(([kind, v]) => `${kind} ${v.toFixed(2)} ms`)
    .join(', ');
  return [
    `${label}: ${f.frame.count} frame intervals in ${f.seconds.toFixed(1)} s`,
    `  main-thread time per frame (wall): ${spread(f.frame)}`,
    `  main-thread CPU per frame:         ${spread(f.cpu)}`,
    `  frames presented ${f.presented}, dropped ${f.dropped} (${share(f.dropped, f.presented + f.dropped)}); ` +
      `rendering per frame p95 ${ms(f.render.p95)}; tasks over 16.7 ms: ${f.tasksOver16}, ` +
      `over 50 ms: ${f.tasksOver50}; main thread busy ${(100 * f.busy).toFixed(0)}%`,
    `  per frame (mean): ${work}`,
  ].join('\n');
}
