import swagger from '@fastify/swagger';
import websocket from '@fastify/websocket';
import type { FastifyInstance, FastifyPluginAsync, FastifyServerOptions } from 'fastify';
import fp from 'fastify-plugin';
import auth from './http/auth.js';
import crossSite from './http/cross-site.js';
import dashboard from './http/dashboard.js';
import { frameworkErrors, MAX_PARAM_LENGTH } from './http/error-body.js';
import errorHandler from './http/error-handler.js';
import hostCheck from './http/host-check.js';
import { useBoundedJson } from './http/json-body.js';
import refusals from './http/refusals.js';
import productPlugins, { type ProductPluginOptions } from './product-plugins/index.js';
import discoveryRoutes from './routes/discovery/index.js';
import equalizerRoutes from './routes/equalizers/index.js';
import eqResponseRoutes from './routes/equalizers/response.js';
import levelRoutes from './routes/levels/index.js';
import pluginSettingsRoutes from './routes/plugins/index.js';
import routeRoutes from './routes/routes/index.js';
import sinkRoutes from './routes/sinks/index.js';
import sourceRoutes from './routes/sources/index.js';
import statsRoutes from './routes/stats/index.js';
import favoriteRoutes from './routes/system/favorites.js';
import systemRoutes from './routes/system/index.js';
import networkRoutes from './routes/system/network.js';
import vncRoutes from './routes/vnc/index.js';
import { serializerCompiler, validatorCompiler } from './schema/compilers.js';
import { openapiOptions } from './schema/openapi.js';
import { sharedSchemas } from './schema/validate.js';
import configStore from './services/config-store.js';
import discovery from './services/discovery/index.js';
import engine, { type EngineClass } from './services/engine/index.js';
import feeds from './services/feeds.js';
import type { DiscoverySettings } from './settings/discovery.js';
import type { EngineSettings } from './settings/engine.js';
import streams from './streams/index.js';
import mp3Routes from './streams/mp3-routes.js';
import whepRoutes from './streams/whep-routes.js';

export interface AppOptions {
  /** config.yaml (sinks, sources, routes). */
  readonly configPath: string;
  /** equalizers.yaml (presets). */
  readonly equalizerPath: string;
  /** CONFIGURATION_RELOAD_TIMEOUT in ms (default 3000). */
  readonly reloadTimeoutMs?: number;
  /** API_TOKEN: when set, every request must carry it. */
  readonly apiToken?: string | undefined;
  /**
   * ALLOWED_HOSTS (and the names of a certificate given with CERTIFICATE): names the Host
   * header may give besides this machine's own (src/http/server-names.ts).
   */
  readonly allowedHosts?: readonly string[];
  /** UDP port of media commands (default 9999). */
  readonly mediaCommandPort?: number;
  /** The audio engine's settings (`readEngineSettings()`); absent or null runs without audio. */
  readonly engine?: EngineSettings | null;
  /** Tests only: the engine class (one built with fault injection); never set by `serve`. */
  readonly engineBinding?: EngineClass;
  /** DISCOVERY (`readDiscoverySettings()`); absent or null: SAP and mDNS open no socket. */
  readonly discovery?: DiscoverySettings | null;
  /** Product plugins: PLUGINS_DIRECTORY and the play-URL limits (built-ins only when absent). */
  readonly plugins?: ProductPluginOptions;
  /** The built dashboard served at `/` (default: daemon/dashboard/dist). */
  readonly dashboardDirectory?: string;
}

/** Options for the Fastify instance the app is registered on (server.ts and tests). */
export const fastifyOptions = {
  // Names are up to 64 characters: at most 768 once percent-encoded as UTF-8.
  routerOptions: { ignoreTrailingSlash: true, maxParamLength: MAX_PARAM_LENGTH },
  bodyLimit: 1024 * 1024,
  frameworkErrors,
} satisfies FastifyServerOptions;

/**
 * Builds the Tributary HTTP application as a Fastify plugin. `server.ts` registers it and is
 * the only place that listens; tests register it on an un-listened instance and use `inject`.
 * Order: request validation and schemas, OpenAPI, errors, WebSockets, the guards (Host,
 * cross-site, token), services, routes.
 * Not encapsulated (fastify-plugin), so its services (`configStore`, `swagger()`) are visible on
 * the instance it is registered on.
 */
const tributary: FastifyPluginAsync<AppOptions> = async (fastify: FastifyInstance, options) => {
  // One ajv for bodies (no coercion, defaults filled in) and one for path parameters.
  fastify.setValidatorCompiler(validatorCompiler);
  fastify.setSerializerCompiler(serializerCompiler);
  useBoundedJson(fastify);
  for (const schema of sharedSchemas) fastify.addSchema(schema);
  await fastify.register(swagger, openapiOptions);
  await fastify.register(errorHandler);
  // WebSockets before the guards: its onRequest hook marks an upgrade request, and only a marked
  // one has its socket closed after a refusal (a refused upgrade's socket is no longer the HTTP
  // server's to close: it would stay open, one file descriptor per refused attempt).
  await fastify.register(websocket, {
    // On shutdown, say goodbye (1001 Going Away) and drop connections that do not answer
    // quickly, instead of waiting for the 30 s closing-handshake timeout.
    preClose(done) {
      for (const client of fastify.websocketServer.clients) {
        client.close(1001, 'Tributary is shutting down');
        setTimeout(() => client.terminate(), 500).unref();
      }
      fastify.websocketServer.close(() => done());
    },
  });

  // The guards every request meets, in this order: a Host naming this server (421), not from
  // another site's page when it changes something or opens a WebSocket (403), the token (401).
  await fastify.register(refusals);
  await fastify.register(hostCheck, { allowedHosts: options.allowedHosts ?? [] });
  await fastify.register(crossSite);
  await fastify.register(auth, { apiToken: options.apiToken });
  // Services: named fastify-plugins (src/services/), each decorating the instance with what it
  // offers; a service may depend on one before it by name (`dependencies: ['config-store']`).
  // A new service is one entry here.
  const services = [
    (f: FastifyInstance) =>
      f.register(configStore, {
        configPath: options.configPath,
        equalizerPath: options.equalizerPath,
        reloadTimeoutMs: options.reloadTimeoutMs ?? 3000,
      }),
    (f: FastifyInstance) =>
      f.register(engine, {
        settings: options.engine ?? null,
        ...(options.engineBinding ? { binding: options.engineBinding } : {}),
      }),
    (f: FastifyInstance) => f.register(discovery, { settings: options.discovery ?? null }),
    (f: FastifyInstance) => f.register(streams),
    (f: FastifyInstance) => f.register(feeds),
    (f: FastifyInstance) => f.register(productPlugins, options.plugins ?? {}),
  ];
  for (const register of services) await register(fastify);

  // Routes: one encapsulated plugin per folder of src/routes/.
  await fastify.register(statsRoutes);
  await fastify.register(mp3Routes);
  await fastify.register(whepRoutes);
  await fastify.register(systemRoutes);
  await fastify.register(discoveryRoutes);
  await fastify.register(pluginSettingsRoutes);
  await fastify.register(sinkRoutes, { prefix: '/sinks' });
  await fastify.register(sourceRoutes, {
    prefix: '/sources',
    mediaCommandPort: options.mediaCommandPort,
  });
  await fastify.register(routeRoutes, { prefix: '/routes' });
  await fastify.register(equalizerRoutes, { prefix: '/equalizers' });
  await fastify.register(favoriteRoutes);
  await fastify.register(levelRoutes);
  await fastify.register(eqResponseRoutes);
  await fastify.register(vncRoutes);
  await fastify.register(networkRoutes, { engineBind: options.engine?.bind ?? null });
  await fastify.register(dashboard, {
    ...(options.dashboardDirectory ? { directory: options.dashboardDirectory } : {}),
  });
};

export const app = fp(tributary, { name: 'tributary', fastify: '5.x' });

export default app;
