// The body of every error answer (the Error schema), from the error handler, the not-found
// handler and the router's own errors alike.
import { STATUS_CODES } from 'node:http';
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { BadUrlError, BadUrlUtf8Error, type ProblemError, UrlTooLongError } from '../errors.js';
import type { ErrorResponse, Problem } from '../schema/problem.js';
import { show } from '../schema/validate.js';

/** Most problems listed in one answer (the message counts them all). */
export const MAX_DETAILS = 20;
/** Longest value echoed back whole (as JSON); longer ones come back cut, as text. */
export const MAX_ECHO = 200;

/** A problem whose value is cut to what is worth sending back. */
function capped(problem: Problem): Problem {
  if (!('value' in problem)) return problem;
  const text = JSON.stringify(problem.value) ?? '';
  if (text.length <= MAX_ECHO) return problem;
  return { ...problem, value: `${show(problem.value)} (${text.length} characters as JSON)` };
}

/** The body of every error answer: our code, the status text, the message, capped details. */
export function errorBody(error: FastifyError & ProblemError, statusCode: number): ErrorResponse {
  const out: ErrorResponse = {
    statusCode,
    code: error.code?.startsWith('TRIBUTARY_') ? error.code : 'TRIBUTARY_INVALID_REQUEST',
    error: STATUS_CODES[statusCode] ?? 'Error',
    message: error.message,
  };
  if (error.details) out.details = error.details.slice(0, MAX_DETAILS).map(capped);
  return out;
}

/** Longest path segment the router takes: a 64-character name, every character 4 UTF-8 bytes
 * percent-encoded (12 characters each). */
export const MAX_PARAM_LENGTH = 64 * 12;

/**
 * Errors the router answers before any route or hook runs (Fastify's `frameworkErrors`): bad
 * percent-encoding (400) and over-long path segments (414), in our format instead of
 * Fastify's.
 */
export function frameworkErrors(
  error: FastifyError,
  request: FastifyRequest,
  reply: FastifyReply,
): void {
  const url = show(request.url).replace(/^"|"$/g, '');
  const ours =
    error.code === 'FST_ERR_BAD_URL'
      ? /%(?![0-9A-Fa-f]{2})/.test(request.url)
        ? new BadUrlError(url)
        : new BadUrlUtf8Error(url)
      : error.code === 'FST_ERR_MAX_PARAM_LENGTH'
        ? new UrlTooLongError(MAX_PARAM_LENGTH)
        : error;
  const status = ours.statusCode ?? 400;
  reply
    .code(status)
    .type('application/json; charset=utf-8')
    .send(JSON.stringify(errorBody(ours as FastifyError & ProblemError, status)));
}
