// `npm run bench -- dashboard` (scripts/bench-dashboard.mjs):
//  - first-load JS of the dashboard, gzipped and as the daemon sends it (brotli), against an
//    empty React 19 app built by the same Vite: budget 150 KB gzipped;
//  - frame figures from a Chromium trace of the dashboard with 32 sources, 16 sinks and 64 routes
//    on a real daemon (engine on, 4 sources sending audio) while /ws/stats streams and the three
//    panels scroll (the route lines redraw every frame): once with the daemon's own stats (1 per
//    second), once with stats forced to 30 per second; the empty dashboard as the floor. Target:
//    every frame's main-thread work under 16.7 ms (60 fps).
// BENCH_SECONDS=N sets each scenario's length (default 8). Exits 0 unless a figure could not be
// measured.
import type { Socket } from 'node:dgram';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import type { Page } from 'playwright-core';
import { build } from 'vite';
import { receivers, sendScream } from '../e2e/harness/audio';
import { dashboardDir, ensureBuilt, type Running, start } from '../e2e/harness/dashboard';
import { FIRST_LOAD_BUDGET_BYTES, firstLoad } from './first-load';
import { formatFrames, traceFrames } from './frame-trace';

const seconds = Number(process.env.BENCH_SECONDS ?? 8);
const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;

// First-load JS
ensureBuilt();
const ours = firstLoad(path.join(dashboardDir, 'dist'));
const emptyOut = mkdtempSync(path.join(tmpdir(), 'tributary-empty-react-'));
await build({
  root: fileURLToPath(new URL('./empty-react/', import.meta.url)),
  configFile: false,
  logLevel: 'warn',
  plugins: [react()],
  build: { outDir: emptyOut, emptyOutDir: true, target: 'es2022', reportCompressedSize: false },
});
const empty = firstLoad(emptyOut);
rmSync(emptyOut, { recursive: true, force: true });
console.log(`first-load JS, empty React 19 app: ${kb(empty.gzipBytes)} gz`);
console.log(
  `first-load JS, dashboard: ${kb(ours.gzipBytes)} gz (${kb(ours.brotliBytes)} brotli as served, ` +
    `${kb(ours.rawBytes)} raw, ${ours.files} files), ${(ours.gzipBytes / empty.gzipBytes).toFixed(2)}x the empty app, ` +
    `${ours.gzipBytes <= FIRST_LOAD_BUDGET_BYTES ? 'within' : 'OVER'} the 150 KB budget`,
);

// Frame figures
const scrollPanels = (page: Page) =>
  page.evaluate(
    (ms) =>
      new Promise<void>((resolve) => {
        const panels = Array.from(document.querySelectorAll<HTMLElement>('.column-scroll'));
        const end = performance.now() + ms;
        const step = (now: number) => {
          for (const panel of panels) {
            const range = panel.scrollHeight - panel.clientHeight;
            const phase = (now / 4000) % 2;
            panel.scrollTop = range * (phase < 1 ? phase : 2 - phase);
          }
          if (now < end) requestAnimationFrame(step);
          else resolve();
        };
        requestAnimationFrame(step);
      }),
    seconds * 1000,
  );

async function populate(run: Running, receivers: Socket[]) {
  for (let i = 0; i < 16; i++) {
    const port = receivers[i]!.address().port;
    await run.api('POST', '/sinks', { name: `Room ${i + 1}`, ip: '127.0.0.1', port });
  }
  for (let i = 0; i < 32; i++) {
    await run.api('POST', '/sources', { name: `Source ${i + 1}`, ip: `127.0.1.${i + 1}` });
  }
  for (let i = 0; i < 64; i++) {
    const source = `Source ${(i % 32) + 1}`;
    const sink = `Room ${(((i % 32) + (i < 32 ? 0 : 5)) % 16) + 1}`;
    await run.api('POST', '/routes', { name: `Route ${i + 1}`, source, sink });
  }
}

const sinks = await receivers(16);
const run = await start();
let stopAudio = () => {};
try {
  const floor = await run.open('/', { width: 1440, height: 900 });
  await floor.page.getByRole('heading', { name: /^Sources/ }).waitFor();
  console.log(
    formatFrames(
      'frames, empty dashboard (floor)',
      await traceFrames(run.browser, floor.page, () => scrollPanels(floor.page)),
    ),
  );
  await floor.context.close();

  await populate(run, sinks);
  const stats = (await run.api('GET', '/api/stats')).body as {
    engine: { ports: { scream: number[] } };
  };
  stopAudio = await sendScream(
    stats.engine.ports.scream[0]!,
    [1, 2, 3, 4].map((i) => `127.0.1.${i}`),
  );

  const live = await run.open('/', { width: 1440, height: 900 });
  await live.page.waitForFunction(
    () => Number(document.querySelector('canvas.route-lines')?.getAttribute('data-lines')) > 0,
  );
  await live.page.waitForFunction(() =>
    Array.from(document.querySelectorAll('.chip')).some((c) =>
      c.textContent?.startsWith('playing'),
    ),
  );
  const real = await traceFrames(run.browser, live.page, () => scrollPanels(live.page));
  console.log(
    formatFrames('frames, 32 sources / 16 sinks / 64 routes, stats 1/s, panels scrolling', real),
  );
  await live.context.close();

  // The same page with /ws/stats forced to 30 messages a second: the daemon's messages pass
  // through, and between them the last one is re-sent with its counters moved on.
  const fast = await run.open('about:blank', { width: 1440, height: 900 });
  await fast.page.routeWebSocket(/\/ws\/stats$/, (ws) => {
    const server = ws.connectToServer();
    let last: { sources: { packets: number }[]; sinks: { packets: number }[] } | null = null;
    server.onMessage((message) => {
      last = JSON.parse(String(message));
      ws.send(message);
    });
    const timer = setInterval(() => {
      if (!last) return;
      for (const s of [...last.sources, ...last.sinks]) s.packets += 5;
      ws.send(JSON.stringify(last));
    }, 33);
    ws.onClose(() => clearInterval(timer));
  });
  await fast.page.goto('/');
  await fast.page.waitForFunction(
    () => Number(document.querySelector('canvas.route-lines')?.getAttribute('data-lines')) > 0,
  );
  const stressed = await traceFrames(run.browser, fast.page, () => scrollPanels(fast.page));
  console.log(formatFrames('frames, same, stats forced to 30/s', stressed));
  await fast.context.close();

  const verdict = (p95: number) => (p95 <= 1000 / 60 ? 'within' : 'OVER');
  console.log(
    `60 fps target (p95 main-thread time per frame <= 16.7 ms): stats 1/s ${verdict(real.frame.p95)}, ` +
      `stats 30/s ${verdict(stressed.frame.p95)}`,
  );
} finally {
  stopAudio();
  for (const r of sinks) r.close();
  await run.close();
}
