// The one seam between the dashboard and the daemon's schema: every API type and constant the
// dashboard uses comes from daemon/src (TypeBox types, plain constants), never retyped here.
// Values come from schema/constants.ts, schema/name.ts and schema/levels-frame.ts only, which have no TypeBox, so the
// schema builder stays out of the browser. The solver is the daemon's own, so what a card says plays is what the
// engine is told to play.
import type { StatsMessage } from '../../../src/schema/stats.js';

export type { NetworkInfo } from '../../../src/routes/system/network.js';
export type { Equalizer } from '../../../src/schema/common.js';
export {
  BIT_DEPTHS,
  CHANNEL_LAYOUTS,
  DEFAULT_SINK_PORT,
  DELAY_MAX_MS,
  DELAY_MIN_MS,
  EQ_BAND_FREQUENCIES_HZ,
  EQ_BAND_KEYS,
  EQ_GAIN_MAX,
  EQ_GAIN_MIN,
  type EqBandKey,
  FLAT_EQUALIZER,
  LAYOUT_CHANNELS,
  RTP_DEFAULTS,
  RTP_FORMATS,
  SAMPLE_RATES,
  SINK_PROTOCOLS,
  WEBRTC_DEFAULTS,
  WEBRTC_MAX_ICE_SERVERS,
  WEBRTC_MAX_LISTENERS_LIMIT,
  WEBRTC_PROFILE_KBPS,
  WEBRTC_PROFILES,
  WEBRTC_SESSION_TIMEOUT_MAX_S,
  WEBRTC_SESSION_TIMEOUT_MIN_S,
} from '../../../src/schema/constants.js';
export type { EqResponse } from '../../../src/schema/eq-response.js';
export type { EqualizerPreset } from '../../../src/schema/equalizer-preset.js';
export type { Favorites } from '../../../src/schema/favorites.js';
export type { Config, ConfigMessage } from '../../../src/schema/files.js';
export type {
  LevelsMessage,
  LevelsQuery,
  LevelsRefusal,
  SinkLevels,
} from '../../../src/schema/levels.js';
export { decodeLevelsFrame } from '../../../src/schema/levels-frame.js';
export { isName } from '../../../src/schema/name.js';
export type { PlaybackView, PlayUrlsBody } from '../../../src/schema/plugins.js';
export type { ErrorResponse, Problem } from '../../../src/schema/problem.js';
export type { Route, RouteInput, RoutePatch } from '../../../src/schema/route.js';
export type { Sink, SinkInput, SinkPatch } from '../../../src/schema/sink.js';
export type { RtpSettings, Source, SourceInput, SourcePatch } from '../../../src/schema/source.js';
export { solve } from '../../../src/solver/solve.js';
export type { SolvedPath, SolverOutput } from '../../../src/solver/types.js';
export type { StatsMessage };
export type SourceStats = StatsMessage['sources'][number];
export type SinkStats = StatsMessage['sinks'][number];
export type UnknownSender = StatsMessage['unknown_senders'][number];
export type EngineStatus = StatsMessage['engine'];
