// What a product plugin is (the contract a plugin file's default export meets) and what the
// host hands it. Plugins run inside the daemon's process with its rights: only the owner of the
// plugins folder can add one (docs: plugins page).
import type { FastifyPluginAsync } from 'fastify';
import type { Config } from '../schema/files.js';
import type { PluginFormat } from '../schema/source.js';
import type { PlaybackEngine } from './playurl/playback.js';

/** A memory source's format (`MemorySourceFormat` of the binding). */
export interface MemoryFormat {
  sampleRate: number;
  channels: number;
  /** s16le, s16be (l16), s24le, s24be (l24), s32le: what `write` takes; `writeSamples` takes f32. */
  sampleFormat: string;
  /** Audio the ring holds, ms (10-10000; 200 when left out). */
  ringMs?: number;
}

/** An in-process source as JavaScript writes into it: f32 samples, interleaved. */
export interface MemoryWriter {
  /** Writes what fits of `samples`; the frames written. */
  writeSamples(samples: Float32Array): number;
  /** Frames the ring has room for now. */
  readonly freeFrames: number;
}

/** What plugins may use of the audio engine; null answers mean the engine is off. */
export interface PluginEngine extends PlaybackEngine {
  /** An in-process source JavaScript writes into; the id names it in paths (a config_id). */
  addMemorySource(id: string, format: MemoryFormat): MemoryWriter | null;
  /** Levels of the sources in `ids` (every source played when empty); reading keeps them measured. */
  sourceLevels(
    ids: string[],
  ): { config_id: string; name: string; windows: number; peak: Float32Array }[];
}

import type { TemporarySources } from './temporary.js';

/** A plugin's log: its lines carry `plugin: name`. */
export interface PluginLog {
  info(msg: string): void;
  warn(msg: string): void;
  error(msg: string): void;
}

/** A permanent source of a plugin, as config.yaml has it. */
export interface PluginSource {
  readonly name: string;
  readonly config_id: string;
  /** Its audio format as config.yaml keeps it (`plugin_format`); null until first opened. */
  readonly format: PluginFormat | null;
}

/**
 * A plugin's permanent sources: sources in config.yaml tagged `plugin:NAME` (NAME: the
 * plugin's), saved, listed by GET /sources, routable, there again after a restart. At most 16 per
 * plugin (MAX_SOURCES_PER_PLUGIN).
 */
export interface PluginSources {
  /** This plugin's sources now (a user may have deleted or renamed some since). */
  list(): PluginSource[];
  /**
   * Adds one, named `name`, and saves it with `format` (the format it will be opened with: its
   * sample rate, channels and bit depth go to config.yaml's `plugin_format`); rejects with the
   * API's errors (400 a bad name or format, 409 a name taken or the plugin's 16 sources already
   * there).
   */
  add(name: string, format?: MemoryFormat): Promise<PluginSource>;
  /**
   * Removes one of this plugin's sources (by name or config_id) and closes its audio; rejects
   * with 404 for a source that is not the plugin's, 409 while a route or group uses it.
   */
  remove(key: string): Promise<void>;
  /**
   * Opens the audio of one of them: an in-process source the plugin writes (as
   * `engine.addMemorySource`), played wherever the source is routed. Null when the engine is
   * off. Opening again replaces it. Closed by the host when the source leaves the configuration
   * or the plugin stops; open them again in `start` after a restart. Without `format`, it opens
   * in the format config.yaml keeps for it; with one that differs, config.yaml is updated to it.
   */
  open(configId: string, format?: MemoryFormat): MemoryWriter | null;
}

/** What a plugin may use. */
export interface PluginContext {
  readonly log: PluginLog;
  /**
   * In-process sources (`addMemorySource`: PCM written from JavaScript; `addDecodedSource`:
   * bytes the engine decodes; `removeMemorySource`) and the sources' levels.
   */
  readonly engine: PluginEngine;
  /** Plays an in-process source on a sink or sink group without saving anything. */
  readonly temporary: TemporarySources;
  /** The configuration as it is now (frozen). */
  config(): Readonly<Config>;
  /**
   * Its own settings now: `plugins.NAME` of config.yaml (an empty mapping when there is none),
   * checked against its `settings` schema with the schema's defaults filled in (frozen).
   */
  settings(): Readonly<Record<string, unknown>>;
  /** Its permanent sources (tag `plugin:NAME`). */
  readonly sources: PluginSources;
  /**
   * Plays `urls` in order on a sink or sink group, as POST /plugins/playurlmultiple/play does;
   * resolves with the playback id once the audio plays, rejects with the reason otherwise.
   */
  playUrls(urls: readonly string[], sink: string): Promise<string>;
}

/**
 * A product plugin. Lifecycle: `start` when the daemon starts, `load` after every configuration
 * change, `stop` when the daemon shuts down, `unload` after stop (free what start took). A
 * plugin that throws (or takes longer than START_TIMEOUT_MS) in `start` is disabled, its error
 * logged and shown in GET /api/stats (`plugins`); its routes then answer 503. So is one whose
 * settings break its `settings` schema: not started, or stopped and unloaded when a change breaks
 * them, and started again when a later change mends them.
 */
export interface TributaryPlugin {
  /** Its name: lowercase letters, digits and dashes; its routes live under /plugins/{name}/. */
  readonly name: string;
  /**
   * The JSON Schema (a TypeBox schema is one) of its settings, `plugins.NAME` in config.yaml:
   * an object schema; its defaults are filled in. None: the section is handed over as it is.
   */
  readonly settings?: object;
  start(context: PluginContext): void | Promise<void>;
  /** After every configuration change: the whole configuration and its own settings. */
  load?(
    config: Readonly<Config>,
    settings: Readonly<Record<string, unknown>>,
  ): void | Promise<void>;
  stop?(): void | Promise<void>;
  unload?(): void | Promise<void>;
  /** Its HTTP routes (a Fastify plugin), registered with the prefix /plugins/{name}. */
  readonly routes?: FastifyPluginAsync;
}

/** The rule of plugin names. */
export const PLUGIN_NAME = /^[a-z][a-z0-9-]{0,31}$/;
