// The committed benchmark results (bench/results/NAME.json, written by `npm run bench -- NAME
// --json`; their shape is scripts/bench/bench-results.d.mts), read at build time so the docs show
// the figures a run measured, never a copy. A figure the docs name that the file does not hold
// stops the build, naming both.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { BenchResult, Figure } from '../../scripts/bench/bench-results.mjs';

export type { BenchResult, Figure };

export const benchResultsDir = path.join(process.cwd(), '..', 'bench', 'results');

const cache = new Map<string, BenchResult>();

/** bench/results/NAME.json; throws when it is missing or not a result. */
export function loadBenchResult(bench: string, dir: string = benchResultsDir): BenchResult {
  const file = path.join(dir, `${bench}.json`);
  const cached = cache.get(file);
  if (cached) return cached;
  if (!/^[a-z0-9-]+$/.test(bench) || !existsSync(file)) {
    throw new Error(
      `the docs cite bench "${bench}", but ${file} does not exist (npm run bench -- ${bench} --json)`,
    );
  }
  const result = JSON.parse(readFileSync(file, 'utf8')) as BenchResult;
  if (typeof result.figures !== 'object' || typeof result.machine !== 'object') {
    throw new Error(`${file} is not a bench result (scripts/bench/bench-results.d.mts)`);
  }
  cache.set(file, result);
  return result;
}

/** One figure of a result; throws naming the bench and the figure when it is not there. */
export function benchFigure(bench: string, id: string, dir?: string): Figure {
  const figure = loadBenchResult(bench, dir).figures[id];
  if (!figure) {
    throw new Error(`the docs cite figure "${id}" of bench "${bench}", which its results lack`);
  }
  return figure;
}

/** A figure as its bench printed it (its own number of decimals). */
export function formatFigure(figure: Figure): string {
  return figure.value === null ? 'not measured' : figure.value.toFixed(figure.digits);
}

const ISA_NAMES: Record<string, string> = {
  sse2: 'SSE2',
  avx2: 'AVX2 and FMA',
  avx512: 'AVX-512',
};

/** What a reader needs to weigh the figures: where, when, how and under what load they ran. */
export function describeRun(r: BenchResult): {
  command: string;
  date: string;
  commit: string | null;
  machine: string;
  load: string;
} {
  const m = r.machine;
  const gib = Math.round(m.ram_bytes / 2 ** 30);
  const simd = m.simd
    ? `DSP kernels ${ISA_NAMES[m.simd.used] ?? m.simd.used}${m.simd.used === m.simd.best ? '' : ` (TRIBUTARY_SIMD; the CPU has ${ISA_NAMES[m.simd.best] ?? m.simd.best})`}`
    : 'DSP kernels not recorded';
  const avg = (l: number[]) => l.map((v) => v.toFixed(1)).join(' / ');
  const pressure =
    r.load.cpu_pressure_before === null
      ? ''
      : `; tasks waiting for a CPU ${r.load.cpu_pressure_before.toFixed(0)} % of the minute before, ${(r.load.cpu_pressure_after ?? 0).toFixed(0)} % after`;
  return {
    command: r.command,
    date: r.date.slice(0, 10),
    commit: r.commit
      ? `${r.commit.id.slice(0, 10)}${r.commit.dirty ? ' with uncommitted changes' : ''}`
      : null,
    machine: [
      `${m.cpu}, ${m.cores} cores, ${simd}, ${gib} GiB`,
      m.os ?? m.kernel,
      m.os ? m.kernel : null,
      `Node ${m.node}`,
      m.rustc,
    ]
      .filter(Boolean)
      .join(', '),
    load:
      `load average ${avg(r.load.before)} before and ${avg(r.load.after)} after (1, 5, 15 minutes)${pressure}` +
      (r.load.stress_ng ? `; stress-ng --cpu in ${r.load.stress_ng_runs ?? 'some runs'}` : ''),
  };
}
