import { type Static, Type } from '@sinclair/typebox';
import { named } from './common.js';

/** One thing wrong with a request body, a path parameter or a configuration file. */
export const Problem = Type.Object(
  {
    path: Type.String({
      description: 'Where the problem is, e.g. `volume`, `equalizer.b3` or `sinks[2].volume`.',
      examples: ['sinks[2].volume'],
    }),
    keyword: Type.String({
      description:
        'The rule broken, as a JSON Schema keyword (maximum, type, enum, required, ...) or a ' +
        'configuration rule (unique, reference, cycle, group); `name` for a name that breaks ' +
        'the rule of names (the rule says which part).',
      examples: ['maximum'],
    }),
    rule: Type.String({
      description: 'The rule in words, e.g. "must be <= 1".',
      examples: ['must be <= 1'],
    }),
    value: Type.Optional(
      Type.Unknown({ description: 'The offending value, when there is one.', examples: [1.5] }),
    ),
    message: Type.String({
      description: 'Path, rule and value in one sentence.',
      examples: ['sinks[2].volume must be <= 1 (got 1.5)'],
    }),
  },
  named('Problem'),
);
export type Problem = Static<typeof Problem>;

export const ErrorResponse = Type.Object(
  {
    statusCode: Type.Integer({ description: 'The HTTP status code.', examples: [400] }),
    code: Type.String({
      description: 'Stable machine-readable error code (TRIBUTARY_*).',
      examples: ['TRIBUTARY_INVALID_REQUEST'],
    }),
    error: Type.String({ description: 'The HTTP status text.', examples: ['Bad Request'] }),
    message: Type.String({
      description: 'What went wrong, in one sentence.',
      examples: ['volume must be <= 1 (got 1.5)'],
    }),
    details: Type.Optional(
      Type.Array(Type.Ref(Problem), { description: 'Every problem found, for invalid input.' }),
    ),
  },
  named('Error', { description: 'The body of every error response.' }),
);
export type ErrorResponse = Static<typeof ErrorResponse>;
