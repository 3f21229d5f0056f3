// The OpenAPI document as the running daemon serves it at /api/openapi.json, built without
// listening, for the committed daemon/openapi.json (the website's API reference reads it).
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Fastify from 'fastify';
import { app, fastifyOptions } from './app.js';

export async function openapiDocument(): Promise<object> {
  const dir = await mkdtemp(join(tmpdir(), 'tributary-openapi-'));
  const fastify = Fastify({ ...fastifyOptions, logger: false });
  try {
    await fastify.register(app, {
      configPath: join(dir, 'config.yaml'),
      equalizerPath: join(dir, 'equalizers.yaml'),
    });
    await fastify.ready();
    return fastify.swagger() as object;
  } finally {
    await fastify.close();
    await rm(dir, { recursive: true, force: true });
  }
}

/** The committed file's exact text: 2-space JSON and a final newline. */
export async function openapiText(): Promise<string> {
  return `${JSON.stringify(await openapiDocument(), null, 2)}\n`;
}
