// One configuration file as the store holds it: what the daemon last wrote or read there, the
// versions before (merge bases for hand edits), and how to parse, render, merge and validate
// it; and loading it at start.
import { mkdir } from 'node:fs/promises';
import { basename, dirname } from 'node:path';
import { readTextIfExists, removeStaleTemporaries, writeFileAtomic } from '../files.js';
import type { Problem } from '../schema/problem.js';
import { makeProblem } from '../schema/validate.js';
import { defaultConfig, defaultEqualizers } from './defaults.js';
import {
  ConfigFileError,
  type ConfigPart,
  configText,
  type EqualizersPart,
  equalizersText,
  type Parsed,
  parseConfigText,
  parseEqualizersText,
} from './documents.js';
import { existingFavorites, mergeFavorites } from './favorites.js';
import { type MergeConflict, mergeLists, mergeSection } from './merge.js';
import { type Config, emptyConfig, type Kind, LIST_OF, validateConfig } from './model.js';
import { damage, damageMessage, keepLastGood, lastGoodPath, readLastGood } from './shrink-guard.js';

export interface StoreLogger {
  info(message: string): void;
  warn(message: string): void;
  error(message: string): void;
}

/** Versions of a file remembered as merge bases. */
const HISTORY = 32;

/** One file: what the daemon last wrote or read there, and how to parse, render and merge it. */
export interface Doc<T> {
  readonly path: string;
  readonly label: string;
  /** The text on disk as the daemon last wrote or read it (null: no file). */
  text: string | null;
  /** The parsed value of `text`: what the daemon last wrote or read. */
  base: T;
  /** The highest `revision` written or read; the next save writes one more. */
  revision: number;
  /** The last versions written or read with their revision, newest last: merge bases. */
  history: { revision: number | null; value: T }[];
  /** An invalid text already reported, so it is reported once. */
  reported: string | null;
  parse(text: string): Parsed<T>;
  render(value: T, revision: number): string;
  pick(config: Config): T;
  merge(base: T, ours: T, theirs: T, conflicts: MergeConflict[]): T;
  validate(value: T): Problem[];
  /** Gives entries of a hand edit that came without a config_id the id of the base entry. */
  adopt?(base: T, theirs: Parsed<T>): void;
}

export function setBase<T>(doc: Doc<T>, value: T, revision: number | null): void {
  doc.base = value;
  doc.revision = Math.max(doc.revision, revision ?? 0);
  doc.history.push({ revision, value });
  if (doc.history.length > HISTORY) doc.history.shift();
}

/** Gives entries that came without a config_id the id of the base entry with the same name. */
export function adoptIds(base: ConfigPart, theirs: Parsed<ConfigPart>): void {
  for (const kind of ['sink', 'source', 'route'] as const satisfies Kind[]) {
    const list = LIST_OF[kind];
    const used = new Set(theirs.value[list].map((e) => e.config_id));
    for (const entry of theirs.value[list]) {
      if (!theirs.generatedIds.has(entry.config_id)) continue;
      const match = base[list].find((b) => b.name === entry.name && !used.has(b.config_id));
      if (match) {
        theirs.generatedIds.delete(entry.config_id);
        entry.config_id = match.config_id;
        used.add(match.config_id);
      }
    }
  }
}

/** config.yaml: sinks, sources and routes, merged by config_id; the sap, mdns and plugins sections;
 * the favorites. */
export function configDocument(path: string): Doc<ConfigPart> {
  return {
    path: path,
    label: basename(path),
    text: null,
    base: defaultConfig(),
    revision: 0,
    history: [],
    reported: null,
    parse: (text) => parseConfigText(text, path),
    render: configText,
    pick: (c) => ({
      sinks: c.sinks,
      sources: c.sources,
      routes: c.routes,
      sap: c.sap,
      mdns: c.mdns,
      plugins: c.plugins,
      favorites: c.favorites,
    }),
    merge: (base, ours, theirs, conflicts) => {
      const entries = {
        sinks: mergeLists(base.sinks, ours.sinks, theirs.sinks, (e) => e.config_id, conflicts),
        sources: mergeLists(
          base.sources,
          ours.sources,
          theirs.sources,
          (e) => e.config_id,
          conflicts,
        ),
        routes: mergeLists(base.routes, ours.routes, theirs.routes, (e) => e.config_id, conflicts),
        sap: mergeSection('sap', base.sap, ours.sap, theirs.sap, conflicts),
        mdns: mergeSection('mdns', base.mdns, ours.mdns, theirs.mdns, conflicts),
        plugins: mergeSection('plugins', base.plugins, ours.plugins, theirs.plugins, conflicts),
      };
      const favorites = mergeFavorites(base.favorites, ours.favorites, theirs.favorites);
      return { ...entries, favorites: existingFavorites(favorites, entries) };
    },
    validate: (value) => validateConfig({ ...value, equalizers: [] }),
    adopt: adoptIds,
  };
}

/** equalizers.yaml: presets, merged by name. */
export function equalizersDocument(path: string): Doc<EqualizersPart> {
  return {
    path: path,
    label: basename(path),
    text: null,
    base: defaultEqualizers(),
    revision: 0,
    history: [],
    reported: null,
    parse: (text) => parseEqualizersText(text, path),
    render: equalizersText,
    pick: (c) => ({ equalizers: c.equalizers }),
    merge: (base, ours, theirs, conflicts) => ({
      equalizers: mergeLists(
        base.equalizers,
        ours.equalizers,
        theirs.equalizers,
        (p) => p.name,
        conflicts,
      ),
    }),
    validate: (value) => validateConfig({ ...emptyConfig(), ...value }),
  };
}

/**
 * Loads one file: removes temporaries a killed daemon left, creates it with the built-in
 * defaults when missing, refuses one that looks truncated, parses it (throws ConfigFileError:
 * the daemon must not start on it, and it is left untouched) and keeps its last-good copy.
 */
export async function loadDocument<T>(doc: Doc<T>, log: StoreLogger): Promise<void> {
  await mkdir(dirname(doc.path), { recursive: true });
  for (const file of [doc.path, lastGoodPath(doc.path)]) {
    for (const name of await removeStaleTemporaries(file)) {
      log.info(`removed ${name}, a temporary file a stopped daemon left in ${dirname(file)}`);
    }
  }
  const text = await readTextIfExists(doc.path);
  if (text === null) {
    setBase(doc, doc.base, 1);
    doc.text = doc.render(doc.base, 1);
    await writeFileAtomic(doc.path, doc.text);
    await keepLastGood(doc.path, doc.text);
    log.info(`created ${doc.path} with the built-in defaults`);
    return;
  }
  const why = damage(text, await readLastGood(doc.path));
  if (why) {
    const problem = makeProblem('', 'truncated', why);
    throw new ConfigFileError(doc.path, [problem], damageMessage(doc.path, why, false));
  }
  const parsed = doc.parse(text); // throws ConfigFileError: refuse to start
  reportNames(doc.path, parsed.names, log);
  setBase(doc, parsed.value, parsed.revision);
  doc.text = text;
  await keepLastGood(doc.path, text);
  if (parsed.generatedIds.size > 0) {
    doc.revision += 1;
    setBase(doc, parsed.value, doc.revision);
    doc.text = doc.render(parsed.value, doc.revision);
    await writeFileAtomic(doc.path, doc.text);
    await keepLastGood(doc.path, doc.text);
    log.info(`gave ${parsed.generatedIds.size} entries in ${doc.path} a config_id`);
  }
}

/** Names of a file that break the rule of names: loaded, and said once per load. */
function reportNames(path: string, names: readonly Problem[], log: StoreLogger): void {
  if (names.length === 0) return;
  log.warn(
    `${path} has ${names.length} name${names.length === 1 ? '' : 's'} the API would refuse ` +
      `(loaded anyway; a URL reaches such an entry by its config_id):\n` +
      names.map((p) => `  ${p.message}`).join('\n'),
  );
}

/**
 * A file changed on disk behind the daemon's back. Returns the three-way merge of the hand
 * edit (theirs) with `ours`, or 'invalid' when the file cannot be used (reported once).
 */
export function mergeHandEdit<T>(
  doc: Doc<T>,
  disk: string,
  ours: T,
  log: StoreLogger,
): 'invalid' | { value: T; theirs: T; mustWrite: boolean } {
  const why = damage(disk, doc.text);
  if (why) {
    if (doc.reported !== disk) {
      doc.reported = disk;
      log.error(
        `${damageMessage(doc.path, why, true)}\nThe daemon keeps running on its last valid ` +
          'configuration and will not overwrite the file while it looks like this.',
      );
    }
    return 'invalid';
  }
  let theirs: Parsed<T>;
  try {
    theirs = doc.parse(disk);
  } catch (err) {
    if (!(err instanceof ConfigFileError)) throw err;
    if (doc.reported !== disk) {
      doc.reported = disk;
      log.error(
        `${err.message}\nThe file was edited by hand and is not used; the daemon keeps running ` +
          'on its last valid configuration and will not overwrite the file while it is invalid.',
      );
    }
    return 'invalid';
  }
  doc.adopt?.(doc.base, theirs);
  // The base is the version the edit started from, named by the file's `revision` line: a
  // buffer opened before some API changes then keeps them instead of undoing them. Without
  // the line (or for a version too old to remember), the version the daemon last wrote.
  const from =
    theirs.revision === null
      ? undefined
      : doc.history.findLast((h) => h.revision === theirs.revision);
  const base = from?.value ?? doc.base;
  const conflicts: MergeConflict[] = [];
  const merged = doc.merge(base, ours, theirs.value, conflicts);
  const problems = doc.validate(merged);
  if (problems.length > 0) {
    log.error(
      `${doc.path} was edited by hand, but combined with the changes made through the API it ` +
        `is invalid:\n${problems.map((p) => `  ${p.message}`).join('\n')}`,
    );
    return 'invalid';
  }
  for (const c of conflicts) {
    log.warn(
      `${doc.path}: ${c.field} of ${c.key} was changed both by hand and through the API; ` +
        'the API change is kept',
    );
  }
  log.info(`reloaded ${doc.path} (edited by hand)`);
  reportNames(doc.path, theirs.names, log);
  doc.text = disk;
  void keepLastGood(doc.path, disk).catch((err: Error) =>
    log.warn(`could not keep a copy of ${doc.path}: ${err.message}`),
  );
  setBase(doc, theirs.value, theirs.revision);
  doc.reported = null;
  return { value: merged, theirs: theirs.value, mustWrite: theirs.generatedIds.size > 0 };
}
