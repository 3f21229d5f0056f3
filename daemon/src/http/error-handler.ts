import type { FastifyError, FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import {
  InternalError,
  invalidRequest,
  MethodNotAllowedError,
  type ProblemError,
  RouteNotFoundError,
} from '../errors.js';
import { toProblems } from '../schema/validate.js';
import { AllowedMethods } from './allowed-methods.js';
import { errorBody } from './error-body.js';

/** Our own 5xx errors say something useful; anything else 5xx is hidden behind TRIBUTARY_INTERNAL. */
const PUBLIC_5XX = new Set([
  'TRIBUTARY_MEDIA_COMMAND_FAILED',
  'TRIBUTARY_SAVE_FAILED',
  'TRIBUTARY_STREAM_UNAVAILABLE',
  'TRIBUTARY_PLAY_UNAVAILABLE',
  'TRIBUTARY_UPSTREAM',
  'TRIBUTARY_UPSTREAM_TIMEOUT',
]);

/**
 * One error handler for the whole API: schema failures become 400 with every problem (field,
 * rule, value; at most MAX_DETAILS of them, long values cut), our coded errors keep their
 * status, Fastify's own 4xx (bad JSON, wrong content type, body too large) keep theirs, and
 * nothing unexpected leaks beyond a 500 with a code. A URL that exists with other methods
 * answers 405 with Allow; one that does not, 404.
 */
export default fp(
  async (fastify: FastifyInstance) => {
    const allowed = new AllowedMethods();
    fastify.addHook('onRoute', (route) => allowed.add(route.method, route.url ?? route.path));

    fastify.setErrorHandler((error: FastifyError & ProblemError, request, reply) => {
      if (error.validation) {
        const where = error.validationContext ?? 'body';
        const problems = toProblems(error.validation as never).map((p) =>
          p.path === ''
            ? { ...p, path: where, message: p.message.replace(/^\(the document\)/, where) }
            : p,
        );
        return reply.code(400).send(errorBody(invalidRequest(problems) as never, 400));
      }
      const statusCode = error.statusCode ?? 500;
      if (statusCode < 500 || PUBLIC_5XX.has(error.code)) {
        return reply.code(statusCode).send(errorBody(error, statusCode));
      }
      request.log.error({ err: error }, 'request failed');
      return reply.code(500).send(errorBody(new InternalError() as never, 500));
    });

    fastify.setNotFoundHandler((request, reply) => {
      const path = request.url.split('?')[0] ?? '/';
      const methods = allowed.for(path);
      if (methods.length > 0) {
        const error = new MethodNotAllowedError(request.method, path, methods.join(', '));
        return reply
          .code(405)
          .header('allow', methods.join(', '))
          .send(errorBody(error as never, 405));
      }
      reply
        .code(404)
        .send(errorBody(new RouteNotFoundError(request.method, request.url) as never, 404));
    });
  },
  { name: 'error-handler' },
);
