// The shape of bench/results/NAME.json, written by every bench script through bench-results.mjs
// (`npm run bench -- NAME --json`) and read by the site's <BenchFigure>, <BenchTable> and
// <BenchSource> (site/lib/bench-results.ts). `checkShape` in bench-results.mjs holds files to it;
// a change here bumps SCHEMA there.

export interface Machine {
  /** CPU model as the kernel reports it. */
  cpu: string;
  /** Logical CPUs available to the bench. */
  cores: number;
  /** The instruction set the DSP kernels dispatch to (the native binding's `simdDispatch()`,
   * which follows TRIBUTARY_SIMD) and the best this CPU has; null when the binding is not built. */
  simd: { used: string; best: string; problem: string | null } | null;
  /** TRIBUTARY_SIMD as set for the run. */
  simd_env: string | null;
  ram_bytes: number;
  /** e.g. "Linux 6.1.0-31-amd64". */
  kernel: string;
  /** PRETTY_NAME of /etc/os-release. */
  os: string | null;
  node: string;
  /** `rustc -V`. */
  rustc: string | null;
}

export interface Load {
  /** Load averages (1, 5 and 15 minutes) when the bench started, and when it ended. */
  before: number[];
  after: number[];
  /** /proc/pressure/cpu "some avg60": % of the last minute a task waited for a CPU (null where
   * the kernel has no PSI). */
  cpu_pressure_before: number | null;
  cpu_pressure_after: number | null;
  /** Whether the bench ran stress-ng itself, and in which runs. */
  stress_ng: boolean;
  stress_ng_runs: string | null;
}

export interface Reference {
  /** The reference tool, and how it was run. */
  tool: string;
  /** Its figure, in the unit of the figure this is attached to (or as `ratio_is` says). */
  value: number | null;
  /** As the bench prints it; null where a ratio means nothing (two figures that may be 0). */
  ratio: number | null;
  /** What the ratio divides, e.g. "ours CPU s / reference CPU s". */
  ratio_is: string;
}

export interface Figure {
  /** null: not measured in this run. */
  value: number | null;
  /** "ms", "ppm", "x realtime", "% of one core", "count", "dB", ... */
  unit: string;
  /** Decimals the bench prints; the docs print the same. */
  digits: number;
  /** What it is, in the bench's words. */
  label?: string;
  reference?: Reference;
}

export interface Target {
  /** The id of the figure it judges. */
  figure: string;
  op: '<=' | '<' | '>=' | '>' | '==';
  limit: number;
  value: number | null;
  met: boolean;
  /** false: an open goal, recorded but never failing the run (`why` says why). */
  gating: boolean;
  /** Where the target is stated. */
  stated: string;
  why?: string;
}

export interface BenchResult {
  /** The version of this shape. */
  schema: number;
  bench: string;
  /** One line: what the bench measures. */
  what: string;
  /** ISO 8601, when the bench started. */
  date: string;
  duration_s: number;
  /** HEAD when the bench ran, and whether tracked files (bench/results/ aside) differed from it. */
  commit: { id: string; dirty: boolean } | null;
  /** How it was run, e.g. "npm run bench -- fidelity --json". */
  command: string;
  /** The BENCH_*, SITE_BENCH_* and TRIBUTARY_SIMD settings in effect. */
  options: Record<string, string>;
  machine: Machine;
  load: Load;
  /** By id: lower case, dotted, e.g. "ffmpeg_48k.idle.tributary.pitch_ppm_p99". */
  figures: Record<string, Figure>;
  targets: Target[];
  /** Every gating target met (true when there is none). */
  met: boolean;
}

export declare const SCHEMA: number;
export declare const root: string;
export declare const resultsDir: string;
export declare function machine(): Machine;
export declare function benchFlags(argv?: string[]): { json: boolean; reportOnly: boolean };
export interface BenchRun {
  result: BenchResult;
  flags: { json: boolean; reportOnly: boolean };
  figure(
    id: string,
    value: number | null | undefined,
    unit: string,
    more?: { digits?: number; label?: string; reference?: Reference },
  ): number | null;
  target(
    figure: string,
    op: Target['op'],
    limit: number,
    how: { stated: string; gating?: boolean; why?: string },
  ): boolean;
  stressNg(runs: string): void;
  finish(): BenchResult;
}
export declare function startBench(
  bench: string,
  options: {
    what: string;
    argv?: string[];
    out?: string;
    env?: Record<string, string | undefined>;
  },
): BenchRun;
export declare function lastJsonLine(stdout: string, program: string): unknown;
export declare function runEchoing(
  cmd: string,
  args: string[],
  options?: object,
): Promise<{ status: number | null; results: unknown[] }>;
export declare function readResult(bench: string, dir?: string): BenchResult;
export declare function checkShape(result: unknown): string[];
export declare function formatFigure(figure: Figure): string;
