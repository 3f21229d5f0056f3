// The JSON body parser: Fastify's own (prototype poisoning refused), behind a bound on nesting.
// Nothing in the API nests deeper than a few levels; 5,000 nested arrays used to overflow the
// stack while the 400 was written (a 500 instead).
import type { FastifyInstance } from 'fastify';
import { invalidRequest } from '../errors.js';
import { makeProblem } from '../schema/validate.js';

/** Deepest nesting of arrays and objects a body may have. */
export const MAX_JSON_DEPTH = 32;

/**
 * The deepest nesting of arrays and objects in JSON text, found by scanning it (no recursion,
 * no parse); stops as soon as it passes `limit`.
 */
export function jsonDepth(text: string, limit = Number.POSITIVE_INFINITY): number {
  let depth = 0;
  let max = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c)
        i++; // backslash: skip the escaped character
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) {
      inString = true;
    } else if (c === 0x5b || c === 0x7b) {
      depth++;
      if (depth > max) {
        max = depth;
        if (max > limit) return max;
      }
    } else if (c === 0x5d || c === 0x7d) {
      depth--;
    }
  }
  return max;
}

/** Replaces the application/json parser with the bounded one. */
export function useBoundedJson(fastify: FastifyInstance): void {
  const parse = fastify.getDefaultJsonParser('error', 'error');
  fastify.removeContentTypeParser('application/json');
  fastify.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    const text = body as string;
    if (jsonDepth(text, MAX_JSON_DEPTH) > MAX_JSON_DEPTH) {
      const rule = `must not nest arrays and objects more than ${MAX_JSON_DEPTH} levels deep`;
      done(invalidRequest([makeProblem('body', 'depth', rule)]), undefined);
      return;
    }
    parse(request, text, (err, value) => {
      if (err && /prototype|constructor/i.test(err.message)) {
        const rule = 'must not contain "__proto__" or "constructor" keys';
        done(invalidRequest([makeProblem('body', 'prototype', rule)]), undefined);
        return;
      }
      done(err, value);
    });
  });
}
