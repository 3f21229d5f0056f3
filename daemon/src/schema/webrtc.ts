import { type Static, Type } from '@sinclair/typebox';
import { StringEnum, withDefaults } from './common.js';

/**
 * The Opus profiles of WebRTC listening (the product spec's): bit rate and libopus complexity.
 * The engine encodes each once per sink, whatever the number of listeners.
 */
export const WEBRTC_PROFILES = ['low_latency', 'balanced', 'high_quality'] as const;
export type WebrtcProfile = (typeof WEBRTC_PROFILES)[number];
export const WEBRTC_PROFILE_KBPS: Record<WebrtcProfile, number> = {
  low_latency: 64,
  balanced: 128,
  high_quality: 256,
};
export const WEBRTC_MAX_LISTENERS_LIMIT = 64;

/** An ICE server the browser uses (STUN, or TURN with credentials), as RTCIceServer. */
export const IceServer = Type.Object(
  {
    urls: Type.Union(
      [
        Type.String({ minLength: 1, maxLength: 512, pattern: '^(stun|stuns|turn|turns):' }),
        Type.Array(
          Type.String({ minLength: 1, maxLength: 512, pattern: '^(stun|stuns|turn|turns):' }),
          { minItems: 1, maxItems: 8 },
        ),
      ],
      {
        description: 'stun:, stuns:, turn: or turns: URL(s).',
        examples: ['stun:stun.example.org:3478'],
      },
    ),
    username: Type.Optional(Type.String({ maxLength: 256 })),
    credential: Type.Optional(Type.String({ maxLength: 256 })),
  },
  { additionalProperties: false },
);

export type IceServer = Static<typeof IceServer>;

export const WEBRTC_DEFAULTS = {
  enabled: true,
  codec: 'opus',
  profile: 'balanced',
  max_listeners: 10,
  ice_servers: [] as IceServer[],
  session_timeout: 30,
} as const;

const webrtcFields = {
  enabled: Type.Boolean({
    description: 'Browsers may listen to this sink over WebRTC (POST /api/whep/sink/{sink_id}).',
    examples: [true],
  }),
  codec: StringEnum(['opus'] as const, {
    description: 'The codec sent: Opus, 48 kHz stereo, 20 ms packets.',
    examples: ['opus'],
  }),
  profile: StringEnum(WEBRTC_PROFILES, {
    description:
      'Opus profile: low_latency (64 kbit/s, complexity 5), balanced (128 kbit/s, complexity ' +
      '8) or high_quality (256 kbit/s, complexity 10).',
    examples: ['balanced'],
  }),
  max_listeners: Type.Integer({
    minimum: 1,
    maximum: WEBRTC_MAX_LISTENERS_LIMIT,
    description: 'WebRTC listeners of this sink at once; one more is answered 503.',
    examples: [10],
  }),
  ice_servers: Type.Array(IceServer, {
    maxItems: 8,
    description:
      'ICE servers for listeners behind NAT: given to browsers (Link headers of the answer, ' +
      'and the dashboard). The engine answers with its host addresses only.',
  }),
  session_timeout: Type.Integer({
    minimum: 5,
    maximum: 3600,
    description:
      'Seconds without any packet from a listener (ICE consent checks, RTCP) before its ' +
      'session is closed and freed.',
    examples: [30],
  }),
};

/** A sink's WebRTC (WHEP) listening. */
export const WebrtcSettings = Type.Object(withDefaults(webrtcFields, WEBRTC_DEFAULTS), {
  additionalProperties: false,
  description:
    'WebRTC (WHEP) listening to this sink in a browser, Opus encoded by the engine (real ' +
    'sinks only). Replaced as a whole; fields left out take their defaults.',
});
export type WebrtcSettings = Static<typeof WebrtcSettings>;
