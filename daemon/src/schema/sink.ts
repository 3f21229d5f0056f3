import { type Static, Type } from '@sinclair/typebox';
import {
  BIT_DEPTHS,
  CHANNEL_LAYOUTS,
  DEFAULT_SINK_PORT,
  DELAY_MAX_MS,
  DELAY_MIN_MS,
  Delay,
  Enabled,
  FLAT_EQUALIZER,
  GroupMembers,
  IntegerEnum,
  IpAddress,
  IsGroup,
  Name,
  Nullable,
  SAMPLE_RATES,
  StringEnum,
  UnmuteVolume,
  Volume,
} from './common.js';
import { SINK_PROTOCOLS } from './constants.js';
import { AutoAdded } from './discovery.js';
import { entitySchemas } from './entity.js';
import { MP3_DEFAULTS, Mp3Settings } from './mp3.js';
import { WEBRTC_DEFAULTS, WebrtcSettings } from './webrtc.js';

export { SINK_PROTOCOLS };

export const portRules = { minimum: 1, maximum: 65535 } as const;
export const Port = Type.Integer({ ...portRules, examples: [DEFAULT_SINK_PORT] });

const fields = {
  name: Name,
  ip: Nullable(IpAddress, {
    description: 'Address the audio is sent to. Null for groups and for sinks not yet placed.',
    examples: ['192.168.1.50'],
  }),
  port: Nullable(Port, {
    description: 'UDP (or TCP) port the audio is sent to. Scream receivers listen on 4010.',
  }),
  protocol: StringEnum(SINK_PROTOCOLS, {
    description:
      'How audio is sent: scream (Scream over UDP, 1152-byte payloads), rtp (RTP L16/L24, ' +
      'RTCP on port+1) or tcp (raw PCM over TCP).',
    examples: ['scream'],
  }),
  is_group: IsGroup,
  enabled: Enabled,
  group_members: GroupMembers,
  volume: Volume,
  unmute_volume: UnmuteVolume,
  bit_depth: IntegerEnum(BIT_DEPTHS, {
    description: 'Bits per sample sent to the sink: 16, 24 or 32 (RTP: 16 or 24, as L16/L24).',
    examples: [16],
  }),
  sample_rate: IntegerEnum(SAMPLE_RATES, {
    description: 'Sample rate sent to the sink, in Hz.',
    examples: [48000],
  }),
  channels: Type.Integer({
    minimum: 1,
    maximum: 8,
    description:
      'Number of channels sent to the sink (1 to 8); must match channel_layout (mono 1, stereo ' +
      '2, quad/surround/3.1/4.0 4, 5.1/5.1(side) 6, 7.1 8). Given alone, the layout follows ' +
      '(1 mono, 2 stereo, 4 quad, 6 5.1, 8 7.1); left out, it follows the layout (default 2).',
    examples: [2],
  }),
  channel_layout: StringEnum(CHANNEL_LAYOUTS, {
    description:
      'Speaker positions of the channels, as ffmpeg names them (surround = FL FR FC BC). ' +
      'Given alone, channels follows it; left out, it follows channels (default stereo).',
    examples: ['stereo'],
  }),
  delay: Delay,
  volume_normalization: Type.Boolean({
    description: 'Level out loud and quiet passages before the audio leaves for this sink.',
    examples: [false],
  }),
  time_sync: Type.Boolean({
    description: 'Synchronise playback with other sinks by timestamp. Not implemented yet.',
    examples: [false],
  }),
  time_sync_delay: Type.Integer({
    minimum: DELAY_MIN_MS,
    maximum: DELAY_MAX_MS,
    description: 'Extra delay in milliseconds used by time synchronisation. Not implemented yet.',
    examples: [0],
  }),
  payload_type: Nullable(Type.Integer({ minimum: 0, maximum: 127 }), {
    description:
      'RTP payload type sent (rtp sinks). Null: the static type of RFC 3551 where the format ' +
      'has one (10 for 16-bit 44.1 kHz stereo, 11 for mono), else 127 for L16 and 97 for L24. ' +
      'A static type of another format is refused. PulseAudio receivers (module-rtp-recv) ' +
      'only play 127, or 10 (stereo) and 11 (mono) at 44.1 kHz, and no L24.',
    examples: [null],
  }),
  auto_added: AutoAdded,
  mp3: Mp3Settings,
  webrtc: WebrtcSettings,
};

export const SINK_DEFAULTS = {
  ip: null,
  port: DEFAULT_SINK_PORT,
  protocol: 'scream',
  is_group: false,
  enabled: true,
  group_members: [],
  volume: 1,
  unmute_volume: null,
  bit_depth: 16,
  sample_rate: 48000,
  channels: 2,
  channel_layout: 'stereo',
  delay: 0,
  volume_normalization: false,
  time_sync: false,
  time_sync_delay: 0,
  payload_type: null,
  auto_added: null,
  mp3: MP3_DEFAULTS,
  webrtc: WEBRTC_DEFAULTS,
} as const;

const example = {
  config_id: '0b6e5f0c-3f5c-4a8e-9a63-2f1f8c2f7d11',
  name: 'Living Room',
  ...SINK_DEFAULTS,
  ip: '192.168.1.50',
  volume: 0.8,
  equalizer: FLAT_EQUALIZER,
};

const { name, ...rest } = fields;
// channels and channel_layout follow each other when only one is given, so a new sink gets
// neither as a schema default; `completeSinkFormat` (config/model.ts) fills them in.
const { channels: _c, channel_layout: _l, ...inputDefaults } = SINK_DEFAULTS;

export const {
  entity: Sink,
  input: SinkInput,
  patch: SinkPatch,
} = entitySchemas({
  id: 'Sink',
  key: { name },
  fields: rest,
  defaults: SINK_DEFAULTS,
  inputDefaults,
  entity: {
    description:
      'A destination for audio (a Scream receiver, a Raspberry Pi, an ESP32 with a DAC, a ' +
      'network speaker), or a group of sinks.',
    examples: [example],
  },
  input: {
    description:
      'A sink to add. Only name is required; every other field takes its default. config_id ' +
      'is generated unless given.',
    examples: [{ name: 'Kitchen', ip: '192.168.1.51' }],
  },
  patch: {
    description:
      'Fields to change; fields left out keep their value. Changing name renames the sink and ' +
      'rewrites the groups and routes that name it. config_id cannot change (it may be sent ' +
      'if equal).',
    examples: [{ volume: 0.5 }, { name: 'Lounge' }],
  },
});

/** A sink as stored and as returned by the API: every field present. */
export type Sink = Static<typeof Sink>;
/** A new sink (API body) or a sink in config.yaml: only the name is required. */
export type SinkInput = Static<typeof SinkInput>;
/** A partial update: fields left out keep their value. */
export type SinkPatch = Static<typeof SinkPatch>;
