// The engine service: the audio engine (native/) for the daemon's life, playing the solver's
// output for every configuration change. GET /api/stats and /ws/stats (routes/stats/) read it.
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { makeProblem } from '../../schema/validate.js';
import type { EngineSettings } from '../../settings/engine.js';
import { type EngineClass, EngineService } from './service.js';

export type { EngineClass } from './service.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** The audio engine: plays the configuration, reports statistics. */
    engine: EngineService;
  }
}

export interface EnginePluginOptions {
  /** Engine settings (see `readEngineSettings`); null or absent runs without audio. */
  readonly settings?: EngineSettings | null;
  /** The engine class (tests only: one built with fault injection); the binding's otherwise. */
  readonly binding?: EngineClass;
}

/**
 * Starts the audio engine, applies the solver's output now and after every configuration
 * change, and stops the engine when the app closes (SIGTERM/SIGINT close the app).
 */
export default fp(
  async (fastify: FastifyInstance, options: EnginePluginOptions) => {
    const log = fastify.log.child({ component: 'engine' });
    const service = new EngineService(
      options.settings ?? null,
      {
        info: (m) => log.info(m),
        warn: (m) => log.warn(m),
        error: (m) => log.error(m),
      },
      options.binding,
    );
    fastify.decorate('engine', service);
    const store = fastify.configStore;
    // A change the engine would refuse is refused before it is saved (400 saying why), with
    // the engine on or off (it would be refused once it is on). The solver's output checked
    // here is the one applied once the change is saved (solved once per change).
    store.addCheck((config) => {
      const reason = service.refusal(config);
      return reason === null
        ? []
        : [makeProblem('', 'engine', `would be refused by the audio engine: ${reason}`)];
    });
    service.apply(store.snapshot());
    const unsubscribe = store.subscribe((snapshot) => service.apply(snapshot));
    fastify.addHook('onClose', () => {
      unsubscribe();
      service.stop();
    });
  },
  { name: 'engine', fastify: '5.x', dependencies: ['config-store'] },
);
