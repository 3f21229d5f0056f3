import { type Static, Type } from '@sinclair/typebox';
import {
  DEFAULT_VNC_PORT,
  Delay,
  Enabled,
  FLAT_EQUALIZER,
  GroupMembers,
  IntegerEnum,
  IpAddress,
  IsGroup,
  Name,
  Nullable,
  optionalWithDefaults,
  SAMPLE_RATES,
  StringEnum,
  UnmuteVolume,
  Volume,
  withDefaults,
} from './common.js';
import { DEFAULT_RTP_PORT, RTP_DEFAULTS, RTP_FORMATS } from './constants.js';
import { AutoAdded } from './discovery.js';
import { entitySchemas } from './entity.js';
import { Port, portRules } from './sink.js';

export { DEFAULT_RTP_PORT, RTP_DEFAULTS, RTP_FORMATS };

const rtpFields = {
  listen_ip: Nullable(IpAddress, {
    description: 'Address to listen on: a local or multicast address; null listens on all.',
    examples: [null],
  }),
  port: Type.Integer({
    ...portRules,
    description: 'UDP port the RTP stream arrives on (RTCP uses port + 1).',
    examples: [DEFAULT_RTP_PORT],
  }),
  format: StringEnum(RTP_FORMATS, {
    description:
      'Payload format: S16BE (= L16, recommended), S16LE, L24 (= S24BE). Big-endian unless named LE.',
    examples: ['S16BE'],
  }),
  sample_rate: IntegerEnum(SAMPLE_RATES, {
    description: 'Sample rate of the stream in Hz.',
    examples: [48000],
  }),
  channels: Type.Integer({
    minimum: 1,
    maximum: 8,
    description: 'Channels in the stream.',
    examples: [2],
  }),
  payload_type: Nullable(Type.Integer({ minimum: 0, maximum: 127 }), {
    description: 'RTP payload type to accept; null accepts any.',
    examples: [null],
  }),
  time_sync: Type.Boolean({
    description:
      'Use RTCP sender reports for timing. Not implemented yet: accepted and saved, no effect.',
    examples: [false],
  }),
  sap: Type.Boolean({
    description: 'Take format and address from SAP announcements when they appear.',
    examples: [false],
  }),
};

const rtpDescription =
  'RTP reception settings for a source that arrives as RTP rather than Scream; null for ' +
  'Scream sources.';

export const RtpSettings = Type.Object(withDefaults(rtpFields, RTP_DEFAULTS), {
  additionalProperties: false,
  description: rtpDescription,
});
export type RtpSettings = Static<typeof RtpSettings>;

const RtpSettingsInput = Type.Object(optionalWithDefaults(rtpFields, RTP_DEFAULTS), {
  additionalProperties: false,
  description: `${rtpDescription} Fields left out take their defaults.`,
});

/** The engine's bounds of an in-process source (native/engine/src/source/memory.rs). */
export const PLUGIN_FORMAT_BOUNDS = { minRate: 8000, maxRate: 384_000, maxChannels: 8 } as const;

const pluginFormatDescription =
  'The audio format of a permanent plugin source (tag plugin:NAME) as its plugin writes it, ' +
  'saved when the plugin adds or opens it; null for every other source, and for a plugin ' +
  'source not opened yet. Written by the plugin: not changed through PUT /sources.';

export const PluginFormat = Type.Object(
  {
    sample_rate: Type.Integer({
      minimum: PLUGIN_FORMAT_BOUNDS.minRate,
      maximum: PLUGIN_FORMAT_BOUNDS.maxRate,
      description: 'Sample rate the plugin writes, in Hz.',
      examples: [48000],
    }),
    bit_depth: IntegerEnum([16, 24, 32], {
      description: 'Bits per sample of what it writes (32: 32-bit integers or floats).',
      examples: [16],
    }),
    channels: Type.Integer({
      minimum: 1,
      maximum: PLUGIN_FORMAT_BOUNDS.maxChannels,
      description: 'Channels it writes.',
      examples: [2],
    }),
  },
  { additionalProperties: false, description: pluginFormatDescription },
);
export type PluginFormat = Static<typeof PluginFormat>;

const fields = {
  name: Name,
  ip: Nullable(IpAddress, {
    description:
      'Address the audio comes from (the sender). Incoming streams are matched by ip and/or tag.',
    examples: ['192.168.1.10'],
  }),
  tag: Nullable(Type.String({ minLength: 1, maxLength: 128 }), {
    description:
      'Stream tag to match, for senders that tag their streams (per-application Scream, ' +
      'plugins). Null matches by ip alone.',
    examples: [null],
  }),
  is_group: IsGroup,
  enabled: Enabled,
  group_members: GroupMembers,
  volume: Volume,
  unmute_volume: UnmuteVolume,
  delay: Delay,
  vnc_ip: Nullable(IpAddress, {
    description:
      'Host that receives media commands (play, next, previous) on UDP port 9999 and offers VNC.',
    examples: ['192.168.1.10'],
  }),
  vnc_port: Nullable(Port, { description: 'VNC port of vnc_ip.', examples: [DEFAULT_VNC_PORT] }),
  auto_added: AutoAdded,
};

export const SOURCE_DEFAULTS = {
  ip: null,
  tag: null,
  is_group: false,
  enabled: true,
  group_members: [],
  volume: 1,
  unmute_volume: null,
  delay: 0,
  vnc_ip: null,
  vnc_port: DEFAULT_VNC_PORT,
  auto_added: null,
} as const;

const { name, ...rest } = fields;

export const {
  entity: Source,
  input: SourceInput,
  patch: SourcePatch,
} = entitySchemas({
  id: 'Source',
  key: { name },
  fields: rest,
  defaults: SOURCE_DEFAULTS,
  extra: {
    entity: {
      rtp: Nullable(RtpSettings, { default: null }),
      plugin_format: Nullable(PluginFormat, { default: null }),
    },
    input: {
      rtp: Type.Optional(Nullable(RtpSettingsInput, { default: null })),
      plugin_format: Type.Optional(Nullable(PluginFormat, { default: null })),
    },
    patch: { rtp: Type.Optional(Nullable(RtpSettingsInput)) },
  },
  entity: {
    description:
      'A sender of audio (a PC with a Scream driver, an RTP sender, an ESP32, a container), or ' +
      'a group of sources.',
    examples: [
      {
        config_id: '5d0c1c43-6a55-4a43-9b5e-0d3a1b0f2f4a',
        name: 'Desktop PC',
        ...SOURCE_DEFAULTS,
        ip: '192.168.1.10',
        vnc_ip: '192.168.1.10',
        equalizer: FLAT_EQUALIZER,
        rtp: null,
        plugin_format: null,
      },
    ],
  },
  input: {
    description:
      'A source to add. Only name is required; every other field takes its default. config_id ' +
      'is generated unless given.',
    examples: [{ name: 'Desktop PC', ip: '192.168.1.10' }],
  },
  patch: {
    description:
      'Fields to change; fields left out keep their value (rtp is replaced as a whole). ' +
      'Changing name renames the source and rewrites the groups and routes that name it.',
    examples: [{ volume: 0.5 }],
  },
});

export type Source = Static<typeof Source>;
export type SourceInput = Static<typeof SourceInput>;
export type SourcePatch = Static<typeof SourcePatch>;
