// The routes every named collection has (sinks, sources, routes, equalizer presets): list, get
// one by name, add, change (where the kind allows it) and delete. A route folder gives its
// schemas, its words and the model functions that do the work; the answers are the same for all:
// the entries, 201 with the entry as saved, the entry as saved, `true`.
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { type Static, type TSchema, Type } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import type { Config } from '../config/model.js';
import { errors, nameParams, True } from './shared.js';

/** The words of one operation in the OpenAPI document. */
interface Docs {
  readonly summary: string;
  readonly description?: string;
}

/** A collection, typed by its schemas: the stored entry, the body that adds one, the patch. */
export interface Collection<Entity extends TSchema, Input extends TSchema, Patch extends TSchema> {
  /** OpenAPI tag, e.g. "Sinks". */
  readonly tag: string;
  /** Capitalised singular for the operation ids: list<noun>s, get<noun>, add<noun>, ... */
  readonly noun: string;
  /** What one entry is called, for the name parameter: "sink", "equalizer preset". */
  readonly what: string;
  /** Entries have a config_id, which the `{name}` of a URL may give instead of the name. */
  readonly byConfigId: boolean;
  /** The stored form (with `$id`), answered by every route but delete. */
  readonly entity: Entity;
  /** The body that adds one (with `$id`). */
  readonly input: Input;
  readonly list: Docs & { read(config: Readonly<Config>): readonly Static<Entity>[] };
  readonly get: Docs & { read(config: Readonly<Config>, name: string): Static<Entity> };
  readonly add: Docs & { apply(draft: Config, body: Static<Input>): Static<Entity> };
  /** PUT /:name, a partial update, when the kind has one. */
  readonly update?: Docs & {
    /** The partial body (with `$id`). */
    readonly patch: Patch;
    apply(draft: Config, name: string, body: Static<Patch>): Static<Entity>;
  };
  /** `inUse`: a delete can be refused (409) because something still names the entry. */
  readonly remove: Docs & { readonly inUse: boolean; apply(draft: Config, name: string): void };
}

/**
 * Registers GET /, GET /:name, POST /, PUT /:name (if any) and DELETE /:name on `fastify`; the
 * request bodies and parameters are typed by their schemas (TypeBox type provider).
 */
export function collectionRoutes<
  Entity extends TSchema,
  Input extends TSchema,
  Patch extends TSchema = TSchema,
>(fastify: FastifyInstance, c: Collection<Entity, Input, Patch>): void {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const store = fastify.configStore;
  const tags = [c.tag];
  const params = nameParams(c.what, c.byConfigId);
  const entity = Type.Ref(c.entity);

  app.get(
    '/',
    {
      schema: {
        tags,
        operationId: `list${c.noun}s`,
        ...docs(c.list),
        response: replies({ 200: Type.Array(entity), ...errors() }),
      },
    },
    async () => c.list.read(store.config),
  );

  app.get(
    '/:name',
    {
      schema: {
        tags,
        operationId: `get${c.noun}`,
        ...docs(c.get),
        params,
        response: replies({ 200: entity, ...errors(400, 404) }),
      },
    },
    async (request) => c.get.read(store.config, request.params.name),
  );

  app.post(
    '/',
    {
      schema: {
        tags,
        operationId: `add${c.noun}`,
        ...docs(c.add),
        body: Type.Ref(c.input),
        response: replies({ 201: entity, ...errors(400, 409, 503) }),
      },
    },
    async (request, reply) => {
      const created = await store.change((draft) => c.add.apply(draft, request.body));
      return reply.code(201).send(created);
    },
  );

  const update = c.update;
  if (update) {
    app.put(
      '/:name',
      {
        schema: {
          tags,
          operationId: `update${c.noun}`,
          ...docs(update),
          params: nameParams(`${c.what} to change (its current name)`, c.byConfigId),
          body: Type.Ref(update.patch),
          response: replies({ 200: entity, ...errors(400, 404, 409, 503) }),
        },
      },
      async (request) =>
        store.change((draft) => update.apply(draft, request.params.name, request.body)),
    );
  }

  app.delete(
    '/:name',
    {
      schema: {
        tags,
        operationId: `delete${c.noun}`,
        ...docs(c.remove),
        params,
        response: replies({
          200: True,
          ...errors(400, 404, ...(c.remove.inUse ? [409 as const] : []), 503),
        }),
      },
    },
    async (request) => {
      await store.change((draft) => c.remove.apply(draft, request.params.name));
      return true;
    },
  );
}

/**
 * The responses of a route generic over its schemas, as a plain map: the answer is checked
 * where it is serialised (against the same schemas), the request is what is typed here.
 */
export function replies(schemas: Record<number, TSchema>): Record<number, TSchema> {
  return schemas;
}

/** summary and, when there is one, description (no `description: undefined` in the document). */
function docs({ summary, description }: Docs): Docs {
  return description === undefined ? { summary } : { summary, description };
}
