// Reads the daemon's OpenAPI document at build time and turns it into what the API reference
// shows: operations grouped by tag, and each schema's fields with their types and rules. Pure
// functions over the document, so the reference cannot drift from the daemon's schemas.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';

export interface JsonSchema {
  $ref?: string;
  title?: string;
  description?: string;
  type?: string | string[];
  enum?: unknown[];
  const?: unknown;
  format?: string;
  items?: JsonSchema;
  properties?: Record<string, JsonSchema>;
  required?: string[];
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  allOf?: JsonSchema[];
  additionalProperties?: boolean | JsonSchema;
  default?: unknown;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  exclusiveMaximum?: number;
  minLength?: number;
  maxLength?: number;
  minItems?: number;
  maxItems?: number;
  uniqueItems?: boolean;
  pattern?: string;
  'x-rule'?: string;
}

interface OpenApiParameter {
  name: string;
  in: string;
  required?: boolean;
  description?: string;
  schema?: JsonSchema;
}

interface OpenApiMedia {
  schema?: JsonSchema;
}

interface OpenApiOperation {
  operationId?: string;
  summary?: string;
  description?: string;
  tags?: string[];
  parameters?: OpenApiParameter[];
  requestBody?: { required?: boolean; content?: Record<string, OpenApiMedia> };
  responses?: Record<string, { description?: string; content?: Record<string, OpenApiMedia> }>;
}

export interface OpenApiDocument {
  openapi: string;
  info: { title: string; version: string; description?: string };
  tags?: { name: string; description?: string }[];
  paths: Record<string, Record<string, OpenApiOperation>>;
  components?: { schemas?: Record<string, JsonSchema> };
}

export const openApiPath = path.resolve(
  process.env.SITE_OPENAPI_PATH ?? path.join(process.cwd(), '..', 'daemon', 'openapi.json'),
);

export function loadOpenApi(file: string = openApiPath): OpenApiDocument | null {
  if (!existsSync(file)) return null;
  const doc = JSON.parse(readFileSync(file, 'utf8')) as OpenApiDocument;
  if (typeof doc.openapi !== 'string' || typeof doc.paths !== 'object') {
    throw new Error(`${file} is not an OpenAPI 3 document`);
  }
  return doc;
}

const methods = ['get', 'post', 'put', 'patch', 'delete'] as const;

export interface Field {
  name: string;
  in?: string;
  type: string;
  required: boolean;
  rules: string[];
  description: string;
}

export interface Response {
  status: string;
  description: string;
  type?: string;
}

export interface Operation {
  id: string;
  method: string;
  path: string;
  summary: string;
  description: string;
  parameters: Field[];
  body?: { type: string; required: boolean };
  responses: Response[];
}

export interface OperationGroup {
  tag: string;
  description: string;
  operations: Operation[];
}

export interface SchemaDoc {
  name: string;
  description: string;
  fields: Field[];
}

/** The name a local $ref points at ("#/components/schemas/Sink" -> "Sink"). */
export function refName(ref: string): string {
  return ref.slice(ref.lastIndexOf('/') + 1);
}

/** A short type for a schema: "integer | null", "Sink[]", "16 | 24 | 32", "Equalizer". */
export function typeLabel(schema: JsonSchema | undefined): string {
  if (!schema) return 'any';
  if (schema.$ref) return refName(schema.$ref);
  if (schema.const !== undefined) return JSON.stringify(schema.const);
  if (schema.enum) return schema.enum.map((value) => JSON.stringify(value)).join(' | ');
  const variants = schema.anyOf ?? schema.oneOf;
  if (variants) return variants.map(typeLabel).join(' | ');
  if (schema.allOf?.length === 1) return typeLabel(schema.allOf[0]);
  const types = Array.isArray(schema.type) ? schema.type : schema.type ? [schema.type] : [];
  if (types.length === 0) return schema.properties ? 'object' : 'any';
  return types
    .map((type) => (type === 'array' ? `${typeLabel(schema.items)}[]` : type))
    .map((type) => (schema.format && type === 'string' ? `string (${schema.format})` : type))
    .join(' | ');
}

/** The rules a value must follow, in words: bounds, lengths, defaults. */
export function ruleLabels(schema: JsonSchema | undefined): string[] {
  if (!schema) return [];
  const rules: string[] = [];
  if (schema['x-rule']) rules.push(schema['x-rule']);
  if (schema.minimum !== undefined && schema.maximum !== undefined) {
    rules.push(`${schema.minimum} to ${schema.maximum}`);
  } else if (schema.minimum !== undefined) {
    rules.push(`at least ${schema.minimum}`);
  } else if (schema.maximum !== undefined) {
    rules.push(`at most ${schema.maximum}`);
  }
  if (schema.exclusiveMinimum !== undefined) rules.push(`above ${schema.exclusiveMinimum}`);
  if (schema.exclusiveMaximum !== undefined) rules.push(`below ${schema.exclusiveMaximum}`);
  if (!schema['x-rule']) {
    if (schema.minLength !== undefined || schema.maxLength !== undefined) {
      rules.push(`${schema.minLength ?? 0} to ${schema.maxLength ?? '∞'} characters`);
    }
    if (schema.pattern && schema.minLength === undefined) rules.push(`matches ${schema.pattern}`);
  }
  if (schema.minItems !== undefined || schema.maxItems !== undefined) {
    rules.push(`${schema.minItems ?? 0} to ${schema.maxItems ?? '∞'} items`);
  }
  if (schema.uniqueItems) rules.push('no duplicates');
  if (schema.default !== undefined) rules.push(`default ${JSON.stringify(schema.default)}`);
  return rules;
}

function field(name: string, schema: JsonSchema | undefined, required: boolean): Field {
  return {
    name,
    type: typeLabel(schema),
    required,
    rules: ruleLabels(schema),
    description: schema?.description ?? '',
  };
}

function mediaType(content: Record<string, OpenApiMedia> | undefined): string | undefined {
  const [type, media] = Object.entries(content ?? {})[0] ?? [];
  if (!type) return undefined;
  const schema = typeLabel(media?.schema);
  return type === 'application/json' ? schema : `${type}${schema === 'any' ? '' : ` (${schema})`}`;
}

function operationOf(pathName: string, method: string, op: OpenApiOperation): Operation {
  const body = op.requestBody ? mediaType(op.requestBody.content) : undefined;
  return {
    id: op.operationId ?? `${method}-${pathName}`.replace(/[^A-Za-z0-9]+/g, '-'),
    method: method.toUpperCase(),
    path: pathName,
    summary: op.summary ?? '',
    description: op.description ?? '',
    parameters: (op.parameters ?? []).map((p) => ({
      ...field(p.name, p.schema, p.required === true),
      in: p.in,
      description: p.description ?? p.schema?.description ?? '',
    })),
    ...(body ? { body: { type: body, required: op.requestBody?.required === true } } : {}),
    responses: Object.entries(op.responses ?? {}).map(([status, response]) => {
      const type = mediaType(response.content);
      return { status, description: response.description ?? '', ...(type ? { type } : {}) };
    }),
  };
}

/** Operations grouped by their first tag, in the document's tag order (untagged last). */
export function operationGroups(doc: OpenApiDocument): OperationGroup[] {
  const groups = new Map<string, OperationGroup>();
  for (const tag of doc.tags ?? []) {
    groups.set(tag.name, { tag: tag.name, description: tag.description ?? '', operations: [] });
  }
  for (const [pathName, item] of Object.entries(doc.paths)) {
    for (const method of methods) {
      const op = item[method];
      if (!op) continue;
      const tag = op.tags?.[0] ?? 'Other';
      if (!groups.has(tag)) groups.set(tag, { tag, description: '', operations: [] });
      groups.get(tag)?.operations.push(operationOf(pathName, method, op));
    }
  }
  return [...groups.values()];
}

/** Every named schema with its fields (objects) or its own type (anything else). */
export function schemaDocs(doc: OpenApiDocument): SchemaDoc[] {
  return Object.entries(doc.components?.schemas ?? {}).map(([name, schema]) => {
    const required = new Set(schema.required ?? []);
    const fields = schema.properties
      ? Object.entries(schema.properties).map(([key, value]) =>
          field(key, value, required.has(key)),
        )
      : [field('(value)', schema, true)];
    return { name, description: schema.description ?? '', fields };
  });
}
