// Types of eq-tones.mjs for the TypeScript tests that use it.
export declare const CENTRES: readonly number[];
export declare function sliderDb(value: number): number;
export declare function sliderCurveDb(gains: readonly number[], freq: number): number;
export interface TestPoint {
  freq: number;
  kind: 'centre' | 'midpoint';
  band: number;
}
export declare function bandPoints(
  centres: readonly number[],
  edges?: readonly number[],
): TestPoint[];
export declare const POINTS: readonly TestPoint[];
export declare function expectedDb(gains: readonly number[], point: TestPoint): number;
export declare function logSpaced(lo: number, hi: number, n: number): number[];
export declare function seeded(seed: number): () => number;
export declare function randomSettings(
  seed: number,
  count: number,
  lo?: number,
  hi?: number,
): number[][];
export declare function multiTone(
  freqs: readonly number[],
  rate: number,
  seconds: number,
  amp: number,
): Float64Array;
export declare function toneAmplitudes(
  x: Float64Array,
  rate: number,
  freqs: readonly number[],
  from: number,
  length: number,
): number[];
export declare function writeWav24(file: string, x: Float64Array, rate: number): void;
export declare function readWav(file: string): { samples: Float64Array; rate: number };
export declare function errorStats(errors: readonly number[]): { max: number; rms: number };
