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

/** Bodies: no type coercion, defaults filled in. Path parameters and queries: text coerced. */
export const validatorCompiler: FastifySchemaCompiler<unknown> = ({ schema, httpPart }) => {
  const body = httpPart === 'body';
  const key = `${body ? 'b' : 'p'}${JSON.stringify(schema)}`;
  let validate = validators.get(key);
  if (!validate) {
    validate = (body ? ajv : coercingAjv).compile(schema as object) as never;
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
