import Fastify, { type FastifyInstance } from 'fastify';
import { app } from './app.js';

export interface ServeOptions {
  readonly host: string;
  readonly port: number;
  readonly logLevel?: string;
}

/** Creates the Fastify instance, registers the app and listens. The only file that listens. */
export async function serve(options: ServeOptions): Promise<FastifyInstance> {
  const fastify = Fastify({ logger: { level: options.logLevel ?? 'info' } });
  await fastify.register(app);
  await fastify.listen({ host: options.host, port: options.port });
  return fastify;
}
