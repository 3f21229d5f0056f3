// The configuration as data, and every change to it as a pure function on a draft copy. The
// store runs these under its write lock; they throw the API's errors (404, 409, 400) and the
// store validates the whole result with `validateConfig` before anything is saved.
import { randomUUID } from 'node:crypto';
import type { Static } from '@sinclair/typebox';
import {
  DuplicateIdError,
  DuplicateNameError,
  InUseError,
  invalidConfig,
  invalidRequest,
  NotFoundError,
} from '../errors.js';
import {
  DEFAULT_LAYOUT,
  EQ_BAND_KEYS,
  type Equalizer,
  FLAT_EQUALIZER,
  LAYOUT_CHANNELS,
} from '../schema/common.js';
import { MDNS_DEFAULTS, SAP_DEFAULTS } from '../schema/discovery.js';
import type { EqualizerPreset } from '../schema/equalizer-preset.js';
import type { Config } from '../schema/files.js';
import { PLUGIN_SETTINGS_DEFAULTS } from '../schema/plugin-settings.js';
import type { Problem } from '../schema/problem.js';
import type { Route, RouteInput, RoutePatch } from '../schema/route.js';
import type { Sink, SinkInput, SinkPatch } from '../schema/sink.js';
import type { Source, SourceInput, SourcePatch } from '../schema/source.js';
import { makeProblem } from '../schema/validate.js';
import { favoriteProblems } from './favorites.js';

export type { Config };
export type Kind = 'sink' | 'source' | 'route';
export type Entity = Sink | Source | Route;
/** Each kind's schemas: the stored entry, the body that adds one, the partial update. */
export interface SchemasOf {
  sink: { entity: typeof Sink; input: typeof SinkInput; patch: typeof SinkPatch };
  source: { entity: typeof Source; input: typeof SourceInput; patch: typeof SourcePatch };
  route: { entity: typeof Route; input: typeof RouteInput; patch: typeof RoutePatch };
}
/** A stored entry of kind K (a sink, a source or a route). */
export type EntityOf<K extends Kind> = Static<SchemasOf[K]['entity']>;
/** The body that adds an entry of kind K. */
export type InputOf<K extends Kind> = Static<SchemasOf[K]['input']>;
/** A partial update of an entry of kind K. */
export type PatchOf<K extends Kind> = Static<SchemasOf[K]['patch']>;

/** The entries of a configuration, without its settings sections. */
export type Entries = Omit<Config, 'sap' | 'mdns' | 'plugins'>;

export const LIST_OF = { sink: 'sinks', source: 'sources', route: 'routes' } as const;

export function emptyConfig(): Config {
  return {
    sinks: [],
    sources: [],
    routes: [],
    equalizers: [],
    favorites: [],
    ...settingsDefaults(),
  };
}

/** The settings sections (sap, mdns, plugins) with every field at its default. */
export function settingsDefaults(): Pick<Config, 'sap' | 'mdns' | 'plugins'> {
  return structuredClone({
    sap: SAP_DEFAULTS,
    mdns: MDNS_DEFAULTS,
    plugins: PLUGIN_SETTINGS_DEFAULTS,
  }) as Pick<Config, 'sap' | 'mdns' | 'plugins'>;
}

export function listOf<K extends Kind>(config: Entries, kind: K): EntityOf<K>[] {
  return config[LIST_OF[kind]] as EntityOf<K>[];
}

/** The entries of one kind of a configuration that is only read. */
export function entriesOf<K extends Kind>(
  config: Readonly<Entries>,
  kind: K,
): readonly EntityOf<K>[] {
  return listOf(config as Entries, kind);
}

/**
 * The entry named `key`, else the one whose config_id it is (how an entry whose name a URL
 * cannot carry is reached); 404 when there is neither.
 */
export function find<K extends Kind>(config: Config, kind: K, key: string): EntityOf<K> {
  const list = listOf(config, kind);
  const entity = list.find((e) => e.name === key) ?? list.find((e) => e.config_id === key);
  if (!entity) throw new NotFoundError(kind, key);
  return entity;
}

/** `find` for reading the store's (frozen) configuration. */
export function lookup<K extends Kind>(
  config: Readonly<Config>,
  kind: K,
  name: string,
): EntityOf<K> {
  return find(config as Config, kind, name);
}

/** A validated input (defaults filled in) made into a complete entity with a config_id. */
export function complete<K extends Kind>(kind: K, input: InputOf<K>): EntityOf<K> {
  const entity = { ...input, config_id: input.config_id ?? randomUUID() } as EntityOf<K>;
  if (kind === 'sink') syncFormat(entity as Sink, input as Partial<Sink>);
  return entity;
}

/**
 * channels and channel_layout follow each other when only one was given (`given`): a layout
 * sets its channel count; a count sets its usual layout when the current one does not fit.
 * Neither given: 2 channels, stereo. Both given and disagreeing: validation reports it.
 */
function syncFormat(sink: Sink, given: Partial<Sink>): void {
  const layout = given.channel_layout;
  const channels = given.channels;
  if (layout !== undefined && channels === undefined) sink.channels = LAYOUT_CHANNELS[layout];
  if (channels !== undefined && layout === undefined) {
    const current = sink.channel_layout as Sink['channel_layout'] | undefined;
    if (current === undefined || LAYOUT_CHANNELS[current] !== channels) {
      const fitting = DEFAULT_LAYOUT[channels];
      if (fitting) sink.channel_layout = fitting;
    }
  }
  sink.channels ??= 2;
  sink.channel_layout ??= 'stereo';
}

function allIds(config: Config): Map<string, string> {
  const ids = new Map<string, string>();
  for (const kind of ['sink', 'source', 'route'] as const) {
    for (const e of listOf(config, kind)) ids.set(e.config_id, `${kind} '${e.name}'`);
  }
  return ids;
}

export function addEntity<K extends Kind>(config: Config, kind: K, input: InputOf<K>): EntityOf<K> {
  const list = listOf(config, kind);
  if (list.some((e) => e.name === input.name)) throw new DuplicateNameError(kind, input.name);
  if (input.config_id !== undefined) {
    const holder = allIds(config).get(input.config_id);
    if (holder) throw new DuplicateIdError(input.config_id, holder);
  }
  const entity = complete(kind, input);
  list.push(entity);
  ensureValid(config, kind, entity);
  return entity;
}

/**
 * Throws a 400 listing what the change broke (a route naming a missing sink, a group member that
 * does not exist, a cycle), with paths relative to the changed entry (`group_members[0]`) where
 * the problem is in it, so an API client sees the field of its own request.
 */
function ensureValid(config: Config, kind: Kind, entity: Entity): void {
  const problems = validateConfig(config);
  if (problems.length === 0) return;
  const prefix = `${LIST_OF[kind]}[${(listOf(config, kind) as Entity[]).indexOf(entity)}]`;
  throw invalidConfig(
    problems.map((p) => {
      if (!p.path.startsWith(`${prefix}.`) && !p.path.startsWith(`${prefix}[`)) return p;
      const path = p.path.slice(prefix.length).replace(/^\./, '');
      return { ...p, path, message: p.message.replace(p.path, path) };
    }),
  );
}

/** Applies a partial update; a new name is cascaded to group members and routes. */
export function updateEntity<K extends Kind>(
  config: Config,
  kind: K,
  key: string,
  patch: PatchOf<K>,
): EntityOf<K> {
  const entity = find(config, kind, key);
  const name = entity.name;
  const { config_id, equalizer, ...fields } = patch as PatchOf<K> & {
    equalizer?: Partial<Equalizer>;
  };
  if (config_id !== undefined && config_id !== entity.config_id) {
    throw invalidRequest([
      makeProblem('config_id', 'readOnly', `is read-only (it is ${entity.config_id})`, config_id),
    ]);
  }
  const newName = (fields as { name?: string }).name;
  if (newName !== undefined && newName !== name) {
    if (listOf(config, kind).some((e) => e.name === newName)) {
      throw new DuplicateNameError(kind, newName);
    }
    renameReferences(config, kind, name, newName);
  }
  for (const [key, value] of Object.entries(fields)) {
    if (value !== undefined) (entity as Record<string, unknown>)[key] = value;
  }
  if (equalizer) entity.equalizer = mergeBands(entity.equalizer, equalizer);
  if (kind === 'sink') syncFormat(entity as Sink, fields as Partial<Sink>);
  ensureValid(config, kind, entity);
  return entity;
}

export function mergeBands(current: Equalizer, patch: Partial<Equalizer>): Equalizer {
  const out = { ...current };
  for (const key of EQ_BAND_KEYS) {
    const value = patch[key];
    if (value !== undefined) out[key] = value;
  }
  return out;
}

function renameReferences(config: Config, kind: Kind, from: string, to: string): void {
  if (kind === 'route') return;
  for (const group of listOf(config, kind)) {
    group.group_members = group.group_members.map((m) => (m === from ? to : m));
  }
  for (const route of config.routes) {
    if (kind === 'sink' && route.sink === from) route.sink = to;
    if (kind === 'source' && route.source === from) route.source = to;
  }
}

/** What refers to a sink or source by name: groups containing it and routes naming it. */
export function referrers(config: Config, kind: Kind, name: string): string[] {
  if (kind === 'route') return [];
  const out: string[] = [];
  for (const group of listOf(config, kind)) {
    if (group.group_members.includes(name)) out.push(`${kind} group '${group.name}'`);
  }
  for (const route of config.routes) {
    if ((kind === 'sink' ? route.sink : route.source) === name) out.push(`route '${route.name}'`);
  }
  return out;
}

export function deleteEntity(config: Config, kind: Kind, key: string): void {
  const entity = find(config, kind, key) as Entity;
  const users = referrers(config, kind, entity.name);
  if (users.length > 0) throw new InUseError(kind, entity.name, users.join(', '));
  const list = listOf(config, kind) as Entity[];
  list.splice(list.indexOf(entity), 1);
  config.favorites = config.favorites.filter((id) => id !== entity.config_id);
}

export function findPreset(config: Readonly<Config>, name: string): EqualizerPreset {
  const preset = config.equalizers.find((p) => p.name === name);
  if (!preset) throw new NotFoundError('equalizer preset', name);
  return preset;
}

export function addPreset(config: Config, preset: EqualizerPreset): EqualizerPreset {
  if (config.equalizers.some((p) => p.name === preset.name)) {
    throw new DuplicateNameError('equalizer preset', preset.name);
  }
  config.equalizers.push(preset);
  return preset;
}

export function deletePreset(config: Config, name: string): void {
  findPreset(config, name);
  config.equalizers = config.equalizers.filter((p) => p.name !== name);
}

export function bandsOf(preset: Partial<Equalizer>): Equalizer {
  return mergeBands(FLAT_EQUALIZER, preset);
}

/**
 * The rules a whole configuration must follow beyond each entry's schema: unique names and
 * config_ids, group members and route ends that exist, group_members only on groups, no group
 * cycles. Returns every problem with its path (`sinks[2].group_members[0]`).
 */
export function validateConfig(config: Entries): Problem[] {
  const problems: Problem[] = [];
  const ids = new Map<string, string>();
  for (const kind of ['sink', 'source', 'route'] as const) {
    const list = LIST_OF[kind];
    const names = new Map<string, string>();
    listOf(config, kind).forEach((e: Entity, i) => {
      unique(names, e.name, `${list}[${i}]`, 'name', problems);
      unique(ids, e.config_id, `${list}[${i}]`, 'config_id', problems);
    });
    if (kind !== 'route') checkGroups(config, kind, problems);
  }
  checkSinkFormats(config, problems);
  const existing = {
    source: new Set(config.sources.map((s) => s.name)),
    sink: new Set(config.sinks.map((s) => s.name)),
  };
  config.routes.forEach((r, i) => {
    for (const end of ['source', 'sink'] as const) {
      if (!existing[end].has(r[end])) {
        problems.push(
          makeProblem(
            `routes[${i}].${end}`,
            'reference',
            `must name an existing ${end} or ${end} group`,
            r[end],
          ),
        );
      }
    }
  });
  const presetNames = new Map<string, string>();
  config.equalizers.forEach((p, i) => {
    unique(presetNames, p.name, `equalizers[${i}]`, 'name', problems);
  });
  problems.push(...favoriteProblems(config));
  return problems;
}

/**
 * `value` of `entry`'s `field` must be unique: the first entry that has it (kept in `seen`) owns
 * it, and each later one is a problem naming that first one.
 */
function unique(
  seen: Map<string, string>,
  value: string,
  entry: string,
  field: string,
  problems: Problem[],
): void {
  const holder = seen.get(value);
  if (holder === undefined) seen.set(value, entry);
  else {
    problems.push(
      makeProblem(`${entry}.${field}`, 'unique', `must be unique (${holder} has it too)`, value),
    );
  }
}

/** What the engine can play: channels matching the layout, RTP at 16 or 24 bits. */
function checkSinkFormats(config: Entries, problems: Problem[]): void {
  config.sinks.forEach((s, i) => {
    if (s.is_group) return;
    const expected = LAYOUT_CHANNELS[s.channel_layout];
    if (s.channels !== expected) {
      problems.push(
        makeProblem(
          `sinks[${i}].channels`,
          'layout',
          `must be ${expected} for channel_layout ${s.channel_layout}`,
          s.channels,
        ),
      );
    }
    if (s.protocol === 'rtp' && s.bit_depth !== 16 && s.bit_depth !== 24) {
      problems.push(
        makeProblem(
          `sinks[${i}].bit_depth`,
          'protocol',
          'must be 16 or 24 when protocol is rtp',
          s.bit_depth,
        ),
      );
    }
  });
}

function checkGroups(config: Entries, kind: 'sink' | 'source', problems: Problem[]): void {
  const list = LIST_OF[kind];
  const entries = listOf(config, kind) as (Sink | Source)[];
  const byName = new Map(entries.map((e) => [e.name, e]));
  entries.forEach((e, i) => {
    if (!e.is_group && e.group_members.length > 0) {
      problems.push(
        makeProblem(
          `${list}[${i}].group_members`,
          'group',
          'must be empty unless is_group is true',
          e.group_members,
        ),
      );
    }
    e.group_members.forEach((member, j) => {
      if (!byName.has(member)) {
        problems.push(
          makeProblem(
            `${list}[${i}].group_members[${j}]`,
            'reference',
            `must name an existing ${kind}`,
            member,
          ),
        );
      }
    });
  });
  // Depth-first search for cycles; each cycle is reported once, at its first member in list order.
  const state = new Map<string, 'open' | 'done'>();
  const reported = new Set<string>();
  const visit = (name: string, trail: string[]): void => {
    const entry = byName.get(name);
    if (!entry?.is_group || state.get(name) === 'done') return;
    if (state.get(name) === 'open') {
      const cycle = [...trail.slice(trail.indexOf(name)), name];
      const key = [...new Set(cycle)].sort().join('\u0000');
      if (!reported.has(key)) {
        reported.add(key);
        const i = entries.findIndex((e) => e.name === cycle[0]);
        problems.push(
          makeProblem(
            `${list}[${i}].group_members`,
            'cycle',
            `must not contain itself (${cycle.join(' -> ')})`,
          ),
        );
      }
      return;
    }
    state.set(name, 'open');
    for (const member of entry.group_members) visit(member, [...trail, name]);
    state.set(name, 'done');
  };
  for (const e of entries) visit(e.name, []);
}
