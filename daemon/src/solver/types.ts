// The solver's output: what the audio engine plays. It *is* the engine's desired state as the
// native binding declares it (`EngineState` in native/napi/index.d.ts, generated from the Rust
// types), so `engine.apply(solve(config))` needs no conversion and a change on either side is
// a type error on the other. The solver only narrows it: it always sets the fields the engine
// allows to be absent (`null` for none), and fills in what the engine leaves to people (the
// route a path was chosen through and the levels it passes).
import type { EnginePath, EnginePathStep, EngineRtpSource, EngineSink } from '@tributary/native';

/** One level a path passes through, from the real source to the real sink. */
export type PathStep = EnginePathStep;

/**
 * One real source reaching one real sink, with the effective settings of every level on the way
 * (source -> source groups -> route -> sink groups -> sink) already combined: volumes and
 * equalizer gains multiplied, delays added, each level applied once. Volume 0.0-1.0, band gains
 * 0.0-2.0, delay 0-5000 ms (the sum of all levels, capped).
 */
export type SolvedPath = Omit<
  EnginePath,
  'ip' | 'tag' | 'rtp' | 'route' | 'route_config_id' | 'via'
> & {
  ip: string | null;
  tag: string | null;
  rtp: EngineRtpSource | null;
  route: string;
  route_config_id: string;
  via: PathStep[];
};

/** One real, enabled sink and everything that plays on it (at most one path per source). */
export type SolvedSink = Omit<EngineSink, 'ip' | 'port' | 'paths'> & {
  ip: string | null;
  port: number | null;
  paths: SolvedPath[];
};

/**
 * Every real, enabled sink in configuration order, including sinks nothing plays on (silence).
 * An `EngineState`: `engine.apply(solve(config))` type-checks that it stays one.
 */
export interface SolverOutput {
  sinks: SolvedSink[];
}
