// The solver's output: what the audio engine plays. `engine.apply(solve(config))` is the whole
// contract between the control plane and the data plane.
import type { BIT_DEPTHS, CHANNEL_LAYOUTS, SAMPLE_RATES } from '../schema/common.js';
import type { SINK_PROTOCOLS } from '../schema/sink.js';
import type { RtpSettings } from '../schema/source.js';

/** One level a path passes through, from the real source to the real sink. */
export interface PathStep {
  readonly kind: 'source' | 'source group' | 'route' | 'sink group' | 'sink';
  readonly name: string;
  readonly config_id: string;
}

/**
 * One real source reaching one real sink, with the effective settings of every level on the way
 * (source -> source groups -> route -> sink groups -> sink) already combined:
 * volumes and equalizer gains multiplied, delays added, each level applied once.
 */
export interface SolvedPath {
  /** The real (non-group) source. */
  readonly source: string;
  readonly source_config_id: string;
  /** Sender address incoming streams are matched by (with `tag`); null when unknown. */
  readonly ip: string | null;
  /** Stream tag incoming streams are matched by (per-application Scream, plugins). */
  readonly tag: string | null;
  /** RTP reception settings; null for Scream sources. */
  readonly rtp: RtpSettings | null;
  /** The route this path was chosen through (see `solve` for several routes to one pair). */
  readonly route: string;
  readonly route_config_id: string;
  /** Every level of the path in processing order. */
  readonly via: readonly PathStep[];
  /** Effective linear gain, 0.0 to 1.0. */
  readonly volume: number;
  /** Effective linear gain of bands b1..b18 (index 0 = b1), each clamped to 0.0 to 2.0. */
  readonly eq: readonly number[];
  /** Effective delay in milliseconds, 0 to 5000 (the sum of all levels, capped). */
  readonly delay_ms: number;
}

/** One real, enabled sink and everything that plays on it. */
export interface SolvedSink {
  readonly name: string;
  readonly config_id: string;
  /** Destination address; null when the sink has none yet (nothing can be sent). */
  readonly ip: string | null;
  readonly port: number | null;
  readonly protocol: (typeof SINK_PROTOCOLS)[number];
  readonly sample_rate: (typeof SAMPLE_RATES)[number];
  readonly bit_depth: (typeof BIT_DEPTHS)[number];
  readonly channels: number;
  readonly channel_layout: (typeof CHANNEL_LAYOUTS)[number];
  readonly volume_normalization: boolean;
  /** RTP payload type; null: the engine's default (96 for L16, 97 for L24). */
  readonly payload_type: number | null;
  /** At most one path per real source, ordered as the sources are in the configuration. */
  readonly paths: readonly SolvedPath[];
}

/** Every real, enabled sink in configuration order, including sinks nothing plays on (silence). */
export interface SolverOutput {
  readonly sinks: readonly SolvedSink[];
}
