// Permanent sources of any plugin (`context.sources`): sources in config.yaml with the tag
// `plugin:NAME` that the plugin NAME adds and removes, and whose audio it writes into an
// in-process source named by the config_id. Saved, listed by GET /sources, routed like any
// source, there again after a restart (the plugin reopens them in `start`). The host closes an
// opened one when its source leaves the configuration (a DELETE /sources included) and when the
// plugin stops. At most MAX_SOURCES_PER_PLUGIN per plugin.
import { addEntity, deleteEntity, find } from '../config/model.js';
import type { ConfigStore } from '../config/store.js';
import { invalidRequest, NotFoundError, PluginSourceLimitError } from '../errors.js';
import { FLAT_EQUALIZER } from '../schema/common.js';
import type { Config } from '../schema/files.js';
import { PluginFormat, SOURCE_DEFAULTS, type SourceInput } from '../schema/source.js';
import { check, makeProblem } from '../schema/validate.js';
import type {
  MemoryFormat,
  MemoryWriter,
  PluginEngine,
  PluginSource,
  PluginSources,
} from './types.js';

/** Permanent sources one plugin may have in config.yaml. */
export const MAX_SOURCES_PER_PLUGIN = 16;

/** The tag of the permanent sources of plugin `name`. */
export const pluginTag = (name: string): string => `plugin:${name}`;

/** Bits per sample of each sample format the engine's in-process sources take. */
const BIT_DEPTH: Readonly<Record<string, 16 | 24 | 32>> = {
  s16le: 16,
  s16be: 16,
  l16: 16,
  s24le: 24,
  s24be: 24,
  l24: 24,
  s32le: 32,
};
/** What a source opened from its saved format (no format given) is written in. */
const SAMPLE_FORMAT = { 16: 's16le', 24: 's24le', 32: 's32le' } as const;

/**
 * A memory source's format as config.yaml keeps it (`plugin_format`); a 400 naming the field
 * (`format.sample_rate`, `format.sampleFormat`) when the engine could not open it.
 */
export function savedFormat(format: MemoryFormat): PluginFormat {
  const bits = BIT_DEPTH[format.sampleFormat];
  if (!bits) {
    const rule = `must be one of ${Object.keys(BIT_DEPTH).join(', ')}`;
    throw invalidRequest([makeProblem('format.sampleFormat', 'enum', rule, format.sampleFormat)]);
  }
  const saved = { sample_rate: format.sampleRate, bit_depth: bits, channels: format.channels };
  const problems = check(PluginFormat, saved, 'format');
  if (problems.length > 0) throw invalidRequest(problems);
  return saved;
}

const sameFormat = (a: PluginFormat | null, b: PluginFormat) =>
  a !== null &&
  a.sample_rate === b.sample_rate &&
  a.bit_depth === b.bit_depth &&
  a.channels === b.channels;

export class OwnSources implements PluginSources {
  readonly #tag: string;
  readonly #open = new Set<string>();

  constructor(
    private readonly plugin: string,
    private readonly store: ConfigStore,
    private readonly engine: PluginEngine,
    /** Where a failed save of an opened source's format is reported. */
    private readonly warn: (msg: string) => void = () => {},
  ) {
    this.#tag = pluginTag(plugin);
  }

  list(): PluginSource[] {
    return this.#of(this.store.snapshot().config).map(view);
  }

  async add(name: string, format?: MemoryFormat): Promise<PluginSource> {
    const pluginFormat = format ? savedFormat(format) : null;
    const source = await this.store.change((draft) => {
      const count = this.#of(draft).length;
      if (count >= MAX_SOURCES_PER_PLUGIN) {
        throw new PluginSourceLimitError(
          this.plugin,
          String(count),
          String(MAX_SOURCES_PER_PLUGIN),
        );
      }
      const input: SourceInput = {
        ...SOURCE_DEFAULTS,
        group_members: [],
        rtp: null,
        equalizer: { ...FLAT_EQUALIZER },
        name,
        tag: this.#tag,
        plugin_format: pluginFormat,
      };
      return addEntity(draft, 'source', input);
    });
    return view(source);
  }

  async remove(key: string): Promise<void> {
    const id = await this.store.change((draft) => {
      const source = find(draft, 'source', key);
      if (source.tag !== this.#tag) throw new NotFoundError(`${this.#tag} source`, key);
      deleteEntity(draft, 'source', source.name);
      return source.config_id;
    });
    this.#close(id);
  }

  open(configId: string, format?: MemoryFormat): MemoryWriter | null {
    const source = this.#of(this.store.snapshot().config).find((s) => s.config_id === configId);
    if (!source) throw new NotFoundError(`${this.#tag} source`, configId);
    const saved = source.plugin_format;
    if (!format && !saved) {
      throw new Error(`source '${source.name}' has no saved format yet: open it with one`);
    }
    const opened: MemoryFormat = format ?? {
      sampleRate: saved!.sample_rate,
      channels: saved!.channels,
      sampleFormat: SAMPLE_FORMAT[saved!.bit_depth],
    };
    const wanted = savedFormat(opened);
    this.#close(configId);
    const writer = this.engine.addMemorySource(configId, opened);
    if (writer) this.#open.add(configId);
    // config.yaml keeps the format the source is written in.
    if (!sameFormat(saved, wanted)) {
      this.store
        .change((draft) => {
          const entry = draft.sources.find((s) => s.config_id === configId);
          if (entry) entry.plugin_format = wanted;
        })
        .catch((err: unknown) =>
          this.warn(`the format of source '${source.name}' not saved: ${(err as Error).message}`),
        );
    }
    return writer;
  }

  /** After a configuration change: closes what is open of sources no longer the plugin's. */
  follow(config: Readonly<Config>): void {
    const ids = new Set(this.#of(config).map((s) => s.config_id));
    for (const id of [...this.#open]) if (!ids.has(id)) this.#close(id);
  }

  /** Closes every opened source (the plugin stopped). */
  closeAll(): void {
    for (const id of [...this.#open]) this.#close(id);
  }

  #close(id: string): void {
    if (this.#open.delete(id)) this.engine.removeMemorySource(id);
  }

  #of(config: Readonly<Config>) {
    return config.sources.filter((s) => s.tag === this.#tag);
  }
}

const view = (s: {
  name: string;
  config_id: string;
  plugin_format: PluginFormat | null;
}): PluginSource => ({ name: s.name, config_id: s.config_id, format: s.plugin_format });
