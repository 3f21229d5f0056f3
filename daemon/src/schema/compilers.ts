// Fastify's validator and serializer compilers, backed by the one ajv setup and cached for the
// whole process: every route schema is compiled once, however many apps are built (tests build
// hundreds), and the same error schema on fifty routes is compiled once.

import { isIP } from 'node:net';
import fastJsonStringify from 'fast-json-stringify';
import type { FastifySchemaCompiler, FastifySerializerCompiler } from 'fastify';
import { ajv, coercingAjv, sharedSchemas } from './validate.js';

const validators = new Map<string, ReturnType<FastifySchemaCompiler<unknown>>>();
const serializers = new Map<string, (data: unknown) => string>();
const external = Object.fromEntries(sharedSchemas.map((s) => [s.$id as string, s]));

type Validate = ((data: unknown) => boolean) & { errors?: unknown[] | null };

/** A plain decimal number, as a path segment or query value may give one. */
const DECIMAL = /^[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?$/;

/**
 * Path parameters and query values are text that ajv coerces; for numbers it takes anything
 * JavaScript's `+text` does ("Infinity", "1e309", "0x10", " ") and skips the range checks of
 * a non-finite result. Numeric fields must be plain finite decimals: anything else is refused
 * first, naming the text as given.
 */
function strictNumbers(schema: object, validate: Validate): Validate {
  const properties = (schema as { properties?: Record<string, { type?: unknown }> }).properties;
  const numeric = Object.entries(properties ?? {})
    .filter(([, s]) => s.type === 'number' || s.type === 'integer')
    .map(([key]) => key);
  if (numeric.length === 0) return validate;
  const wrapped: Validate = (data) => {
    const given = (data ?? {}) as Record<string, unknown>;
    const errors = numeric.flatMap((key) => {
      const text = given[key];
      if (typeof text !== 'string' || (DECIMAL.test(text) && Number.isFinite(Number(text)))) {
        return [];
      }
      return [
        {
          instancePath: `/${key}`,
          schemaPath: `#/properties/${key}`,
          keyword: 'finite',
          params: {},
          message: 'must be a finite decimal number',
          data: text,
        },
      ];
    });
    if (errors.length > 0) {
      wrapped.errors = errors;
      return false;
    }
    const ok = validate(data);
    wrapped.errors = validate.errors ?? null;
    return ok;
  };
  return wrapped;
}

/** Bodies: no type coercion, defaults filled in. Path parameters and queries: text coerced. */
export const validatorCompiler: FastifySchemaCompiler<unknown> = ({ schema, httpPart }) => {
  const body = httpPart === 'body';
  const key = `${body ? 'b' : 'p'}${JSON.stringify(schema)}`;
  let validate = validators.get(key);
  if (!validate) {
    validate = body
      ? (ajv.compile(schema as object) as never)
      : (strictNumbers(schema as object, coercingAjv.compile(schema as object)) as never);
    validators.set(key, validate!);
  }
  return validate!;
};

export const serializerCompiler: FastifySerializerCompiler<unknown> = ({ schema }) => {
  const key = JSON.stringify(schema);
  let serialize = serializers.get(key);
  if (!serialize) {
    serialize = fastJsonStringify(schema as never, {
      schema: external as never,
      // Its own ajv picks the branch of a union response; it needs our one custom format.
      ajv: { formats: { ip: (s: string) => isIP(s) !== 0 } },
    }) as (data: unknown) => string;
    serializers.set(key, serialize);
  }
  return serialize;
};
