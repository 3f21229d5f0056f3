import { type Static, Type } from '@sinclair/typebox';
import { StringEnum, withDefaults } from './common.js';
import {
  WEBRTC_DEFAULTS,
  WEBRTC_MAX_ICE_SERVERS,
  WEBRTC_MAX_LISTENERS_LIMIT,
  WEBRTC_PROFILES,
  WEBRTC_SESSION_TIMEOUT_MAX_S,
  WEBRTC_SESSION_TIMEOUT_MIN_S,
} from './constants.js';

export {
  WEBRTC_DEFAULTS,
  WEBRTC_MAX_LISTENERS_LIMIT,
  WEBRTC_PROFILE_KBPS,
  WEBRTC_PROFILES,
  type WebrtcProfile,
} from './constants.js';

const iceUrl = Type.String({
  minLength: 1,
  maxLength: 512,
  pattern: '^(stun|stuns|turn|turns):',
  'x-rule': 'a stun:, stuns:, turn: or turns: URL',
});

/** An ICE server the browser uses (STUN, or TURN with credentials), as RTCIceServer. */
export const IceServer = Type.Object(
  {
    urls: Type.Union([iceUrl, Type.Array(iceUrl, { minItems: 1, maxItems: 8 })], {
      description: 'stun:, stuns:, turn: or turns: URL(s).',
      examples: ['stun:stun.example.org:3478'],
    }),
    username: Type.Optional(Type.String({ maxLength: 256 })),
    credential: Type.Optional(Type.String({ maxLength: 256 })),
  },
  { additionalProperties: false },
);

export type IceServer = Static<typeof IceServer>;

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
    maxItems: WEBRTC_MAX_ICE_SERVERS,
    description:
      'ICE servers for listeners behind NAT: given to browsers (Link headers of the answer, ' +
      'and the dashboard). The engine answers with its host addresses only.',
  }),
  session_timeout: Type.Integer({
    minimum: WEBRTC_SESSION_TIMEOUT_MIN_S,
    maximum: WEBRTC_SESSION_TIMEOUT_MAX_S,
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
