import { STATUS_CODES } from 'node:http';
import type { FastifyError, FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { InternalError, invalidRequest, type ProblemError, RouteNotFoundError } from '../errors.js';
import type { ErrorResponse } from '../schema/problem.js';
import { toProblems } from '../schema/validate.js';

/** Our own 5xx errors say something useful; anything else 5xx is hidden behind TRIBUTARY_INTERNAL. */
const PUBLIC_5XX = new Set(['TRIBUTARY_MEDIA_COMMAND_FAILED', 'TRIBUTARY_SAVE_FAILED']);

function body(error: FastifyError & ProblemError, statusCode: number): ErrorResponse {
  const out: ErrorResponse = {
    statusCode,
    code: error.code?.startsWith('TRIBUTARY_') ? error.code : 'TRIBUTARY_INVALID_REQUEST',
    error: STATUS_CODES[statusCode] ?? 'Error',
    message: error.message,
  };
  if (error.details) out.details = error.details;
  return out;
}

/**
 * One error handler for the whole API: schema failures become 400 with every problem (field,
 * rule, value), our coded errors keep their status, Fastify's own 4xx (bad JSON, wrong content
 * type, body too large) keep theirs, and nothing unexpected leaks beyond a 500 with a code.
 */
export default fp(
  async (fastify: FastifyInstance) => {
    fastify.setErrorHandler((error: FastifyError & ProblemError, request, reply) => {
      if (error.validation) {
        const where = error.validationContext ?? 'body';
        const problems = toProblems(error.validation as never).map((p) =>
          p.path === ''
            ? { ...p, path: where, message: p.message.replace(/^\(the document\)/, where) }
            : p,
        );
        return reply.code(400).send(body(invalidRequest(problems) as never, 400));
      }
      const statusCode = error.statusCode ?? 500;
      if (statusCode < 500 || PUBLIC_5XX.has(error.code)) {
        return reply.code(statusCode).send(body(error, statusCode));
      }
      request.log.error({ err: error }, 'request failed');
      return reply.code(500).send(body(new InternalError() as never, 500));
    });

    fastify.setNotFoundHandler((request, reply) => {
      reply.code(404).send(body(new RouteNotFoundError(request.method, request.url) as never, 404));
    });
  },
  { name: 'error-handler' },
);
