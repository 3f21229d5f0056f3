// `node scripts/bench/bench-site.mjs` (run by `npm run bench`): the site against an empty exported
// Next.js page of the same version, in the same run.
//  - first-load JS (gzipped) of a docs page minus the empty page's: budget 20 KB
//  - Lighthouse mobile total blocking time of our pages / the empty page's (median of RUNS):
//    budget 1.2x
//  - Lighthouse scores of the four pages of the quality bar, mobile (median of RUNS) and desktop:
//    desktop performance budget 98
// Needs the site built (`npm run build -w site`). Prints one line per figure, and one JSON line
// last for scripts/bench/bench-site.mjs, which judges the budgets; exits 0 unless a figure could
// not be measured.
import path from 'node:path';
import { launchLighthouseChrome, runLighthouse } from '../e2e/harness/lighthouse';
import { outDir } from '../e2e/harness/site';
import { serveStatic } from '../e2e/harness/static-server';
import { buildEmptyApp } from './empty-next-app';
import { firstLoadGzipBytes } from './first-load-js';

const runs = Number(process.env.SITE_BENCH_RUNS ?? 3);
const pages = ['/', '/docs/configuration/', '/downloads/', '/esp32-flasher/'];
const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;
const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? (sorted[mid] ?? 0) : ((sorted[mid - 1] ?? 0) + (sorted[mid] ?? 0)) / 2;
};
const htmlFileOf = (sitePath: string) => path.join(sitePath.slice(1), 'index.html');

console.log('site bench: building an empty Next.js App Router page for reference...');
const emptyOut = buildEmptyApp();

const emptyJs = firstLoadGzipBytes(emptyOut, 'index.html');
/** Every figure printed, for the JSON line. */
const measured = {
  budgets: { first_load_above_empty_bytes: 20 * 1024, tbt_ratio: 1.2, desktop_performance: 98 },
  empty_first_load_bytes: emptyJs,
  empty_tbt_ms: 0,
  pages: Object.fromEntries(pages.map((page) => [page, {} as Record<string, unknown>])),
};
console.log(`first-load JS, empty Next page: ${kb(emptyJs)} gz`);
for (const page of pages) {
  const ours = firstLoadGzipBytes(outDir, htmlFileOf(page));
  Object.assign(measured.pages[page]!, { first_load_bytes: ours });
  const verdict = ours - emptyJs <= 20 * 1024 ? 'within' : 'OVER';
  console.log(
    `first-load JS ${page}: ${kb(ours)} gz, ${kb(ours - emptyJs)} above empty (${verdict} the 20 KB budget)`,
  );
}

const site = await serveStatic({ root: outDir });
const empty = await serveStatic({ root: emptyOut });
const chrome = await launchLighthouseChrome();
try {
  // Interleaved rounds after one discarded warm-up, so a cold browser or a burst of load on this
  // shared machine does not land on one side only.
  const targets = [empty.url, ...pages.map((page) => new URL(page.slice(1), site.url).href)];
  await runLighthouse(chrome, empty.url, 'mobile');
  const samples = targets.map(() => [] as number[]);
  const mobileScores = targets.map(() => [] as Record<string, number>[]);
  for (let round = 0; round < runs; round++) {
    for (const [index, url] of targets.entries()) {
      const result = await runLighthouse(chrome, url, 'mobile');
      samples[index]?.push(result.totalBlockingTimeMs);
      mobileScores[index]?.push(result.scores);
    }
  }
  const [emptyTbt = 0, ...ourTbt] = samples.map(median);
  console.log(`mobile TBT, empty Next page: ${emptyTbt.toFixed(0)} ms (median of ${runs})`);
  measured.empty_tbt_ms = emptyTbt;
  for (const [index, page] of pages.entries()) {
    const ours = ourTbt[index] ?? Number.NaN;
    // +1 ms on both sides keeps the ratio finite when the reference blocks for 0 ms.
    const ratio = (ours + 1) / (emptyTbt + 1);
    Object.assign(measured.pages[page]!, { tbt_ms: ours, tbt_ratio: ratio });
    console.log(
      `mobile TBT ${page}: ${ours.toFixed(0)} ms, ratio ${ratio.toFixed(2)}x the empty page (${ratio <= 1.2 ? 'within' : 'OVER'} 1.2x)`,
    );
  }
  for (const [index, page] of pages.entries()) {
    // Median of the rounds for each category.
    const rounds = mobileScores[index + 1] ?? [];
    const medians = Object.fromEntries(
      Object.keys(rounds[0] ?? {}).map((name) => [name, median(rounds.map((r) => r[name] ?? 0))]),
    );
    Object.assign(measured.pages[page]!, { mobile: medians });
    const scores = Object.entries(medians)
      .map(([name, score]) => `${name} ${score}`)
      .join(', ');
    console.log(`lighthouse mobile ${page}: ${scores} (median of ${runs})`);
  }
  for (const page of pages) {
    const result = await runLighthouse(chrome, new URL(page.slice(1), site.url).href, 'desktop');
    Object.assign(measured.pages[page]!, { desktop: result.scores });
    const scores = Object.entries(result.scores)
      .map(([name, score]) => `${name} ${score}`)
      .join(', ');
    console.log(`lighthouse desktop ${page}: ${scores}`);
  }
  console.log(JSON.stringify(measured));
} finally {
  await chrome.close();
  await site.close();
  await empty.close();
}
