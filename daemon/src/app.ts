import type { FastifyInstance, FastifyPluginAsync } from 'fastify';
import { version } from './version.js';

export interface AppOptions {
  /** Reserved for the services the control plane registers (config store, engine, discovery). */
  readonly configPath?: string;
}

/**
 * Builds the Tributary HTTP application as a Fastify plugin. `server.ts` registers it and is
 * the only place that listens; tests register it on an un-listened instance and use `inject`.
 */
export const app: FastifyPluginAsync<AppOptions> = async (fastify: FastifyInstance) => {
  fastify.get(
    '/api/health',
    {
      schema: {
        response: {
          200: {
            type: 'object',
            required: ['status', 'version'],
            properties: { status: { type: 'string', const: 'ok' }, version: { type: 'string' } },
          },
        },
      },
    },
    async () => ({ status: 'ok' as const, version }),
  );

  fastify.setNotFoundHandler((request, reply) => {
    reply.code(404).send({
      statusCode: 404,
      code: 'TRIBUTARY_NOT_FOUND',
      error: 'Not Found',
      message: `No route ${request.method} ${request.url}`,
    });
  });
};

export default app;
