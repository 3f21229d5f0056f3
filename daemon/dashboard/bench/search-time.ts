// Search time for the dashboard bench: each key typed into the search (trusted keys from
// Chromium's input pipeline, 150 ms apart), timed from its keydown to the end of the frame that
// shows the filtered panels (the input handler renders synchronously; a rAF, then a task, runs
// after that frame's paint). Wall clock is what a person waits for, and a loaded machine stretches
// it; so each key's interval is also marked (performance.mark, traced) and the page's main-thread
// CPU time inside it summed from a Chromium trace: the page's own cost.
import type { Browser, Page } from 'playwright-core';
import type { TraceEvent } from './frame-trace';

/** Typed one key at a time; each is cleared again (Ctrl+A, Backspace: the whole house comes
 * back, the costliest change). */
export const QUERIES = ['Room 12', 'Source 7', 'route 3'];

export interface KeyTime {
  /** The field's value after the key. */
  readonly value: string;
  /** keydown to the end of the next frame, wall clock. */
  readonly ms: number;
  /** Main-thread CPU time of the renderer's tasks in that interval. */
  readonly cpuMs: number;
}

export async function searchTimes(browser: Browser, page: Page): Promise<KeyTime[]> {
  await page.evaluate(() => {
    const input = document.querySelector<HTMLInputElement>('#search');
    if (!input) throw new Error('no search field');
    const times: { value: string; ms: number }[] = [];
    let start = 0;
    input.addEventListener('keydown', (event) => {
      start = event.timeStamp;
    });
    input.addEventListener('input', () => {
      const [from, value, n] = [start, input.value, times.length];
      performance.mark(`search-key-${n}-start`, { startTime: from });
      requestAnimationFrame(() =>
        setTimeout(() => {
          times.push({ value, ms: performance.now() - from });
          performance.mark(`search-key-${n}-end`);
        }, 0),
      );
    });
    (globalThis as { searchTimes?: typeof times }).searchTimes = times;
  });
  await page.locator('#search').focus();
  await browser.startTracing(page, { categories: ['toplevel', 'blink.user_timing'] });
  for (const query of QUERIES) {
    await page.keyboard.type(query, { delay: 150 });
    await page.waitForTimeout(300);
    await page.keyboard.press('Control+A');
    await page.keyboard.press('Backspace');
    await page.waitForTimeout(300);
  }
  const events = (
    JSON.parse((await browser.stopTracing()).toString()) as { traceEvents: TraceEvent[] }
  ).traceEvents;
  const times = await page.evaluate(
    () => (globalThis as { searchTimes?: { value: string; ms: number }[] }).searchTimes ?? [],
  );
  const marks = new Map(
    events.filter((e) => e.name.startsWith('search-key-')).map((e) => [e.name, e]),
  );
  return times.map((t, n) => {
    const start = marks.get(`search-key-${n}-start`);
    const end = marks.get(`search-key-${n}-end`);
    if (!start || !end) throw new Error(`dashboard bench: no trace marks for search key ${n}`);
    const tasks = events.filter(
      (e) =>
        e.pid === end.pid &&
        e.tid === end.tid &&
        e.name === 'ThreadControllerImpl::RunTask' &&
        e.ph === 'X' &&
        e.ts < end.ts &&
        e.ts + (e.dur ?? 0) > start.ts,
    );
    const cpu = tasks.reduce((sum, e) => sum + (e.tdur ?? e.dur ?? 0), 0) / 1000;
    return { ...t, cpuMs: cpu };
  });
}

/** p50, p95 and max of `values` (ms), and how many. */
export function spread(values: readonly number[]) {
  const sorted = [...values].sort((a, b) => a - b);
  const at = (p: number) => sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))]!;
  return { p50: at(0.5), p95: at(0.95), max: sorted.at(-1)!, count: sorted.length };
}
