// The Host check: every request (WebSocket upgrades and the dashboard's files included) must
// name this server in its Host header, else it is answered 421 Misdirected Request with the
// name and the setting that would accept it. This is what stops DNS rebinding: a page whose
// name was re-pointed at this machine is same-origin with it as far as the browser knows, so
// only its Host header gives it away (see server-names.ts). A request without a Host header
// (HTTP/1.0, not a browser) has no name to check.
import { type TSchema, Type } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { unknownHost } from '../errors.js';
import { ErrorResponse } from '../schema/problem.js';
import { withoutToken } from './auth.js';
import { hostOf, ServerNames } from './server-names.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** The names and addresses this server answers to (the Host check, the HTTP redirect). */
    serverNames: ServerNames;
  }
}

export interface HostCheckOptions {
  /** ALLOWED_HOSTS, and the names of a certificate given with CERTIFICATE. */
  readonly allowedHosts?: readonly string[];
}

/** The 421 of a Host header (at most 100 characters of it), for the API and the redirect. */
export function misdirected(header: string) {
  const shown = header.slice(0, 100);
  return unknownHost(shown, hostOf(header) ?? shown);
}

/** The response schema every route gets: any request may name another host. */
const response421: TSchema = Type.Ref(ErrorResponse, {
  description:
    "Misdirected Request: the Host header names none of this server's names (its addresses, " +
    'localhost, its host name and .local name, ALLOWED_HOSTS).',
});

export default fp(
  async (fastify: FastifyInstance, options: HostCheckOptions) => {
    const names = new ServerNames({
      allowed: options.allowedHosts ?? [],
      // The configuration store is registered after this plugin; read when a name is unknown.
      mdnsLabel: () =>
        fastify.hasDecorator('configStore') ? fastify.configStore.config.mdns.hostname : null,
    });
    fastify.decorate('serverNames', names);

    fastify.addHook('onRoute', (route) => {
      const response = route.schema?.response as Record<string, TSchema> | undefined;
      if (!response || response[421]) return;
      route.schema = { ...route.schema, response: { ...response, 421: response421 } };
    });

    fastify.addHook('onRequest', async (request) => {
      const host = request.headers.host;
      if (host === undefined || names.accepts(host)) return;
      const error = misdirected(host);
      fastify.refusals.count(
        'unknown_host',
        `refused ${request.method} ${withoutToken(request.url).slice(0, 100)} from ${request.ip}: ` +
          `Host '${host.slice(0, 100)}' is not a name of this server (ALLOWED_HOSTS)`,
      );
      throw error;
    });
  },
  { name: 'host-check', dependencies: ['refusals'] },
);
