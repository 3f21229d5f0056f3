// Sinks, sources and routes each come in three forms built the same way from one set of field
// schemas: the entry as stored and answered (every field present), the entry to add (only its
// key fields required, the rest filled in with their defaults) and the partial update (every
// field optional, defaults never applied).
import {
  type SchemaOptions,
  type TObject,
  type TOptional,
  type TProperties,
  Type,
} from '@sinclair/typebox';
import {
  ConfigId,
  Equalizer,
  EqualizerInput,
  EqualizerPatch,
  named,
  type OptionalProperties,
  optionalWithDefaults,
  withDefaults,
} from './common.js';

const EqualizerRef = Type.Ref(Equalizer);

/** What each form of an entry carries besides its own fields. */
type Stored = { config_id: typeof ConfigId; equalizer: typeof EqualizerRef };
type Added = {
  config_id: TOptional<typeof ConfigId>;
  equalizer: TOptional<typeof EqualizerInput>;
};
type Changed = {
  config_id: TOptional<typeof ConfigId>;
  equalizer: TOptional<typeof EqualizerPatch>;
};

/** Documentation of one form: its description and examples (`named` sets the rest). */
type FormOptions = Pick<SchemaOptions, 'description' | 'examples'>;

export interface EntitySpec<
  Key extends TProperties,
  Fields extends TProperties,
  Entity extends TProperties,
  Input extends TProperties,
  Patch extends TProperties,
> {
  /** The schema id of the stored form; the others are `${id}Input` and `${id}Patch`. */
  readonly id: string;
  /** Fields every new entry must give (name; a route's source and sink), without defaults. */
  readonly key: Key;
  /** The other fields, in the order they are written. */
  readonly fields: Fields;
  /** The value of each field when an entry leaves it out. */
  readonly defaults: { readonly [K in keyof Fields]: unknown };
  /** Defaults a new entry gets from validation, when some must be worked out later instead. */
  readonly inputDefaults?: { readonly [K in keyof Fields]?: unknown };
  /** Fields of one form only (a source's rtp settings), after the equalizer. */
  readonly extra?: { readonly entity: Entity; readonly input: Input; readonly patch: Patch };
  readonly entity: FormOptions;
  readonly input: FormOptions;
  readonly patch: FormOptions;
}

/** The stored, new and partial forms of one kind of entry. */
export function entitySchemas<
  Key extends TProperties,
  Fields extends TProperties,
  // biome-ignore lint/complexity/noBannedTypes: no extra fields unless a kind gives some
  Entity extends TProperties = {},
  // biome-ignore lint/complexity/noBannedTypes: as above
  Input extends TProperties = {},
  // biome-ignore lint/complexity/noBannedTypes: as above
  Patch extends TProperties = {},
>(spec: EntitySpec<Key, Fields, Entity, Input, Patch>) {
  const entity = Type.Object(
    {
      config_id: ConfigId,
      ...spec.key,
      ...withDefaults(spec.fields, spec.defaults),
      equalizer: EqualizerRef,
      ...spec.extra?.entity,
    } as Stored & Key & Fields & Entity,
    named(spec.id, spec.entity),
  );
  const input = Type.Object(
    {
      config_id: Type.Optional(ConfigId),
      ...spec.key,
      ...optionalWithDefaults(spec.fields, spec.inputDefaults ?? spec.defaults),
      equalizer: Type.Optional(EqualizerInput),
      ...spec.extra?.input,
    } as Added & Key & OptionalProperties<Fields> & Input,
    named(`${spec.id}Input`, spec.input),
  );
  const patch = Type.Object(
    {
      config_id: Type.Optional(ConfigId),
      ...optionalWithDefaults({ ...spec.key, ...spec.fields }, {}),
      equalizer: Type.Optional(EqualizerPatch),
      ...spec.extra?.patch,
    } as Changed & OptionalProperties<Key & Fields> & Patch,
    named(`${spec.id}Patch`, spec.patch),
  );
  return { entity, input, patch } as {
    entity: TObject<Stored & Key & Fields & Entity>;
    input: TObject<Added & Key & OptionalProperties<Fields> & Input>;
    patch: TObject<Changed & OptionalProperties<Key & Fields> & Patch>;
  };
}
