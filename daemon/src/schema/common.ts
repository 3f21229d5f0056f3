// Field schemas shared by sinks, sources, routes and equalizer presets. Every bound, default,
// description and example lives here once; the entity schemas, the config-file schemas, the API
// request and response schemas, the TypeScript types and the OpenAPI document all derive from it.
import {
  type SchemaOptions,
  type Static,
  type TOptional,
  type TProperties,
  type TSchema,
  type TUnsafe,
  Type,
} from '@sinclair/typebox';

// Plain values (no TypeBox) live in constants.ts, so the dashboard and the solver can use them
// without the schema builder; they are re-exported here for everything else.
import {
  DELAY_MAX_MS,
  DELAY_MIN_MS,
  EQ_BAND_FREQUENCIES_HZ,
  EQ_GAIN_MAX,
  EQ_GAIN_MIN,
  FLAT_EQUALIZER,
  VOLUME_MAX,
  VOLUME_MIN,
} from './constants.js';
import { NAME_MAX_LENGTH, NAME_MIN_LENGTH, NAME_PATTERN, NAME_RULE } from './name.js';

export {
  BIT_DEPTHS,
  CHANNEL_LAYOUTS,
  DEFAULT_LAYOUT,
  DEFAULT_SINK_PORT,
  DEFAULT_VNC_PORT,
  DELAY_MAX_MS,
  DELAY_MIN_MS,
  EQ_BAND_COUNT,
  EQ_BAND_FREQUENCIES_HZ,
  EQ_BAND_KEYS,
  EQ_GAIN_MAX,
  EQ_GAIN_MIN,
  type EqBandKey,
  FLAT_EQUALIZER,
  LAYOUT_CHANNELS,
  SAMPLE_RATES,
  VOLUME_MAX,
  VOLUME_MIN,
} from './constants.js';

/**
 * A value that may also be null, as a JSON Schema type array (`["string", "null"]`): a
 * validation error stays one line instead of an anyOf cascade, and defaults inside an object
 * still apply (ajv ignores defaults under anyOf). References become `anyOf: [schema, null]`.
 */
export function Nullable<T extends TSchema>(
  schema: T,
  options: SchemaOptions = {},
): TUnsafe<Static<T> | null> {
  const { type, ...rest } = schema as TSchema & { type?: unknown };
  if (typeof type === 'string') {
    return Type.Unsafe<Static<T> | null>({ ...rest, type: [type, 'null'], ...options });
  }
  return Type.Unsafe<Static<T> | null>({ anyOf: [schema, { type: 'null' }], ...options });
}

/** An integer that must be one of `values` (a plain `enum`, so errors list the allowed values). */
export function IntegerEnum<const V extends readonly number[]>(
  values: V,
  options: SchemaOptions = {},
): TUnsafe<V[number]> {
  return Type.Unsafe<V[number]>({ type: 'integer', enum: [...values], ...options });
}

/** A string that must be one of `values`. */
export function StringEnum<const V extends readonly string[]>(
  values: V,
  options: SchemaOptions = {},
): TUnsafe<V[number]> {
  return Type.Unsafe<V[number]>({ type: 'string', enum: [...values], ...options });
}

/**
 * The rules of a name, to build name-valued fields with their own description: every name and
 * every field naming one (route ends, group members, the discovery settings' groups). The rule
 * itself lives in name.ts; `validate.ts` words a broken one precisely.
 */
export const nameRules = {
  minLength: NAME_MIN_LENGTH,
  maxLength: NAME_MAX_LENGTH,
  pattern: NAME_PATTERN,
  'x-rule': NAME_RULE,
} as const;

export const Name = Type.String({
  ...nameRules,
  description:
    'Unique name within its kind (sinks, sources, routes, equalizer presets). Used in URLs and ' +
    'referenced by routes and group members; renaming rewrites those references.',
  examples: ['Living Room'],
});

export const ConfigId = Type.String({
  format: 'uuid',
  description:
    'Persistent unique id (UUID) of this entry, generated when it is created and never changed ' +
    'by updates or renames. Survives IP address and hostname changes.',
  examples: ['0b6e5f0c-3f5c-4a8e-9a63-2f1f8c2f7d11'],
});

export const IpAddress = Type.String({
  format: 'ip',
  description: 'IPv4 or IPv6 address.',
  examples: ['192.168.1.50'],
});

export const Volume = Type.Number({
  minimum: VOLUME_MIN,
  maximum: VOLUME_MAX,
  description:
    'Linear gain from 0.0 (silent) to 1.0 (unchanged). Multiplied with the volume of every ' +
    'other level on the path (source, source group, route, sink group, sink).',
  examples: [0.8],
});

export const UnmuteVolume = Nullable(
  Type.Number({ exclusiveMinimum: VOLUME_MIN, maximum: VOLUME_MAX }),
  {
    description:
      'The volume to go back to when unmuted: the mute button sets volume to 0 and this to the ' +
      'volume it had, and unmuting restores it and sets this to null, so every dashboard and app ' +
      'unmutes to the same level. Null when the entry was not muted that way.',
    examples: [null],
  },
);

export const Delay = Type.Integer({
  minimum: DELAY_MIN_MS,
  maximum: DELAY_MAX_MS,
  description:
    'Delay in milliseconds (0 to 5000) added at this level, for synchronising rooms. Delays of ' +
    'all levels on a path add up (the total is capped at 5000 ms).',
  examples: [0],
});

export const Enabled = Type.Boolean({
  description:
    'Whether audio flows through this entry. Disabled entries drop every path through them.',
  examples: [true],
});

export const IsGroup = Type.Boolean({
  description:
    'True for a group: a named set of other entries of the same kind (group_members), managed ' +
    'as one unit. Groups may contain groups, to any depth, but not themselves.',
  examples: [false],
});

export const GroupMembers = Type.Array(Name, {
  uniqueItems: true,
  description:
    'Names of the members of a group (entries of the same kind, real or groups). Must be empty ' +
    'unless is_group is true.',
  examples: [[]],
});

function band(index: number): ReturnType<typeof Type.Number> {
  const hz = EQ_BAND_FREQUENCIES_HZ[index - 1]!;
  return Type.Number({
    minimum: EQ_GAIN_MIN,
    maximum: EQ_GAIN_MAX,
    description: `Gain of band ${index} (centre ${hz} Hz): 0.0 cuts it, 1.0 is flat, 2.0 boosts it.`,
    examples: [1],
  });
}

const bandProperties = {
  b1: band(1),
  b2: band(2),
  b3: band(3),
  b4: band(4),
  b5: band(5),
  b6: band(6),
  b7: band(7),
  b8: band(8),
  b9: band(9),
  b10: band(10),
  b11: band(11),
  b12: band(12),
  b13: band(13),
  b14: band(14),
  b15: band(15),
  b16: band(16),
  b17: band(17),
  b18: band(18),
};
export type BandProperties = typeof bandProperties;

const equalizerDescription =
  'An 18-band equalizer: one linear gain per band, 0.0 to 2.0, 1.0 flat. Equalizers of all ' +
  'levels on a path multiply band by band.';

/** All 18 bands, each required (the form of a stored entity and of a response). */
export const Equalizer = Type.Object(
  withDefaults(bandProperties, FLAT_EQUALIZER),
  named('Equalizer', { description: equalizerDescription }),
);
export type Equalizer = Static<typeof Equalizer>;

/** All 18 bands, each required and without defaults: the body that sets a whole equalizer. */
export const EqualizerBands = Type.Object(bandProperties, {
  additionalProperties: false,
  description: `${equalizerDescription} Every band b1..b18 must be given.`,
  examples: [FLAT_EQUALIZER],
});

/** Bands may be left out; they default to 1.0 (flat). Used in create bodies and config files. */
export const EqualizerInput = Type.Object(optionalWithDefaults(bandProperties, FLAT_EQUALIZER), {
  additionalProperties: false,
  description: `${equalizerDescription} Bands left out are 1.0 (flat).`,
  default: FLAT_EQUALIZER,
});

/** Bands left out keep their current value. Used in partial updates. */
export const EqualizerPatch = Type.Partial(Type.Object(bandProperties), {
  additionalProperties: false,
  description: `${equalizerDescription} Bands left out keep their current value.`,
});

/**
 * Options of an object schema the API names: `id` is its `$id` (how other schemas and the
 * OpenAPI document refer to it) and its title, and unknown fields are refused.
 */
export function named(id: string, options: SchemaOptions = {}): SchemaOptions {
  return { $id: id, title: id, additionalProperties: false, ...options };
}

/** Copies each property schema with its default value annotated (documentation and ajv). */
export function withDefaults<T extends TProperties>(
  properties: T,
  defaults: { readonly [K in keyof T]?: unknown },
): T {
  const out: TProperties = {};
  for (const [key, schema] of Object.entries(properties)) {
    out[key] = key in defaults ? { ...schema, default: defaults[key] } : schema;
  }
  return out as T;
}

export type OptionalProperties<T extends TProperties> = { [K in keyof T]: TOptional<T[K]> };

/** Every property optional, with its default filled in by validation when it is left out. */
export function optionalWithDefaults<T extends TProperties>(
  properties: T,
  defaults: { readonly [K in keyof T]?: unknown },
): OptionalProperties<T> {
  const out: TProperties = {};
  for (const [key, schema] of Object.entries(withDefaults(properties, defaults))) {
    out[key] = Type.Optional(schema);
  }
  return out as OptionalProperties<T>;
}
