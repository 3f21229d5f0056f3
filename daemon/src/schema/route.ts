import { type Static, Type } from '@sinclair/typebox';
import {
  ConfigId,
  Delay,
  Enabled,
  Equalizer,
  EqualizerInput,
  EqualizerPatch,
  FLAT_EQUALIZER,
  Name,
  nameRules,
  optionalWithDefaults,
  Volume,
  withDefaults,
} from './common.js';

const fields = {
  name: Name,
  source: Type.String({
    ...nameRules,
    description:
      'Name of the source (a real source or a source group) this route takes audio from.',
    examples: ['Desktop PC'],
  }),
  sink: Type.String({
    ...nameRules,
    description: 'Name of the sink (a real sink or a sink group) this route sends audio to.',
    examples: ['Living Room'],
  }),
  enabled: Enabled,
  volume: Volume,
  delay: Delay,
};

export const ROUTE_DEFAULTS = { enabled: true, volume: 1, delay: 0 } as const;

const { name, source, sink, ...rest } = fields;

export const Route = Type.Object(
  {
    config_id: ConfigId,
    name,
    source,
    sink,
    ...withDefaults(rest, ROUTE_DEFAULTS),
    equalizer: Type.Ref(Equalizer),
  },
  {
    $id: 'Route',
    title: 'Route',
    additionalProperties: false,
    description:
      'Links one source (or source group) to one sink (or sink group), with its own volume, ' +
      'equalizer and delay.',
    examples: [
      {
        config_id: '9a4e2b1d-7c3f-4e5a-8b6d-1f2e3d4c5b6a',
        name: 'PC to Living Room',
        source: 'Desktop PC',
        sink: 'Living Room',
        ...ROUTE_DEFAULTS,
        equalizer: FLAT_EQUALIZER,
      },
    ],
  },
);
export type Route = Static<typeof Route>;

export const RouteInput = Type.Object(
  {
    config_id: Type.Optional(ConfigId),
    name,
    source,
    sink,
    ...optionalWithDefaults(rest, ROUTE_DEFAULTS),
    equalizer: Type.Optional(EqualizerInput),
  },
  {
    $id: 'RouteInput',
    title: 'RouteInput',
    additionalProperties: false,
    description:
      'A route to add: name, source and sink are required; the source and sink must exist.',
    examples: [{ name: 'PC to Living Room', source: 'Desktop PC', sink: 'Living Room' }],
  },
);
export type RouteInput = Static<typeof RouteInput>;

export const RoutePatch = Type.Object(
  {
    config_id: Type.Optional(ConfigId),
    ...Type.Partial(Type.Object(fields)).properties,
    equalizer: Type.Optional(EqualizerPatch),
  },
  {
    $id: 'RoutePatch',
    title: 'RoutePatch',
    additionalProperties: false,
    description: 'Fields to change; fields left out keep their value.',
    examples: [{ volume: 0.5, enabled: false }],
  },
);
export type RoutePatch = Static<typeof RoutePatch>;
