// What a product plugin is (the contract a plugin file's default export meets) and what the
// host hands it. Plugins run inside the daemon's process with its rights: only the owner of the
// plugins folder can add one (docs: plugins page).
import type { FastifyPluginAsync } from 'fastify';
import type { Config } from '../schema/files.js';
import type { PlaybackEngine } from './playurl/playback.js';

/** A memory source's format (`MemorySourceFormat` of the binding). */
export interface MemoryFormat {
  sampleRate: number;
  channels: number;
  /** s16le, s16be, s24le, s24be, s32le, f32le: what `write` takes; `writeSamples` takes f32. */
  sampleFormat: string;
  /** Audio the ring holds, ms (10-10000; 200 when left out). */
  ringMs?: number;
}

/** What plugins may use of the audio engine; null answers mean the engine is off. */
export interface PluginEngine extends PlaybackEngine {
  /** An in-process source JavaScript writes into; the id names it in paths (a config_id). */
  addMemorySource(
    id: string,
    format: MemoryFormat,
  ): { writeSamples(samples: Float32Array): number; readonly freeFrames: number } | null;
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
   * Plays `urls` in order on a sink or sink group, as POST /plugins/playurlmultiple/play does;
   * resolves with the playback id once the audio plays, rejects with the reason otherwise.
   */
  playUrls(urls: readonly string[], sink: string): Promise<string>;
}

/**
 * A product plugin. Lifecycle: `start` when the daemon starts, `load` after every configuration
 * change, `stop` when the daemon shuts down, `unload` after stop (free what start took). A
 * plugin that throws (or takes longer than START_TIMEOUT_MS) in `start` is disabled, its error
 * logged and shown in GET /api/stats (`plugins`); its routes then answer 503.
 */
export interface TributaryPlugin {
  /** Its name: lowercase letters, digits and dashes; its routes live under /plugins/{name}/. */
  readonly name: string;
  start(context: PluginContext): void | Promise<void>;
  load?(config: Readonly<Config>): void | Promise<void>;
  stop?(): void | Promise<void>;
  unload?(): void | Promise<void>;
  /** Its HTTP routes (a Fastify plugin), registered with the prefix /plugins/{name}. */
  readonly routes?: FastifyPluginAsync;
}

/** The rule of plugin names. */
export const PLUGIN_NAME = /^[a-z][a-z0-9-]{0,31}$/;
