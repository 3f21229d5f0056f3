import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { ConfigStore } from '../config/store.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** The configuration store: current config, revision, changes, change notifications. */
    configStore: ConfigStore;
  }
}

export interface ConfigStorePluginOptions {
  readonly configPath: string;
  readonly equalizerPath: string;
  readonly reloadTimeoutMs?: number;
}

/**
 * Opens the configuration store (refusing to start on an invalid file) and closes it with the
 * app. Other plugins depend on it by name: `dependencies: ['config-store']`.
 */
export default fp(
  async (fastify: FastifyInstance, options: ConfigStorePluginOptions) => {
    const log = fastify.log.child({ component: 'config' });
    const store = await ConfigStore.open({
      configPath: options.configPath,
      equalizerPath: options.equalizerPath,
      reloadTimeoutMs: options.reloadTimeoutMs ?? 3000,
      logger: {
        info: (m) => log.info(m),
        warn: (m) => log.warn(m),
        error: (m) => log.error(m),
      },
    });
    fastify.decorate('configStore', store);
    fastify.addHook('onClose', () => store.close());
  },
  { name: 'config-store', fastify: '5.x' },
);
