// The configuration store: the one owner of config.yaml and equalizers.yaml.
//
// - Changes are functions on a draft copy, run one after another. Changes that queue up while a
//   save is in flight are applied together and saved once (group commit); each is acknowledged
//   only after the files holding it are durable (atomic replace + fsync).
// - Before every save, and CONFIGURATION_RELOAD_TIMEOUT after a file changes on disk, the files
//   are re-read. A hand edit is merged (three-way, by config_id) with the daemon's state against
//   the revision the daemon last wrote or read, so neither the edit nor API changes are lost.
// - A file that fails validation is never overwritten: it is reported, kept, and the running
//   state stays. If the daemon must save while it is still invalid, it is first moved aside to
//   `config.yaml.rejected-<time>`.
// - An editor saving while the daemon writes is noticed just before the rename (the file's
//   inode, size and mtime changed) and merged in a retry; only a save in the microseconds
//   between that check and the rename could be overwritten (no lock both sides honour).
import { type FSWatcher, watch } from 'node:fs';
import { mkdir, stat } from 'node:fs/promises';
import { basename, dirname } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { isDeepStrictEqual } from 'node:util';
import { invalidConfig, SaveFailedError } from '../errors.js';
import type { Problem } from '../schema/problem.js';
import { keepAside, readTextIfExists, writeFileAtomic } from './atomic-file.js';
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
import { type MergeConflict, mergeLists } from './merge.js';
import { type Config, emptyConfig, type Kind, LIST_OF, validateConfig } from './model.js';

export interface StoreLogger {
  info(message: string): void;
  warn(message: string): void;
  error(message: string): void;
}

export interface ConfigStoreOptions {
  /** config.yaml (sinks, sources, routes). */
  readonly configPath: string;
  /** equalizers.yaml (presets). */
  readonly equalizerPath: string;
  /** How long a changed file must rest before it is reloaded (CONFIGURATION_RELOAD_TIMEOUT). */
  readonly reloadTimeoutMs?: number;
  readonly logger?: StoreLogger;
  /** Watch the files for hand edits (default true). */
  readonly watch?: boolean;
}

/** The configuration at one revision. Deeply frozen: never mutate it. */
export interface ConfigSnapshot {
  /** Increases by one with every change (API call or reloaded hand edit) since the daemon started. */
  readonly revision: number;
  readonly config: Readonly<Config>;
}

export type ConfigListener = (snapshot: ConfigSnapshot) => void;

interface Op {
  run(draft: Config): unknown;
  resolve(value: unknown): void;
  reject(error: unknown): void;
  /** A reload check changes nothing by itself. */
  readonly reload?: boolean;
}

/** One file: what the daemon last wrote or read there, and how to parse, render and merge it. */
interface Doc<T> {
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
}

const silent: StoreLogger = { info() {}, warn() {}, error() {} };

function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const v of Object.values(value)) deepFreeze(v);
  }
  return value;
}

const HISTORY = 32;
const SETTLE_MS = 150;

function setBase<T>(doc: Doc<T>, value: T, revision: number | null): void {
  doc.base = value;
  doc.revision = Math.max(doc.revision, revision ?? 0);
  doc.history.push({ revision, value });
  if (doc.history.length > HISTORY) doc.history.shift();
}

/** Gives entries that came without a config_id the id of the base entry with the same name. */
function adoptIds(base: ConfigPart, theirs: Parsed<ConfigPart>): void {
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

export class ConfigStore {
  readonly configPath: string;
  readonly equalizerPath: string;
  readonly #log: StoreLogger;
  readonly #reloadTimeoutMs: number;
  readonly #docs: [Doc<ConfigPart>, Doc<EqualizersPart>];
  readonly #listeners = new Set<ConfigListener>();
  #config: Config;
  #revision = 1;
  #queue: Op[] = [];
  #draining: Promise<void> | null = null;
  #watchers: FSWatcher[] = [];
  #poll: NodeJS.Timeout | null = null;
  #reloadTimer: NodeJS.Timeout | null = null;
  #signatures = new Map<string, string>();
  #closed = false;

  private constructor(options: ConfigStoreOptions, docs: [Doc<ConfigPart>, Doc<EqualizersPart>]) {
    this.configPath = options.configPath;
    this.equalizerPath = options.equalizerPath;
    this.#log = options.logger ?? silent;
    this.#reloadTimeoutMs = options.reloadTimeoutMs ?? 3000;
    this.#docs = docs;
    this.#config = deepFreeze({ ...emptyConfig(), ...docs[0].base, ...docs[1].base });
  }

  /**
   * Loads both files (creating them with the built-in defaults when missing). Throws
   * ConfigFileError, naming the file and every problem, when a file is invalid: the daemon must
   * not start on it, and the file is left untouched.
   */
  static async open(options: ConfigStoreOptions): Promise<ConfigStore> {
    const log = options.logger ?? silent;
    const configDoc: Doc<ConfigPart> = {
      path: options.configPath,
      label: basename(options.configPath),
      text: null,
      base: defaultConfig(),
      revision: 0,
      history: [],
      reported: null,
      parse: (text) => parseConfigText(text, options.configPath),
      render: configText,
      pick: (c) => ({
        sinks: c.sinks,
        sources: c.sources,
        routes: c.routes,
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
          routes: mergeLists(
            base.routes,
            ours.routes,
            theirs.routes,
            (e) => e.config_id,
            conflicts,
          ),
        };
        const favorites = mergeFavorites(base.favorites, ours.favorites, theirs.favorites);
        return { ...entries, favorites: existingFavorites(favorites, entries) };
      },
      validate: (value) => validateConfig({ ...value, equalizers: [] }),
    };
    const equalizerDoc: Doc<EqualizersPart> = {
      path: options.equalizerPath,
      label: basename(options.equalizerPath),
      text: null,
      base: defaultEqualizers(),
      revision: 0,
      history: [],
      reported: null,
      parse: (text) => parseEqualizersText(text, options.equalizerPath),
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
    for (const doc of [configDoc, equalizerDoc] as Doc<unknown>[]) {
      await mkdir(dirname(doc.path), { recursive: true });
      const text = await readTextIfExists(doc.path);
      if (text === null) {
        setBase(doc, doc.base, 1);
        doc.text = doc.render(doc.base, 1);
        await writeFileAtomic(doc.path, doc.text);
        log.info(`created ${doc.path} with the built-in defaults`);
        continue;
      }
      const parsed = doc.parse(text); // throws ConfigFileError: refuse to start
      setBase(doc, parsed.value, parsed.revision);
      doc.text = text;
      if (parsed.generatedIds.size > 0) {
        doc.revision += 1;
        setBase(doc, parsed.value, doc.revision);
        doc.text = doc.render(parsed.value, doc.revision);
        await writeFileAtomic(doc.path, doc.text);
        log.info(`gave ${parsed.generatedIds.size} entries in ${doc.path} a config_id`);
      }
    }
    const store = new ConfigStore(options, [configDoc, equalizerDoc]);
    if (options.watch !== false) await store.#startWatching();
    return store;
  }

  get revision(): number {
    return this.#revision;
  }

  /** The current configuration (deeply frozen). */
  get config(): Readonly<Config> {
    return this.#config;
  }

  snapshot(): ConfigSnapshot {
    return { revision: this.#revision, config: this.#config };
  }

  /** Calls `listener` with every new snapshot (after it is saved). Returns an unsubscribe function. */
  subscribe(listener: ConfigListener): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /**
   * Runs `mutate` on a draft of the configuration. If it throws, nothing changes and the error
   * is passed on. Otherwise the resulting configuration is validated (400 with every problem if
   * not valid), saved durably, published, and the promise resolves with what `mutate` returned.
   */
  change<T>(mutate: (draft: Config) => T): Promise<T> {
    if (this.#closed) return Promise.reject(new Error('the configuration store is closed'));
    return new Promise<T>((resolve, reject) => {
      this.#queue.push({ run: mutate, resolve: resolve as (v: unknown) => void, reject });
      this.#kick();
    });
  }

  /** Re-reads both files now and merges any hand edit. Resolves once done. */
  reload(): Promise<void> {
    if (this.#closed) return Promise.resolve();
    return new Promise<void>((resolve, reject) => {
      this.#queue.push({ run: () => undefined, resolve: () => resolve(), reject, reload: true });
      this.#kick();
    });
  }

  /** Stops watching and waits for queued changes to be saved. */
  async close(): Promise<void> {
    this.#closed = true;
    for (const w of this.#watchers) w.close();
    this.#watchers = [];
    if (this.#poll) clearInterval(this.#poll);
    if (this.#reloadTimer) clearTimeout(this.#reloadTimer);
    while (this.#draining) await this.#draining;
  }

  #kick(): void {
    this.#draining ??= this.#drain().finally(() => {
      this.#draining = null;
      if (this.#queue.length > 0) this.#kick();
    });
  }

  async #drain(): Promise<void> {
    while (this.#queue.length > 0) {
      const batch = this.#queue.splice(0);
      let draft = structuredClone(this.#config) as Config;
      const applied: { op: Op; result: unknown }[] = [];
      for (const op of batch) {
        if (op.reload) {
          applied.push({ op, result: undefined });
          continue;
        }
        try {
          const next = structuredClone(draft);
          const result = op.run(next);
          const problems = validateConfig(next);
          if (problems.length > 0) throw invalidConfig(problems);
          draft = next;
          applied.push({ op, result: structuredClone(result) });
        } catch (err) {
          op.reject(err);
        }
      }
      if (applied.length === 0) continue;
      let saved: Config;
      try {
        saved = await this.#save(draft);
      } catch (err) {
        const file = (err as { file?: string }).file ?? this.configPath;
        const failure = new SaveFailedError(file, (err as Error).message);
        this.#log.error(failure.message);
        for (const { op } of applied) op.reject(failure);
        continue;
      }
      if (!isDeepStrictEqual(saved, this.#config)) {
        this.#config = deepFreeze(saved);
        this.#revision += 1;
        this.#publish();
      }
      for (const { op, result } of applied) op.resolve(result);
    }
  }

  #publish(): void {
    const snapshot = this.snapshot();
    for (const listener of this.#listeners) {
      try {
        listener(snapshot);
      } catch (err) {
        this.#log.error(`a configuration listener failed: ${(err as Error).stack ?? err}`);
      }
    }
  }

  /** Saves `draft` (merged with any hand edit first); returns the configuration now on disk. */
  async #save(draft: Config): Promise<Config> {
    const result = { ...draft };
    const [configDoc, equalizerDoc] = this.#docs;
    Object.assign(result, await this.#saveDoc(configDoc, configDoc.pick(draft)));
    Object.assign(result, await this.#saveDoc(equalizerDoc, equalizerDoc.pick(draft)));
    return result;
  }

  async #saveDoc<T>(doc: Doc<T>, wanted: T): Promise<T> {
    let ours = wanted;
    // A hand edit landing between the re-read and the rename is caught by comparing the file's
    // signature just before the rename; then read, merge and write again (with what was merged).
    for (let attempt = 1; ; attempt++) {
      const outcome = await this.#trySaveDoc(doc, ours, attempt < 5);
      if (!('retry' in outcome)) return outcome.saved;
      ours = outcome.retry;
    }
  }

  async #trySaveDoc<T>(
    doc: Doc<T>,
    wanted: T,
    guard: boolean,
  ): Promise<{ saved: T } | { retry: T }> {
    let ours = wanted;
    let onDisk: T = doc.base;
    let rejected = false;
    let seen = await this.#settledSignature(doc.path);
    const disk = await readTextIfExists(doc.path).catch((err: Error) => {
      throw Object.assign(err, { file: doc.path });
    });
    if (disk === null) {
      if (doc.text !== null) this.#log.warn(`${doc.path} was removed; writing it again`);
      onDisk = undefined as T;
    } else if (disk !== doc.text) {
      const merged = this.#mergeHandEdit(doc, disk, ours);
      if (merged === 'invalid') rejected = true;
      else {
        ours = merged.value;
        onDisk = merged.theirs;
        if (merged.mustWrite) onDisk = undefined as T;
      }
    }
    if (disk !== null && !rejected && isDeepStrictEqual(ours, onDisk)) return { saved: ours };
    if (disk !== null && rejected && isDeepStrictEqual(ours, doc.base)) return { saved: ours };
    const revision = doc.revision + 1;
    const text = doc.render(ours, revision);
    let written: boolean;
    try {
      if (rejected) {
        const aside = await keepAside(doc.path, 'rejected');
        this.#log.warn(
          `${doc.path} is invalid and the daemon had to save a change: kept it as ${aside}`,
        );
        doc.reported = null;
        seen = 'missing';
      }
      const unchanged = async () => !guard || (await this.#signature(doc.path)) === seen;
      written = await writeFileAtomic(doc.path, text, 0o644, unchanged);
    } catch (err) {
      throw Object.assign(err as Error, { file: doc.path });
    }
    if (!written) return { retry: ours };
    doc.text = text;
    setBase(doc, ours, revision);
    await this.#remember(doc.path);
    return { saved: ours };
  }

  /**
   * A file changed on disk behind the daemon's back. Returns the three-way merge of the hand
   * edit (theirs) with `ours`, or 'invalid' when the file cannot be used (reported once).
   */
  #mergeHandEdit<T>(
    doc: Doc<T>,
    disk: string,
    ours: T,
  ): 'invalid' | { value: T; theirs: T; mustWrite: boolean } {
    let theirs: Parsed<T>;
    try {
      theirs = doc.parse(disk);
    } catch (err) {
      if (!(err instanceof ConfigFileError)) throw err;
      if (doc.reported !== disk) {
        doc.reported = disk;
        this.#log.error(
          `${err.message}\nThe file was edited by hand and is not used; the daemon keeps running ` +
            'on its last valid configuration and will not overwrite the file while it is invalid.',
        );
      }
      return 'invalid';
    }
    if (doc === (this.#docs[0] as unknown)) {
      adoptIds(doc.base as ConfigPart, theirs as unknown as Parsed<ConfigPart>);
    }
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
      this.#log.error(
        `${doc.path} was edited by hand, but combined with the changes made through the API it ` +
          `is invalid:\n${problems.map((p) => `  ${p.message}`).join('\n')}`,
      );
      return 'invalid';
    }
    for (const c of conflicts) {
      this.#log.warn(
        `${doc.path}: ${c.field} of ${c.key} was changed both by hand and through the API; ` +
          'the API change is kept',
      );
    }
    this.#log.info(`reloaded ${doc.path} (edited by hand)`);
    doc.text = disk;
    setBase(doc, theirs.value, theirs.revision);
    doc.reported = null;
    return { value: merged, theirs: theirs.value, mustWrite: theirs.generatedIds.size > 0 };
  }

  async #startWatching(): Promise<void> {
    for (const doc of this.#docs) await this.#remember(doc.path);
    const names = new Set(this.#docs.map((d) => basename(d.path)));
    for (const dir of new Set(this.#docs.map((d) => dirname(d.path)))) {
      try {
        const watcher = watch(dir, { persistent: false }, (_event, file) => {
          if (file === null || names.has(file.toString())) this.#scheduleReload();
        });
        watcher.on('error', () => {});
        this.#watchers.push(watcher);
      } catch {
        // Some file systems cannot be watched; the poll below still notices changes.
      }
    }
    // A cheap stat poll catches what a watcher misses (network file systems, editors that
    // replace the directory entry in unusual ways).
    this.#poll = setInterval(() => void this.#pollOnce(), Math.max(this.#reloadTimeoutMs, 250));
    this.#poll.unref();
  }

  async #signature(path: string): Promise<string> {
    return stat(path).then(
      (s) => `${s.ino}:${s.size}:${s.mtimeMs}`,
      () => 'missing',
    );
  }

  /**
   * The file's signature once it has not changed for SETTLE_MS: an editor that writes in place
   * (truncate, then write) is not read half-way and taken for an invalid file.
   */
  async #settledSignature(path: string): Promise<string> {
    for (let i = 0; i < 10; i++) {
      const s = await stat(path).catch(() => null);
      const age = s ? Date.now() - s.mtimeMs : Number.POSITIVE_INFINITY;
      if (
        age >= SETTLE_MS ||
        this.#signatures.get(path) === (s && `${s.ino}:${s.size}:${s.mtimeMs}`)
      )
        break;
      await sleep(SETTLE_MS - Math.max(age, 0));
    }
    return this.#signature(path);
  }

  async #remember(path: string): Promise<void> {
    this.#signatures.set(path, await this.#signature(path));
  }

  async #pollOnce(): Promise<void> {
    for (const doc of this.#docs) {
      const now = await this.#signature(doc.path);
      if (now !== this.#signatures.get(doc.path)) {
        this.#signatures.set(doc.path, now);
        this.#scheduleReload();
      }
    }
  }

  #scheduleReload(): void {
    if (this.#closed) return;
    if (this.#reloadTimer) clearTimeout(this.#reloadTimer);
    this.#reloadTimer = setTimeout(() => {
      this.#reloadTimer = null;
      this.reload().catch((err: Error) =>
        this.#log.error(`reloading the configuration failed: ${err.message}`),
      );
    }, this.#reloadTimeoutMs);
    this.#reloadTimer.unref();
  }
}
