import type { TestContext } from 'node:test';
import Fastify, { type FastifyInstance } from 'fastify';
import { type AppOptions, app } from '../src/app.js';

/** Builds the app on an un-listened Fastify instance, closed when the test ends. */
export async function build(t: TestContext, options: AppOptions = {}): Promise<FastifyInstance> {
  const fastify = Fastify({ logger: false });
  await fastify.register(app, options);
  await fastify.ready();
  t.after(() => fastify.close());
  return fastify;
}
