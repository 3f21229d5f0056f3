import { type Static, Type } from '@sinclair/typebox';
import { Delay, Enabled, FLAT_EQUALIZER, Name, nameRules, UnmuteVolume, Volume } from './common.js';
import { entitySchemas } from './entity.js';

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
  unmute_volume: UnmuteVolume,
  delay: Delay,
};

export const ROUTE_DEFAULTS = { enabled: true, volume: 1, unmute_volume: null, delay: 0 } as const;

const { name, source, sink, ...rest } = fields;

export const {
  entity: Route,
  input: RouteInput,
  patch: RoutePatch,
} = entitySchemas({
  id: 'Route',
  key: { name, source, sink },
  fields: rest,
  defaults: ROUTE_DEFAULTS,
  entity: {
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
  input: {
    description:
      'A route to add: name, source and sink are required; the source and sink must exist.',
    examples: [{ name: 'PC to Living Room', source: 'Desktop PC', sink: 'Living Room' }],
  },
  patch: {
    description: 'Fields to change; fields left out keep their value.',
    examples: [{ volume: 0.5, enabled: false }],
  },
});

export type Route = Static<typeof Route>;
export type RouteInput = Static<typeof RouteInput>;
export type RoutePatch = Static<typeof RoutePatch>;
