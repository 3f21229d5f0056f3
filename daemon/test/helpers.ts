import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import type { TestContext } from 'node:test';
import Fastify, { type FastifyInstance, type RouteOptions } from 'fastify';
import { type AppOptions, app, fastifyOptions } from '../src/app.js';
import type { CommandIO } from '../src/commands/types.js';
import type { EngineSettings } from '../src/settings/engine.js';

/** An audio engine on 127.0.0.1, one Scream port picked by the system, nothing else. */
export const localEngine: EngineSettings = {
  bind: '127.0.0.1',
  screamPorts: [0],
  taggedPort: null,
  rtpPorts: [],
  multicastGroups: [],
  jitterAdaptive: true,
  jitterMinMs: 20,
  jitterMaxMs: 200,
  webrtcAddresses: ['127.0.0.1'],
  webrtcPort: 0,
};

/** A fresh temporary directory, removed when the test ends. */
export function tempDir(t: TestContext, prefix = 'tributary-'): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  // Retried: a daemon a test started may still be writing its last file as the test ends.
  t.after(() => rmSync(dir, { recursive: true, force: true, maxRetries: 5, retryDelay: 50 }));
  return dir;
}

/**
 * Runs a command (`main` of the CLI, or one command's `run`) in this process, which is much
 * faster than a real process, and captures what it prints.
 */
export async function runCommand(
  command: (argv: string[], io: CommandIO) => Promise<number>,
  args: string[],
): Promise<{ status: number; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  const status = await command(args, {
    out: (text) => {
      stdout += text;
    },
    err: (text) => {
      stderr += text;
    },
  });
  return { status, stdout, stderr };
}

export interface Built extends FastifyInstance {
  readonly dir: string;
}

/**
 * Builds the app on an un-listened Fastify instance over config files in a temporary directory
 * (or `options.configPath`), closed when the test ends. With `logs`, the log's lines (JSON, info
 * and above) are pushed there.
 */
export async function build(
  t: TestContext,
  options: Partial<AppOptions> & { dir?: string; routes?: RouteOptions[]; logs?: string[] } = {},
): Promise<Built> {
  const { routes, logs, ...appOptions } = options;
  const dir = options.dir ?? tempDir(t);
  const stream = new Writable({
    write(chunk, _encoding, done) {
      logs?.push(String(chunk));
      done();
    },
  });
  const logger = logs ? { level: 'info', stream } : false;
  const fastify = Fastify({ ...fastifyOptions, logger });
  // The route table, for tests that walk every route (a route added later is covered too).
  if (routes) fastify.addHook('onRoute', (route) => void routes.push(route));
  await fastify.register(app, {
    configPath: join(dir, 'config.yaml'),
    equalizerPath: join(dir, 'equalizers.yaml'),
    reloadTimeoutMs: 60_000,
    ...appOptions,
  });
  await fastify.ready();
  t.after(() => fastify.close());
  return Object.assign(fastify, { dir }) as Built;
}
