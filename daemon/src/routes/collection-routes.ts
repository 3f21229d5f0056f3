// The routes every named collection has (sinks, sources, routes, equalizer presets): list, get
// one by name, add, change (where the kind allows it) and delete. A route folder gives its
// schemas, its words and the model functions that do the work; the answers are the same for all:
// the entries, 201 with the entry as saved, the entry as saved, `true`.
import { type TSchema, Type } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import type { Config } from '../config/model.js';
import { errors, nameParams, True } from './shared.js';

/** The words of one operation in the OpenAPI document. */
interface Docs {
  readonly summary: string;
  readonly description?: string;
}

export interface Collection<Item, Input, Patch> {
  /** OpenAPI tag, e.g. "Sinks". */
  readonly tag: string;
  /** Capitalised singular for the operation ids: list<noun>s, get<noun>, add<noun>, ... */
  readonly noun: string;
  /** What one entry is called, for the name parameter: "sink", "equalizer preset". */
  readonly what: string;
  /** The stored form (with `$id`), answered by every route but delete. */
  readonly entity: TSchema;
  /** The body that adds one (with `$id`). */
  readonly input: TSchema;
  readonly list: Docs & { read(config: Readonly<Config>): readonly Item[] };
  readonly get: Docs & { read(config: Readonly<Config>, name: string): Item };
  readonly add: Docs & { apply(draft: Config, body: Input): Item };
  /** PUT /:name, a partial update, when the kind has one. */
  readonly update?: Docs & {
    /** The partial body (with `$id`). */
    readonly patch: TSchema;
    apply(draft: Config, name: string, body: Patch): Item;
  };
  /** `inUse`: a delete can be refused (409) because something still names the entry. */
  readonly remove: Docs & { readonly inUse: boolean; apply(draft: Config, name: string): void };
}

/** Registers GET /, GET /:name, POST /, PUT /:name (if any) and DELETE /:name on `fastify`. */
export function collectionRoutes<Item, Input, Patch = never>(
  fastify: FastifyInstance,
  c: Collection<Item, Input, Patch>,
): void {
  const store = fastify.configStore;
  const tags = [c.tag];
  const params = nameParams(c.what);
  const entity = Type.Ref(c.entity);
  type Name = { name: string };

  fastify.get(
    '/',
    {
      schema: {
        tags,
        operationId: `list${c.noun}s`,
        ...docs(c.list),
        response: { 200: Type.Array(entity), ...errors() },
      },
    },
    async () => c.list.read(store.config),
  );

  fastify.get<{ Params: Name }>(
    '/:name',
    {
      schema: {
        tags,
        operationId: `get${c.noun}`,
        ...docs(c.get),
        params,
        response: { 200: entity, ...errors(404) },
      },
    },
    async (request) => c.get.read(store.config, request.params.name),
  );

  fastify.post<{ Body: Input }>(
    '/',
    {
      schema: {
        tags,
        operationId: `add${c.noun}`,
        ...docs(c.add),
        body: Type.Ref(c.input),
        response: { 201: entity, ...errors(400, 409, 503) },
      },
    },
    async (request, reply) => {
      const created = await store.change((draft) => c.add.apply(draft, request.body as Input));
      return reply.code(201).send(created);
    },
  );

  const update = c.update;
  if (update) {
    fastify.put<{ Params: Name; Body: Patch }>(
      '/:name',
      {
        schema: {
          tags,
          operationId: `update${c.noun}`,
          ...docs(update),
          params: nameParams(`${c.what} to change (its current name)`),
          body: Type.Ref(update.patch),
          response: { 200: entity, ...errors(400, 404, 409, 503) },
        },
      },
      async (request) =>
        store.change((draft) => update.apply(draft, request.params.name, request.body as Patch)),
    );
  }

  fastify.delete<{ Params: Name }>(
    '/:name',
    {
      schema: {
        tags,
        operationId: `delete${c.noun}`,
        ...docs(c.remove),
        params,
        response: { 200: True, ...errors(404, ...(c.remove.inUse ? [409 as const] : []), 503) },
      },
    },
    async (request) => {
      await store.change((draft) => c.remove.apply(draft, request.params.name));
      return true;
    },
  );
}

/** summary and, when there is one, description (no `description: undefined` in the document). */
function docs({ summary, description }: Docs): Docs {
  return description === undefined ? { summary } : { summary, description };
}
