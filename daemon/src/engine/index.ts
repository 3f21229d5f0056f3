// The audio engine in the daemon: the service plugin (`engine`) and its routes, registered
// together by app.ts.
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import enginePlugin, { type EnginePluginOptions } from './plugin.js';
import statsRoutes from './routes.js';

export type { EngineClass } from './service.js';
export type { EngineSettings } from './settings.js';
export { readEngineSettings } from './settings.js';

/** Registers the engine service and GET /api/stats + /ws/stats. */
export default fp(
  async (fastify: FastifyInstance, options: EnginePluginOptions) => {
    await fastify.register(enginePlugin, options);
    await fastify.register(statsRoutes);
  },
  { name: 'engine-and-stats', fastify: '5.x', dependencies: ['config-store'] },
);
