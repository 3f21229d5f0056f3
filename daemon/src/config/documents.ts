// config.yaml and equalizers.yaml as text: safe YAML parsing, validation against the schemas
// (every problem with its path), and the text the daemon writes.
import { Document, isMap, isScalar, parseDocument, visit } from 'yaml';
import { EQ_BAND_KEYS } from '../schema/common.js';
import type { EqualizerPreset } from '../schema/equalizer-preset.js';
import { type Config, ConfigFile, EqualizersFile } from '../schema/files.js';
import type { Problem } from '../schema/problem.js';
import { Route } from '../schema/route.js';
import { Sink } from '../schema/sink.js';
import { RtpSettings, Source } from '../schema/source.js';
import { check, makeProblem } from '../schema/validate.js';
import { existingFavorites } from './favorites.js';
import { bandsOf, complete, validateConfig } from './model.js';

/** A configuration file that cannot be used, with every problem found in it. */
export class ConfigFileError extends Error {
  constructor(
    readonly file: string,
    readonly problems: Problem[],
    message = `${file} is not a valid Tributary configuration:\n${problems.map((p) => `  ${p.message}`).join('\n')}`,
  ) {
    super(message);
    this.name = 'ConfigFileError';
  }
}

export type ConfigPart = Pick<
  Config,
  'sinks' | 'sources' | 'routes' | 'sap' | 'mdns' | 'plugins' | 'favorites'
>;
export type EqualizersPart = Pick<Config, 'equalizers'>;

export interface Parsed<T> {
  value: T;
  /** config_ids made up for entries that had none (the file should be rewritten with them). */
  generatedIds: Set<string>;
  /** The file's `revision` (null when the line is missing). */
  revision: number | null;
  /**
   * Names that break the rule of names (schema/name.ts), with how to reach their entry. They
   * do not stop the file from loading (a user's configuration is never refused for a name it
   * was allowed to hold before the rule): the daemon warns, and `config check` reports them.
   */
  names: Problem[];
}

/** Splits validation problems into names breaking the rule and everything else. */
function splitNames(problems: Problem[]): { names: Problem[]; others: Problem[] } {
  return {
    names: problems.filter((p) => p.keyword === 'name'),
    others: problems.filter((p) => p.keyword !== 'name'),
  };
}

/**
 * A name problem of `config` with the way to fix it: the URL that reaches the entry by its
 * config_id (when the file gave one; otherwise the daemon gives it one when it loads the file).
 */
function withRemedy(problem: Problem, config: Partial<ConfigPart>): Problem {
  const own = /^(sinks|sources|routes)\[(\d+)\]\.name$/.exec(problem.path);
  let remedy: string;
  if (own) {
    const list = own[1] as 'sinks' | 'sources' | 'routes';
    const id = config[list]?.[Number(own[2])]?.config_id;
    remedy = id
      ? `rename it in the file or through the API at /${list}/${id} (its config_id)`
      : 'rename it in the file, or through the API by the config_id the daemon gives it';
  } else if (problem.path.startsWith('equalizers[')) {
    remedy = 'rename the preset in the file (presets have no config_id)';
  } else remedy = 'renaming the entry it names (or editing the file) fixes it';
  return { ...problem, message: `${problem.message}: ${remedy}` };
}

/** Parses YAML safely (core schema: plain data only, no custom tags, duplicate keys refused). */
function parseYaml(text: string, file: string): unknown {
  const doc = parseDocument(text, { uniqueKeys: true, prettyErrors: true, strict: true });
  const problems = doc.errors.map((e) => {
    const pos = e.linePos?.[0];
    const where = pos ? `line ${pos.line}, column ${pos.col}` : '';
    const reason = e.message.split('\n')[0]!.replace(/ at line \d+, column \d+:?$/, '');
    return makeProblem(where, 'yaml', `is not valid YAML: ${reason}`);
  });
  if (problems.length > 0) throw new ConfigFileError(file, problems);
  try {
    return doc.toJS({ maxAliasCount: 100 }) ?? {};
  } catch (err) {
    throw new ConfigFileError(file, [
      makeProblem('', 'yaml', `is not valid YAML: ${(err as Error).message}`),
    ]);
  }
}

/** Parses and validates config.yaml text; throws ConfigFileError listing every problem. */
export function parseConfigText(text: string, file: string): Parsed<ConfigPart> {
  const data = parseYaml(text, file);
  const problems = check(ConfigFile, data);
  if (splitNames(problems).others.length > 0) throw new ConfigFileError(file, problems);
  const raw = data as ConfigFile;
  const generatedIds = new Set<string>();
  const withId = <T extends { config_id: string }>(input: { config_id?: string }, entity: T): T => {
    if (input.config_id === undefined) generatedIds.add(entity.config_id);
    return entity;
  };
  const entries = {
    sinks: raw.sinks.map((s) => withId(s, complete('sink', s))),
    sources: raw.sources.map((s) => withId(s, complete('source', s))),
    routes: raw.routes.map((r) => withId(r, complete('route', r))),
    // Validation filled in every default, so the input forms are complete here.
    sap: raw.sap as Config['sap'],
    mdns: raw.mdns as Config['mdns'],
    plugins: raw.plugins as Config['plugins'],
  };
  const value: ConfigPart = { ...entries, favorites: existingFavorites(raw.favorites, entries) };
  const semantic = validateConfig({ ...value, equalizers: [] });
  if (semantic.length > 0) throw new ConfigFileError(file, [...problems, ...semantic]);
  const names = problems.map((p) => withRemedy(p, raw as Partial<ConfigPart>));
  return { value, generatedIds, revision: raw.revision ?? null, names };
}

/** Parses and validates equalizers.yaml text; throws ConfigFileError listing every problem. */
export function parseEqualizersText(text: string, file: string): Parsed<EqualizersPart> {
  const data = parseYaml(text, file);
  const problems = check(EqualizersFile, data);
  if (splitNames(problems).others.length > 0) throw new ConfigFileError(file, problems);
  const { revision } = data as EqualizersFile;
  const equalizers = (data as EqualizersFile).equalizers.map(
    (p) => ({ name: p.name, ...bandsOf(p as EqualizerPreset) }) as EqualizerPreset,
  );
  const semantic = validateConfig({
    sinks: [],
    sources: [],
    routes: [],
    equalizers,
    favorites: [],
  });
  if (semantic.length > 0) throw new ConfigFileError(file, [...problems, ...semantic]);
  const names = problems.map((p) => withRemedy(p, {}));
  return { value: { equalizers }, generatedIds: new Set(), revision: revision ?? null, names };
}

/**
 * What the configuration files would say about `config` if it were written and read back: the
 * file schemas (every bound, finite numbers, formats) and the rules across entries. A change
 * is refused with these before anything is written, so nothing is saved that would not load.
 * Checked on a copy: validation fills in defaults. A name breaking the rule of names is refused
 * unless `before` (the configuration the change started from) already had it: a file written
 * before the rule keeps working, and nothing adds a new one.
 */
export function fileProblems(config: Config, before?: Readonly<Config>): Problem[] {
  const { sinks, sources, routes, equalizers } = config;
  const known = before ? namesIn(before) : new Set<string>();
  const schema = [
    ...check(ConfigFile, structuredClone({ sinks, sources, routes })),
    ...check(EqualizersFile, structuredClone({ equalizers })),
  ].filter((p) => !(p.keyword === 'name' && known.has(p.value as string)));
  return [...schema, ...validateConfig(config)];
}

/** Every name in `config` and every name it refers to. */
function namesIn(config: Readonly<Config>): Set<string> {
  const names = new Set<string>();
  for (const e of [...config.sinks, ...config.sources]) {
    names.add(e.name);
    for (const m of e.group_members) names.add(m);
  }
  for (const r of config.routes) for (const n of [r.name, r.source, r.sink]) names.add(n);
  for (const p of config.equalizers) names.add(p.name);
  const { sap, mdns } = config;
  for (const g of [sap.listener.add_to_group, mdns.add_sinks_to_group, mdns.add_sources_to_group])
    if (g !== null) names.add(g);
  return names;
}

/** `value` with its keys in `order` first (then any others), as the schema lists them. */
function ordered<T extends object>(value: T, order: readonly string[]): T {
  const out: Record<string, unknown> = {};
  for (const key of order) if (key in value) out[key] = (value as Record<string, unknown>)[key];
  for (const [key, v] of Object.entries(value)) if (!(key in out)) out[key] = v;
  return out as T;
}

const entityOrder = (schema: { properties: object }) => [
  'name',
  ...Object.keys(schema.properties).filter((k) => k !== 'name' && k !== 'equalizer' && k !== 'rtp'),
  'rtp',
  'equalizer',
];
const SINK_ORDER = entityOrder(Sink);
const SOURCE_ORDER = entityOrder(Source);
const ROUTE_ORDER = entityOrder(Route);
const RTP_ORDER = Object.keys(RtpSettings.properties);

/** YAML with a header comment; equalizers (18 bands) written on one line each. */
function render(comment: string, value: unknown): string {
  const doc = new Document(value);
  doc.commentBefore = comment;
  visit(doc, {
    Pair(_, pair) {
      if (isScalar(pair.key) && pair.key.value === 'equalizer' && isMap(pair.value))
        pair.value.flow = true;
    },
  });
  return doc.toString({ lineWidth: 0 });
}

export function configText(config: ConfigPart, revision = 0): string {
  return render(
    ' Tributary configuration: sinks, sources, routes, discovery (sap, mdns) and plugins.\n' +
      ' Saved by the daemon on every change. Hand edits are picked up a few seconds after the file\n' +
      ' is saved; a file that fails validation is reported in the log and not overwritten.\n' +
      ' Leave `revision` as it is: it lets your edit be merged with API changes made meanwhile.\n' +
      ' Check a file with: tributary config check FILE',
    {
      revision,
      sinks: config.sinks.map((e) => ordered(e, SINK_ORDER)),
      sources: config.sources.map((e) => ({
        ...ordered(e, SOURCE_ORDER),
        rtp: e.rtp && ordered(e.rtp, RTP_ORDER),
      })),
      routes: config.routes.map((e) => ordered(e, ROUTE_ORDER)),
      sap: config.sap,
      mdns: config.mdns,
      plugins: config.plugins,
      // Starred entries (config_ids, in order), written only once there are some.
      ...(config.favorites.length > 0 ? { favorites: config.favorites } : {}),
    },
  );
}

export function equalizersText(config: EqualizersPart, revision = 0): string {
  return render(
    ' Tributary equalizer presets: a name and 18 band gains b1..b18 (0.0 to 2.0, 1.0 flat).\n' +
      ' Saved by the daemon on every change; hand edits are picked up like config.yaml.',
    {
      revision,
      equalizers: config.equalizers.map((p) => ordered(p, ['name', ...EQ_BAND_KEYS])),
    },
  );
}
