// Frame figures from a Chromium trace of the page while `act` runs. The renderer's vsync ticks
// (BeginFrame) cut the run into frame intervals; the main thread's top-level tasks are summed per
// interval (by start time): that is the frame's main-thread time, which must stay under 16.7 ms
// for the page to keep up at 60 fps. Also: the rendering work of each frame (BeginMainFrame:
// rAF callbacks, style, layout, paint, commit) and the tasks long enough to cost a frame.
import type { Browser, Page } from 'playwright-core';

interface TraceEvent {
  name: string;
  ph: string;
  ts: number;
  dur?: number;
  pid: number;
  tid: number;
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
  /** Main-thread time per vsync interval, ms. */
  readonly frame: Distribution & { readonly over16: number };
  /** Rendering work of each main frame (BeginMainFrame), ms. */
  readonly render: Distribution;
  /** Main-thread tasks over 16.7 ms (each costs at least one frame) and over 50 ms. */
  readonly tasksOver16: number;
  readonly tasksOver50: number;
  /** Share of the run the main thread was busy. */
  readonly busy: number;
}

const FRAME_MS = 1000 / 60;

function distribution(values: number[]): Distribution {
  const sorted = [...values].sort((a, b) => a - b);
  const at = (p: number) =>
    sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;
  return { p50: at(50), p95: at(95), p99: at(99), max: sorted.at(-1) ?? 0, count: sorted.length };
}

export async function traceFrames(
  browser: Browser,
  page: Page,
  act: () => Promise<void>,
): Promise<FrameFigures> {
  await browser.startTracing(page, {
    categories: ['toplevel', 'cc', 'benchmark', 'disabled-by-default-devtools.timeline.frame'],
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
  let t = 0;
  for (let i = 0; i + 1 < vsync.length; i++) {
    let busy = 0;
    while (t < tasks.length && tasks[t]!.ts < vsync[i + 1]!) {
      if (tasks[t]!.ts >= vsync[i]!) busy += tasks[t]!.dur ?? 0;
      t++;
    }
    perFrame.push(busy / 1000);
  }
  const span = vsync.length > 1 ? vsync.at(-1)! - vsync[0]! : 1;
  const busyTotal = tasks
    .filter((e) => e.ts >= vsync[0]! && e.ts < vsync.at(-1)!)
    .reduce((n, e) => n + (e.dur ?? 0), 0);
  const frame = distribution(perFrame);
  return {
    seconds: span / 1e6,
    frame: { ...frame, over16: perFrame.filter((ms) => ms > FRAME_MS).length },
    render: distribution(mainFrames.filter(onMain).map((e) => (e.dur ?? 0) / 1000)),
    tasksOver16: tasks.filter((e) => (e.dur ?? 0) > FRAME_MS * 1000).length,
    tasksOver50: tasks.filter((e) => (e.dur ?? 0) > 50_000).length,
    busy: busyTotal / span,
  };
}

export function formatFrames(label: string, f: FrameFigures): string {
  const ms = (v: number) => `${v.toFixed(1)} ms`;
  return (
    `${label}: ${f.frame.count} frame intervals in ${f.seconds.toFixed(1)} s; main-thread time per ` +
    `frame p50 ${ms(f.frame.p50)}, p95 ${ms(f.frame.p95)}, p99 ${ms(f.frame.p99)}, max ${ms(f.frame.max)}, ` +
    `${f.frame.over16} over 16.7 ms (${((100 * f.frame.over16) / Math.max(1, f.frame.count)).toFixed(1)}%); ` +
    `rendering per frame p95 ${ms(f.render.p95)}; tasks over 16.7 ms: ${f.tasksOver16}, over 50 ms: ` +
    `${f.tasksOver50}; main thread busy ${(100 * f.busy).toFixed(0)}%`
  );
}
