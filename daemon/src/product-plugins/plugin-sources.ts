// Permanent sources of any plugin (`context.sources`): sources in config.yaml with the tag
// `plugin:NAME` that the plugin NAME adds and removes, and whose audio it writes into an
// in-process source named by the config_id. Saved, listed by GET /sources, routed like any
// source, there again after a restart (the plugin reopens them in `start`). The host closes an
// opened one when its source leaves the configuration (a DELETE /sources included) and when the
// plugin stops. At most MAX_SOURCES_PER_PLUGIN per plugin.
import { addEntity, deleteEntity, find } from '../config/model.js';
import type { ConfigStore } from '../config/store.js';
import { NotFoundError, PluginSourceLimitError } from '../errors.js';
import { FLAT_EQUALIZER } from '../schema/common.js';
import type { Config } from '../schema/files.js';
import { SOURCE_DEFAULTS, type SourceInput } from '../schema/source.js';
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

export class OwnSources implements PluginSources {
  readonly #tag: string;
  readonly #open = new Set<string>();

  constructor(
    private readonly plugin: string,
    private readonly store: ConfigStore,
    private readonly engine: PluginEngine,
  ) {
    this.#tag = pluginTag(plugin);
  }

  list(): PluginSource[] {
    return this.#of(this.store.snapshot().config).map((s) => ({
      name: s.name,
      config_id: s.config_id,
    }));
  }

  async add(name: string): Promise<PluginSource> {
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
      };
      return addEntity(draft, 'source', input);
    });
    return { name: source.name, config_id: source.config_id };
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

  open(configId: string, format: MemoryFormat): MemoryWriter | null {
    if (!this.#of(this.store.snapshot().config).some((s) => s.config_id === configId)) {
      throw new NotFoundError(`${this.#tag} source`, configId);
    }
    this.#close(configId);
    const writer = this.engine.addMemorySource(configId, format);
    if (writer) this.#open.add(configId);
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
