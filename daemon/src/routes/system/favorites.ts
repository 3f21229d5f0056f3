import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { FastifyPluginAsync } from 'fastify';
import { Favorites } from '../../schema/favorites.js';
import { errors } from '../shared.js';

const tags = ['System'];

/** /api/favorites: the starred sinks, sources and routes, shared by every dashboard. */
const favorites: FastifyPluginAsync = async (plain) => {
  // The body typed from its schema (no declared type to drift).
  const fastify = plain.withTypeProvider<TypeBoxTypeProvider>();
  const store = fastify.configStore;

  fastify.get(
    '/api/favorites',
    {
      schema: {
        tags,
        operationId: 'getFavorites',
        summary: 'The favorites list',
        description:
          'config_ids of the starred sinks, sources and routes, in the order the dashboard shows ' +
          'them. Also part of GET /api/config and /ws/config.',
        response: { 200: Type.Ref(Favorites), ...errors() },
      },
    },
    async () => ({ favorites: [...store.config.favorites] }),
  );

  fastify.put(
    '/api/favorites',
    {
      schema: {
        tags,
        operationId: 'setFavorites',
        summary: 'Replace the favorites list',
        description:
          'Stars, unstars and reorders in one call: the body is the whole new list. Every id must ' +
          'be the config_id of an existing sink, source or route, each at most once. Saved in ' +
          'config.yaml; answers the list as saved.',
        body: Type.Ref(Favorites),
        response: { 200: Type.Ref(Favorites), ...errors(400, 503) },
      },
    },
    async (request) => {
      const saved = await store.change((draft) => {
        draft.favorites = [...request.body.favorites];
        return draft.favorites;
      });
      return { favorites: saved };
    },
  );
};

export default favorites;
