import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { EngineService } from './service.js';
import type { EngineSettings } from './settings.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** The audio engine: plays the configuration, reports statistics. */
    engine: EngineService;
  }
}

export interface EnginePluginOptions {
  /** Engine settings (see `readEngineSettings`); null or absent runs without audio. */
  readonly settings?: EngineSettings | null;
}

/**
 * Starts the audio engine, applies the solver's output now and after every configuration
 * change, and stops the engine when the app closes (SIGTERM/SIGINT close the app).
 */
export default fp(
  async (fastify: FastifyInstance, options: EnginePluginOptions) => {
    const log = fastify.log.child({ component: 'engine' });
    const service = new EngineService(options.settings ?? null, {
      info: (m) => log.info(m),
      warn: (m) => log.warn(m),
      error: (m) => log.error(m),
    });
    fastify.decorate('engine', service);
    const store = fastify.configStore;
    service.apply(store.snapshot());
    const unsubscribe = store.subscribe((snapshot) => service.apply(snapshot));
    fastify.addHook('onClose', () => {
      unsubscribe();
      service.stop();
    });
  },
  { name: 'engine', fastify: '5.x', dependencies: ['config-store'] },
);
