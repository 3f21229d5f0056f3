// The routes sinks, sources and routes share: those of every named collection (list, get, add,
// partial update with rename cascade, delete), then enable/disable, the per-field setters and the
// equalizer. Each kind's folder registers this plugin with its own schemas (and adds what only
// it has).
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { type TObject, Type } from '@sinclair/typebox';
import {
  addEntity,
  deleteEntity,
  type EntityOf,
  entriesOf,
  find,
  type Kind,
  lookup,
  type SchemasOf,
  updateEntity,
} from '../config/model.js';
import { Delay, Equalizer, EqualizerBands, Volume } from '../schema/common.js';
import { collectionRoutes } from './collection-routes.js';
import { errors, nameParams, True } from './shared.js';

export interface EntityRoutesOptions<K extends Kind> {
  readonly kind: K;
  /** OpenAPI tag, e.g. "Sinks". */
  readonly tag: string;
  /** Capitalised singular for operation ids, e.g. "Sink". */
  readonly noun: string;
  readonly entity: SchemasOf[K]['entity'];
  readonly input: SchemasOf[K]['input'];
  readonly patch: SchemasOf[K]['patch'];
  /** What a rename rewrites, for the PUT description. */
  readonly renameNote: string;
}

function unsafeGet(kind: string): string {
  return (
    `Changes the ${kind} through GET, as the specification has it, for links, bookmarks and ` +
    'simple scripts. Unsafe across sites: any web page could make a browser send it, so it ' +
    'is refused (403) when the request says it comes from another site (an Origin header ' +
    'naming another host, or Sec-Fetch-Site other than same-origin or none). Prefer PUT on ' +
    'the same URL.'
  );
}

const safePut =
  'The same change as the GET on this URL, for scripts. No body. Like every change, refused ' +
  "(403) when it comes from another site's page.";

export function entityRoutes<K extends Kind>(o: EntityRoutesOptions<K>): FastifyPluginAsyncTypebox {
  const { kind, tag, noun } = o;
  const tags = [tag];
  const params = nameParams(kind);

  return async (fastify) => {
    const store = fastify.configStore;

    collectionRoutes(fastify, {
      tag,
      noun,
      what: kind,
      byConfigId: true,
      entity: o.entity,
      input: o.input,
      list: {
        summary: `List ${kind}s`,
        description: `Every ${kind} and ${kind} group, in configuration order.`,
        read: (config) => entriesOf(config, kind),
      },
      get: {
        summary: `Get one ${kind}`,
        read: (config, name) => lookup(config, kind, name),
      },
      add: {
        summary: `Add a ${kind} or ${kind} group`,
        description:
          'Only name is required; every other field takes its default. Answers the new entry ' +
          'with its generated config_id once it is saved.',
        apply: (draft, body) => addEntity(draft, kind, body),
      },
      update: {
        summary: `Change a ${kind} (partial)`,
        description:
          'Fields left out of the body keep their value. A new name renames the entry and ' +
          `${o.renameNote} in the same save. Answers the entry as saved.`,
        patch: o.patch,
        apply: (draft, name, body) => updateEntity(draft, kind, name, body),
      },
      remove: {
        summary: `Delete a ${kind}`,
        description: `Refused (409) while a ${kind} group or a route still names it; the answer lists them.`,
        inUse: true,
        apply: (draft, name) => deleteEntity(draft, kind, name),
      },
    });

    // Each setter twice: GET, as the specification has it (route config `changes`: refused
    // from another site's page like every change, src/http/cross-site.ts), and PUT.
    const setter = <S extends TObject>(
      method: 'GET' | 'PUT',
      url: string,
      operation: string,
      summary: string,
      paramsSchema: S,
    ) => ({
      method,
      url,
      schema: {
        tags,
        operationId: `${operation}${noun}${method === 'PUT' ? 'Put' : ''}`,
        summary,
        description: method === 'GET' ? unsafeGet(kind) : safePut,
        params: paramsSchema,
        response: {
          200: True,
          ...errors(400, ...(method === 'GET' ? [403 as const] : []), 404, 503),
        },
      },
      ...(method === 'GET' ? { config: { changes: 'PUT' as const } } : {}),
    });
    /** Saves a change to the entry named `name`; answers `true`. */
    const change = async (name: string, apply: (entry: EntityOf<K>) => void) => {
      await store.change((draft) => apply(find(draft, kind, name)));
      return true as const;
    };
    const nameOnly = Type.Object({ name: params.properties.name });
    const volumeParams = Type.Object({ name: params.properties.name, volume: Volume });
    const delayParams = Type.Object({ name: params.properties.name, delay: Delay });
    for (const method of ['GET', 'PUT'] as const) {
      fastify.route({
        ...setter(method, '/:name/enable', 'enable', `Enable a ${kind}`, nameOnly),
        handler: async (request) =>
          change(request.params.name, (e) => {
            e.enabled = true;
          }),
      });
      fastify.route({
        ...setter(method, '/:name/disable', 'disable', `Disable a ${kind}`, nameOnly),
        handler: async (request) =>
          change(request.params.name, (e) => {
            e.enabled = false;
          }),
      });
      fastify.route({
        ...setter(
          method,
          '/:name/volume/:volume',
          'setVolumeOf',
          `Set the volume of a ${kind}`,
          volumeParams,
        ),
        handler: async (request) =>
          change(request.params.name, (e) => {
            e.volume = request.params.volume;
          }),
      });
      fastify.route({
        ...setter(
          method,
          '/:name/delay/:delay',
          'setDelayOf',
          `Set the delay of a ${kind}`,
          delayParams,
        ),
        handler: async (request) =>
          change(request.params.name, (e) => {
            e.delay = request.params.delay;
          }),
      });
    }

    fastify.get(
      '/:name/equalizer',
      {
        schema: {
          tags,
          operationId: `getEqualizerOf${noun}`,
          summary: `Get the equalizer of a ${kind}`,
          params,
          response: { 200: Type.Ref(Equalizer), ...errors(400, 404) },
        },
      },
      async (request) => lookup(store.config, kind, request.params.name).equalizer,
    );

    fastify.post(
      '/:name/equalizer',
      {
        schema: {
          tags,
          operationId: `setEqualizerOf${noun}`,
          summary: `Set all 18 equalizer bands of a ${kind}`,
          description:
            'The body must give every band b1..b18 (use PUT with a partial equalizer to change some).',
          params,
          body: EqualizerBands,
          response: { 200: True, ...errors(400, 404, 503) },
        },
      },
      async (request) => {
        await store.change((draft) => {
          find(draft, kind, request.params.name).equalizer = request.body;
        });
        return true as const;
      },
    );
  };
}
