// What every benchmark records, in one shape (issue 27): `npm run bench -- NAME --json` makes each
// bench script write bench/results/NAME.json through `startBench`, with the machine, the load
// before and after, the date, the git commit, the options in effect, every figure the bench prints
// (unit, the digits it printed, and the reference tool's figure and the ratio where there is one)
// and its stated targets. A bench with a gating target missed exits 1 unless run with
// `--report-only`. The docs render these files (site/components/mdx/bench-figure.tsx) and
// scripts/bench/test/bench-docs.test.mjs checks native/README.md's figures against them.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { availableParallelism, cpus, loadavg, release, totalmem, type } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository root. */
export const root = fileURLToPath(new URL('../..', import.meta.url));
/** Where `--json` writes: one file per bench, committed when the docs quote it. */
export const resultsDir = join(root, 'bench', 'results');
/** The version of the shape below; a change to it bumps this and the readers follow. */
export const SCHEMA = 1;

// The shape of a result (BenchResult, Figure, Target...) is declared once, with what each field
// means, in bench-results.d.mts: the site reads the files with those types, and `checkShape`
// below holds every file read or written to it.

/** The flags `npm run bench` passes on to every bench script. */
export function benchFlags(argv = process.argv.slice(2)) {
  return { json: argv.includes('--json'), reportOnly: argv.includes('--report-only') };
}

const run = (cmd, args) => {
  const r = spawnSync(cmd, args, { cwd: root, encoding: 'utf8' });
  return r.status === 0 ? r.stdout.trim() : null;
};

/** "some avg60" of /proc/pressure/cpu, or null. */
function cpuPressure() {
  try {
    const m = /^some avg10=[\d.]+ avg60=([\d.]+)/m.exec(readFileSync('/proc/pressure/cpu', 'utf8'));
    return m ? Number(m[1]) : null;
  } catch {
    return null;
  }
}

function simd() {
  try {
    const native = createRequire(import.meta.url)('../../native/napi/index.js');
    const { used, best, problem } = native.simdDispatch();
    return { used, best, problem: problem ?? null };
  } catch {
    return null;
  }
}

/** @returns {import('./bench-results.d.mts').Machine} */
export function machine() {
  let os = null;
  try {
    os = /^PRETTY_NAME="?([^"\n]*)/m.exec(readFileSync('/etc/os-release', 'utf8'))?.[1] ?? null;
  } catch {}
  return {
    cpu: cpus()[0]?.model ?? 'unknown',
    cores: availableParallelism(),
    simd: simd(),
    simd_env: process.env.TRIBUTARY_SIMD ?? null,
    ram_bytes: totalmem(),
    kernel: `${type()} ${release()}`,
    os,
    node: process.version,
    rustc: run('rustc', ['-V']),
  };
}

function commit() {
  const id = run('git', ['rev-parse', 'HEAD']);
  if (!id) return null;
  return {
    id,
    // bench/results/ itself does not count: a chain of benches rewrites it as it goes.
    dirty:
      (run('git', [
        'status',
        '--porcelain',
        '--untracked-files=no',
        '--',
        '.',
        ':!bench/results',
      ]) ?? '') !== '',
  };
}

const round = (v) => Math.round(v * 100) / 100;
const judge = {
  '<=': (v, l) => v <= l,
  '<': (v, l) => v < l,
  '>=': (v, l) => v >= l,
  '>': (v, l) => v > l,
  '==': (v, l) => v === l,
};

/**
 * Starts recording a bench: the date, machine, commit and the load now. `figure` and `target`
 * record as the bench prints; `finish` takes the load again, writes bench/results/NAME.json with
 * `--json` (or to `options.out`), prints the targets missed and sets process.exitCode to 1 when a
 * gating one was, unless `--report-only`.
 * @param {string} bench
 * @param {{ what: string, argv?: string[], out?: string, env?: Record<string, string | undefined> }} options
 */
export function startBench(bench, { what, argv = process.argv.slice(2), out, env = process.env }) {
  const flags = benchFlags(argv);
  const started = Date.now();
  const options = Object.fromEntries(
    Object.entries(env).filter(
      ([k, v]) => /^(SITE_)?BENCH_|^TRIBUTARY_SIMD$/.test(k) && v !== undefined,
    ),
  );
  /** @type {import('./bench-results.d.mts').BenchResult} */
  const result = {
    schema: SCHEMA,
    bench,
    what,
    date: new Date(started).toISOString(),
    duration_s: 0,
    commit: commit(),
    command: ['npm run bench --', bench, ...argv].join(' '),
    options,
    machine: machine(),
    load: {
      before: loadavg().map(round),
      after: [],
      cpu_pressure_before: cpuPressure(),
      cpu_pressure_after: null,
      stress_ng: false,
      stress_ng_runs: null,
    },
    figures: {},
    targets: [],
    met: true,
  };
  return {
    result,
    flags,
    /**
     * Records a figure (`value` null when not measured); returns the value.
     * @param {string} id
     * @param {number | null | undefined} value
     * @param {string} unit
     * @param {{ digits?: number, label?: string, reference?: import('./bench-results.d.mts').Reference }} [more]
     */
    figure(id, value, unit, { digits = 1, label, reference } = {}) {
      if (!/^[a-z0-9][a-z0-9_.-]*$/.test(id))
        throw new Error(`figure id ${JSON.stringify(id)}: lower case, digits, . _ -`);
      if (id in result.figures) throw new Error(`figure ${id} recorded twice`);
      const v = value === undefined || value === null || !Number.isFinite(value) ? null : value;
      result.figures[id] = {
        value: v,
        unit,
        digits,
        ...(label ? { label } : {}),
        ...(reference ? { reference } : {}),
      };
      return v;
    },
    /**
     * Judges a recorded figure against a stated target; returns whether it was met.
     * @param {string} figure
     * @param {import('./bench-results.d.mts').Target['op']} op
     * @param {number} limit
     * @param {{ stated: string, gating?: boolean, why?: string }} how
     */
    target(figure, op, limit, { stated, gating = true, why }) {
      const f = result.figures[figure];
      if (!f) throw new Error(`target on figure ${figure}, which was not recorded`);
      if (!gating && !why) throw new Error(`target on ${figure} does not gate: say why`);
      const met = f.value !== null && judge[op](f.value, limit);
      result.targets.push({
        figure,
        op,
        limit,
        value: f.value,
        met,
        gating,
        stated,
        ...(why ? { why } : {}),
      });
      return met;
    },
    /** Notes that the bench ran stress-ng itself, and in which runs. */
    stressNg(runs) {
      result.load.stress_ng = true;
      result.load.stress_ng_runs = runs;
    },
    /** Ends the run: see startBench. Returns the result. */
    finish() {
      result.duration_s = Math.round((Date.now() - started) / 1000);
      result.load.after = loadavg().map(round);
      result.load.cpu_pressure_after = cpuPressure();
      const missed = result.targets.filter((t) => !t.met);
      result.met = missed.every((t) => !t.gating);
      for (const t of missed) {
        console.log(
          `${t.gating ? 'TARGET MISSED' : 'goal not met (does not fail the run)'}: ${t.figure} ${t.value ?? 'not measured'} ${t.op} ${t.limit}` +
            ` (${t.stated}${t.why ? `; ${t.why}` : ''})`,
        );
      }
      const file = out ?? (flags.json ? join(resultsDir, `${bench}.json`) : null);
      if (file) {
        mkdirSync(join(file, '..'), { recursive: true });
        writeFileSync(file, `${JSON.stringify(result, null, 2)}\n`);
        console.log(`figures written to ${file.startsWith(root) ? file.slice(root.length) : file}`);
      }
      if (!result.met) {
        if (flags.reportOnly) console.log('--report-only: a target was missed, exiting 0 anyway');
        else process.exitCode = 1;
      }
      return result;
    },
  };
}

/**
 * The last line of `stdout` that is a JSON object (how the benches a script runs hand it their
 * figures), or throws naming the program.
 */
export function lastJsonLine(stdout, program) {
  const line = stdout
    .split('\n')
    .reverse()
    .find((l) => l.startsWith('{'));
  if (!line) throw new Error(`no JSON result from ${program}:\n${stdout.slice(-2000)}`);
  return JSON.parse(line);
}

/**
 * Runs a program as the benches run their measurements: its output shown as it comes, except the
 * JSON lines it prints for the script, which are collected (one object per line).
 * @returns {Promise<{ status: number | null, results: object[] }>}
 */
export function runEchoing(cmd, args, options = {}) {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { cwd: root, stdio: ['ignore', 'pipe', 'inherit'], ...options });
    const results = [];
    let rest = '';
    const take = (line) => {
      if (line.startsWith('{')) results.push(JSON.parse(line));
      else process.stdout.write(`${line}\n`);
    };
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (chunk) => {
      const lines = (rest + chunk).split('\n');
      rest = lines.pop() ?? '';
      for (const line of lines) take(line);
    });
    child.on('error', reject);
    child.on('close', (status) => {
      if (rest) take(rest);
      resolve({ status, results });
    });
  });
}

/** Reads a committed result, checking its shape; throws naming the file and what is wrong. */
export function readResult(bench, dir = resultsDir) {
  const file = join(dir, `${bench}.json`);
  if (!existsSync(file))
    throw new Error(`${file} does not exist: run npm run bench -- ${bench} --json`);
  const r = JSON.parse(readFileSync(file, 'utf8'));
  const problems = checkShape(r);
  if (problems.length) throw new Error(`${file}: ${problems.join('; ')}`);
  return r;
}

/** What is wrong with a result's shape (empty when nothing is). */
export function checkShape(r) {
  const p = [];
  if (r?.schema !== SCHEMA) p.push(`schema is ${r?.schema}, not ${SCHEMA}`);
  for (const k of ['bench', 'what', 'date', 'command'])
    if (typeof r?.[k] !== 'string') p.push(`${k} is not a string`);
  for (const k of ['cpu', 'kernel', 'node'])
    if (typeof r?.machine?.[k] !== 'string') p.push(`machine.${k} is missing`);
  if (!Number.isInteger(r?.machine?.cores)) p.push('machine.cores is missing');
  for (const k of ['before', 'after'])
    if (!Array.isArray(r?.load?.[k]) || r.load[k].length !== 3)
      p.push(`load.${k} is not 3 load averages`);
  if (typeof r?.load?.stress_ng !== 'boolean') p.push('load.stress_ng is not a boolean');
  for (const [id, f] of Object.entries(r?.figures ?? {})) {
    if (!(f.value === null || Number.isFinite(f.value))) p.push(`figure ${id} has no value`);
    if (typeof f.unit !== 'string' || !Number.isInteger(f.digits))
      p.push(`figure ${id} lacks unit or digits`);
  }
  for (const t of r?.targets ?? [])
    if (!(t.figure in (r.figures ?? {}))) p.push(`target on unknown figure ${t.figure}`);
  if (typeof r?.met !== 'boolean') p.push('met is not a boolean');
  return p;
}

/** A figure as the bench printed it (and the docs show it). */
export function formatFigure(f) {
  return f.value === null ? 'not measured' : f.value.toFixed(f.digits);
}
