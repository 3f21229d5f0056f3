// Plain values of the schema (bounds, defaults, lists of allowed values), without TypeBox: the
// entity schemas in common.ts, sink.ts and source.ts build on them, and the solver and the
// dashboard use them without the schema builder.

/** Centre frequencies (Hz) of the 18 equalizer bands b1..b18 (half-octave steps from C2). */
export const EQ_BAND_FREQUENCIES_HZ = [
  65.406, 92.499, 130.81, 185.0, 261.63, 369.99, 523.25, 739.99, 1046.5, 1480.0, 2093.0, 2960.0,
  4186.0, 5919.9, 8372.0, 11840, 16744, 20000,
] as const;
export const EQ_BAND_COUNT = 18;
export const EQ_BAND_KEYS = [
  'b1',
  'b2',
  'b3',
  'b4',
  'b5',
  'b6',
  'b7',
  'b8',
  'b9',
  'b10',
  'b11',
  'b12',
  'b13',
  'b14',
  'b15',
  'b16',
  'b17',
  'b18',
] as const;
export type EqBandKey = (typeof EQ_BAND_KEYS)[number];

export const VOLUME_MIN = 0;
export const VOLUME_MAX = 1;
export const DELAY_MIN_MS = 0;
export const DELAY_MAX_MS = 5000;
export const EQ_GAIN_MIN = 0;
export const EQ_GAIN_MAX = 2;
export const DEFAULT_SINK_PORT = 4010;
export const DEFAULT_VNC_PORT = 5900;
export const SAMPLE_RATES = [44100, 48000, 88200, 96000, 192000] as const;
export const BIT_DEPTHS = [16, 24, 32] as const;
export const CHANNEL_LAYOUTS = [
  'mono',
  'stereo',
  'quad',
  'surround',
  '3.1',
  '4.0',
  '5.1',
  '5.1(side)',
  '7.1',
] as const;

/** How many channels each layout has (the engine's layouts: `surround` is FL FR FC BC). */
export const LAYOUT_CHANNELS: Readonly<Record<(typeof CHANNEL_LAYOUTS)[number], number>> = {
  mono: 1,
  stereo: 2,
  quad: 4,
  surround: 4,
  '3.1': 4,
  '4.0': 4,
  '5.1': 6,
  '5.1(side)': 6,
  '7.1': 8,
};

/** The layout a channel count gets when only the count is given. */
export const DEFAULT_LAYOUT: Readonly<Partial<Record<number, (typeof CHANNEL_LAYOUTS)[number]>>> = {
  1: 'mono',
  2: 'stereo',
  4: 'quad',
  6: '5.1',
  8: '7.1',
};

export const FLAT_EQUALIZER: Readonly<Record<EqBandKey, number>> = Object.freeze(
  Object.fromEntries(EQ_BAND_KEYS.map((k) => [k, 1])) as Record<EqBandKey, number>,
);

/** How a sink is sent to. */
export const SINK_PROTOCOLS = ['scream', 'rtp', 'tcp'] as const;

export const RTP_FORMATS = ['S16BE', 'L16', 'S16LE', 'L24', 'S24BE'] as const;
export const DEFAULT_RTP_PORT = 40000;

export const RTP_DEFAULTS = {
  listen_ip: null,
  port: DEFAULT_RTP_PORT,
  format: 'S16BE',
  sample_rate: 48000,
  channels: 2,
  payload_type: null,
  time_sync: false,
  sap: false,
} as const;

/**
 * The Opus profiles of WebRTC listening (the product spec's): bit rate and libopus complexity.
 * The engine encodes each once per sink, whatever the number of listeners.
 */
export const WEBRTC_PROFILES = ['low_latency', 'balanced', 'high_quality'] as const;
export type WebrtcProfile = (typeof WEBRTC_PROFILES)[number];
export const WEBRTC_PROFILE_KBPS: Readonly<Record<WebrtcProfile, number>> = {
  low_latency: 64,
  balanced: 128,
  high_quality: 256,
};
export const WEBRTC_MAX_LISTENERS_LIMIT = 64;
export const WEBRTC_SESSION_TIMEOUT_MIN_S = 5;
export const WEBRTC_SESSION_TIMEOUT_MAX_S = 3600;
export const WEBRTC_MAX_ICE_SERVERS = 8;

export const WEBRTC_DEFAULTS = {
  enabled: true,
  codec: 'opus',
  profile: 'balanced',
  max_listeners: 10,
  ice_servers: [] as { urls: string | string[]; username?: string; credential?: string }[],
  session_timeout: 30,
} as const;
