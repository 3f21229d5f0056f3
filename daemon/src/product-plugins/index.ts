// The product-plugin host, a service (named fastify-plugin `product-plugins`): registers the
// built-in plugins and those of PLUGINS_DIRECTORY, mounts each one's routes under
// /plugins/{name}/, drives the lifecycle (start now, load after each configuration change, stop
// and unload on close) and reports every plugin's state for GET /api/stats. A plugin that fails
// to load or start is disabled (its routes answer 503) and never takes the daemon down.
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { PlayUnavailableError } from '../errors.js';
import type { Config } from '../schema/files.js';
import type { PluginStats } from '../schema/plugins.js';
import { loadFolder } from './folder.js';
import { httpError, PlayUrlError } from './playurl/errors.js';
import { playUrlPlugins } from './playurl/index.js';
import { Playbacks, type PlaybacksOptions } from './playurl/playbacks.js';
import { OwnSources } from './plugin-sources.js';
import { checkSettings } from './settings.js';
import { TemporarySources } from './temporary.js';
import { tonePlugin } from './tone.js';
import type { PluginContext, TributaryPlugin } from './types.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** Product plugins: their states and the play-URL playbacks, for GET /api/stats. */
    productPlugins: { stats(): PluginStats };
  }
}

export interface ProductPluginOptions {
  /** PLUGINS_DIRECTORY: a folder of plugin files (`*.js`, `*.mjs`); null: built-ins only. */
  readonly directory?: string | null;
  /**
   * PLAYURL_DIRECTORY (`directory`, the only folder file: URLs may play from) and the window of
   * the play-URL log cap (`logWindowMs`, a minute; tests shorten it). The play-URL limits are
   * config.yaml's `plugins.playurl`, read at each request.
   */
  readonly playUrl?: PlaybacksOptions;
}

/** Longest a plugin's start may take before it is disabled. */
export const START_TIMEOUT_MS = 5000;

interface Entry {
  readonly plugin: TributaryPlugin | null;
  readonly name: string;
  readonly builtin: boolean;
  state: 'running' | 'failed' | 'stopped';
  error: string | null;
  /** Disabled because its settings break its schema: started again once they are mended. */
  badSettings: boolean;
  /** Its settings as last checked (what `context.settings()` answers). */
  settings: Readonly<Record<string, unknown>>;
  /** Its lifecycle calls, one after the other (a change waits for the start before it). */
  chain: Promise<void>;
  /** Its permanent sources, once it has a context. */
  sources?: OwnSources;
  context?: PluginContext;
}

export default fp(
  async (fastify: FastifyInstance, options: ProductPluginOptions) => {
    const log = fastify.log.child({ component: 'plugins' });
    const store = fastify.configStore;
    const temporary = new TemporarySources(fastify.engine);
    const playbacks = new Playbacks(options.playUrl);
    const fresh = { badSettings: false, settings: {}, chain: Promise.resolve() };
    const entries: Entry[] = [...playUrlPlugins(playbacks), tonePlugin()].map((plugin) => ({
      plugin,
      name: plugin.name,
      builtin: true,
      state: 'stopped',
      error: null,
      ...fresh,
    }));
    if (options.directory) {
      for (const loaded of await loadFolder(
        options.directory,
        new Set(entries.map((e) => e.name)),
      )) {
        entries.push({
          ...loaded,
          builtin: false,
          state: loaded.plugin ? 'stopped' : 'failed',
          ...fresh,
        });
        if (!loaded.plugin) log.error(`plugin ${loaded.name} not loaded: ${loaded.error}`);
      }
    }

    for (const entry of entries) {
      const { plugin } = entry;
      if (!plugin) continue;
      const pluginLog = log.child({ plugin: entry.name });
      entry.sources = new OwnSources(entry.name, store, fastify.engine, (m) => pluginLog.warn(m));
      const context: PluginContext = {
        log: {
          info: (m) => pluginLog.info(m),
          warn: (m) => pluginLog.warn(m),
          error: (m) => pluginLog.error(m),
        },
        engine: fastify.engine,
        temporary,
        config: () => store.snapshot().config,
        settings: () => entry.settings,
        sources: entry.sources,
        // Its errors are the API's (400, 404, 422, 502, ...), for a plugin's route to pass on.
        playUrls: async (urls, sink) => {
          try {
            return (await playbacks.play(urls, sink, 'urls')).id;
          } catch (err) {
            throw err instanceof PlayUrlError ? httpError(err) : err;
          }
        },
      };
      entry.context = context;
      await start(entry, store.config);
      if (plugin.routes) {
        const routes = plugin.routes;
        await fastify.register(
          async (scoped) => {
            // A disabled plugin's routes say why instead of running.
            scoped.addHook('onRequest', async () => {
              if (entry.state !== 'running') {
                throw new PlayUnavailableError(
                  `plugin ${entry.name} is ${entry.state}: ${entry.error ?? ''}`,
                );
              }
            });
            await scoped.register(routes);
          },
          { prefix: `/plugins/${entry.name}` },
        );
      }
    }

    const unsubscribe = store.subscribe((snapshot) => {
      for (const entry of entries) {
        entry.sources?.follow(snapshot.config);
        if (!entry.context) continue;
        entry.chain = entry.chain
          .then(() => changed(entry, snapshot.config))
          .catch((err: unknown) => log.error(`plugin ${entry.name}: ${(err as Error).message}`));
      }
    });

    /** Starts a plugin whose settings hold (else disables it, saying why). */
    async function start(entry: Entry, config: Readonly<Config>): Promise<void> {
      const checked = checkSettings(entry.name, entry.plugin?.settings, config);
      if (checked.error !== null) return disable(entry, checked.error, true);
      entry.settings = checked.settings;
      try {
        await withTimeout(
          Promise.resolve(entry.plugin?.start(entry.context as PluginContext)),
          START_TIMEOUT_MS,
        );
        entry.state = 'running';
        entry.error = null;
        entry.badSettings = false;
      } catch (err) {
        entry.sources?.closeAll();
        disable(entry, `start: ${(err as Error).message}`, false);
      }
    }

    function disable(entry: Entry, error: string, badSettings: boolean): void {
      entry.state = 'failed';
      entry.error = error;
      entry.badSettings = badSettings;
      log.child({ plugin: entry.name }).error(`plugin ${entry.name} disabled: ${error}`);
    }

    /** stop, then unload; what it opened of its sources closed. */
    async function stop(entry: Entry): Promise<void> {
      try {
        await withTimeout(Promise.resolve(entry.plugin?.stop?.()), START_TIMEOUT_MS);
        await withTimeout(Promise.resolve(entry.plugin?.unload?.()), START_TIMEOUT_MS);
      } catch (err) {
        log.warn(`plugin ${entry.name} stop: ${(err as Error).message}`);
      }
      entry.sources?.closeAll();
      entry.state = 'stopped';
    }

    /**
     * After a configuration change: a running plugin gets `load` with its settings, or is
     * stopped and disabled when they break its schema; one disabled for its settings starts
     * again once they hold.
     */
    async function changed(entry: Entry, config: Readonly<Config>): Promise<void> {
      const checked = checkSettings(entry.name, entry.plugin?.settings, config);
      if (entry.state === 'running') {
        if (checked.error !== null) {
          await stop(entry);
          return disable(entry, checked.error, true);
        }
        entry.settings = checked.settings;
        try {
          await withTimeout(
            Promise.resolve(entry.plugin?.load?.(config, checked.settings)),
            START_TIMEOUT_MS,
          );
        } catch (err) {
          log.warn(`plugin ${entry.name} load: ${(err as Error).message}`);
        }
      } else if (entry.state === 'failed' && entry.badSettings) {
        if (checked.error === null) await start(entry, config);
        else if (checked.error !== entry.error) disable(entry, checked.error, true);
      }
    }

    fastify.decorate('productPlugins', {
      stats: (): PluginStats => ({
        plugins: entries.map(({ name, builtin, state, error }) => ({
          name,
          builtin,
          state,
          error,
        })),
        ...playbacks.stats(),
      }),
    });

    fastify.addHook('onClose', async () => {
      unsubscribe();
      for (const entry of entries) {
        await entry.chain;
        if (entry.state === 'running') await stop(entry);
      }
      // What every plugin opened of its permanent sources (one that failed included).
      for (const entry of entries) entry.sources?.closeAll();
    });
  },
  { name: 'product-plugins', fastify: '5.x', dependencies: ['config-store', 'engine'] },
);

async function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`took longer than ${ms} ms`)), ms);
  });
  try {
    return await Promise.race([promise, timeout]);
  } finally {
    clearTimeout(timer);
  }
}
