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
import { stat } from 'node:fs/promises';
import { basename, dirname } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { isDeepStrictEqual } from 'node:util';
import { invalidConfig, type ProblemError, SaveFailedError } from '../errors.js';
import { keepAside, readTextIfExists, writeFileAtomic } from '../files.js';
import type { Problem } from '../schema/problem.js';
import {
  configDocument,
  type Doc,
  equalizersDocument,
  loadDocument,
  mergeHandEdit,
  type StoreLogger,
  setBase,
} from './doc.js';
import {
  ConfigFileError,
  type ConfigPart,
  type EqualizersPart,
  fileProblems,
} from './documents.js';
import { type Config, emptyConfig } from './model.js';
import { POLL_MS, ReloadSchedule } from './reload-schedule.js';
import { keepLastGood } from './shrink-guard.js';

export type { StoreLogger } from './doc.js';

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

/** A check of a whole configuration: the problems it has, none when it may be saved. */
export type ConfigCheck = (config: Readonly<Config>) => Problem[];

interface Op {
  run(draft: Config): unknown;
  resolve(value: unknown): void;
  reject(error: unknown): void;
  /** A reload check changes nothing by itself. */
  readonly reload?: boolean;
}

const silent: StoreLogger = { info() {}, warn() {}, error() {} };

function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const v of Object.values(value)) deepFreeze(v);
  }
  return value;
}

const SETTLE_MS = 150;

export class ConfigStore {
  readonly configPath: string;
  readonly equalizerPath: string;
  readonly #log: StoreLogger;
  readonly #reloadTimeoutMs: number;
  readonly #docs: [Doc<ConfigPart>, Doc<EqualizersPart>];
  readonly #listeners = new Set<ConfigListener>();
  readonly #checks: ConfigCheck[] = [];
  #config: Config;
  #revision = 1;
  #queue: Op[] = [];
  #draining: Promise<void> | null = null;
  #watchers: FSWatcher[] = [];
  #poll: NodeJS.Timeout | null = null;
  readonly #schedule: ReloadSchedule;
  #signatures = new Map<string, string>();
  #closed = false;

  private constructor(options: ConfigStoreOptions, docs: [Doc<ConfigPart>, Doc<EqualizersPart>]) {
    this.configPath = options.configPath;
    this.equalizerPath = options.equalizerPath;
    this.#log = options.logger ?? silent;
    this.#reloadTimeoutMs = options.reloadTimeoutMs ?? 3000;
    this.#docs = docs;
    this.#config = deepFreeze({ ...emptyConfig(), ...docs[0].base, ...docs[1].base });
    this.#schedule = new ReloadSchedule(this.#reloadTimeoutMs, () => {
      this.reload().catch((err: Error) =>
        this.#log.error(`reloading the configuration failed: ${err.message}`),
      );
    });
  }

  /**
   * Loads both files (creating them with the built-in defaults when missing). Throws
   * ConfigFileError, naming the file and every problem, when a file is invalid: the daemon must
   * not start on it, and the file is left untouched.
   */
  static async open(options: ConfigStoreOptions): Promise<ConfigStore> {
    const log = options.logger ?? silent;
    const configDoc = configDocument(options.configPath);
    const equalizerDoc = equalizersDocument(options.equalizerPath);
    for (const doc of [configDoc, equalizerDoc] as Doc<unknown>[]) await loadDocument(doc, log);
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

  /**
   * Adds a check every change must pass before it is saved (after the schemas and the rules
   * across entries): the audio engine's, so a configuration it would refuse is never saved.
   */
  addCheck(check: ConfigCheck): void {
    this.#checks.push(check);
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
    this.#schedule.stop();
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
          let problems = fileProblems(next, draft);
          for (const check of this.#checks) if (problems.length === 0) problems = check(next);
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
        if ((err as ProblemError & { code?: string }).code === 'TRIBUTARY_INVALID_CONFIG') {
          // The text would not load again (each change was checked, so this is a bug): not
          // written, and said so.
          this.#log.error(`a change was not saved: ${(err as Error).message}`);
          for (const { op } of applied) op.reject(err);
          continue;
        }
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
      const merged = mergeHandEdit(doc, disk, ours, this.#log);
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
    try {
      doc.parse(text); // what is written must load again
    } catch (err) {
      if (err instanceof ConfigFileError) throw invalidConfig(err.problems);
      throw err;
    }
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
    await this.#keepLastGood(doc);
    return { saved: ours };
  }

  async #startWatching(): Promise<void> {
    for (const doc of this.#docs) await this.#remember(doc.path);
    const names = new Set(this.#docs.map((d) => basename(d.path)));
    for (const dir of new Set(this.#docs.map((d) => dirname(d.path)))) {
      try {
        const watcher = watch(dir, { persistent: false }, (_event, file) => {
          if (file === null || names.has(file.toString())) void this.#noticeChange();
        });
        watcher.on('error', () => {});
        this.#watchers.push(watcher);
      } catch {
        // Some file systems cannot be watched; the poll below still notices changes.
      }
    }
    // A cheap stat poll catches what a watcher misses (network file systems, editors that
    // replace the directory entry in unusual ways).
    this.#poll = setInterval(() => void this.#pollOnce(), POLL_MS);
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
        await this.#noticeChange();
      }
    }
  }

  /** A file may have changed: reload once the newest of them has rested for the timeout. */
  async #noticeChange(): Promise<void> {
    if (this.#closed) return;
    const times = await Promise.all(
      this.#docs.map((d) =>
        stat(d.path).then(
          (s) => s.mtimeMs,
          () => Date.now(),
        ),
      ),
    );
    this.#schedule.changed(Math.max(...times));
  }

  /** Keeps what the daemon last wrote or accepted as the file's last good version. */
  async #keepLastGood<T>(doc: Doc<T>): Promise<void> {
    if (doc.text === null) return;
    await keepLastGood(doc.path, doc.text).catch((err: Error) =>
      this.#log.warn(`could not keep a copy of ${doc.path}: ${err.message}`),
    );
  }
}
