// Favorites: the sinks, sources and routes a user starred in the dashboard, in the order they
// dragged them into. Kept in config.yaml so every device shows the same list. Entries are named by
// config_id, which survives renames.
import { type SchemaOptions, type Static, Type } from '@sinclair/typebox';
import { ConfigId, named } from './common.js';

export const FAVORITES_MAX = 1000;

/** The list schema; `options` adds to it (config.yaml gives it a default). */
export function favoriteList(options: SchemaOptions = {}) {
  return Type.Array(ConfigId, {
    uniqueItems: true,
    maxItems: FAVORITES_MAX,
    description:
      'config_ids of the starred sinks, sources and routes, in display order (the dashboard ' +
      'pins them at the top of their panel). Deleting an entry removes it from this list.',
    examples: [['0b6e5f0c-3f5c-4a8e-9a63-2f1f8c2f7d11']],
    ...options,
  });
}

export const FavoriteList = favoriteList();

/** The body of PUT /api/favorites and the answer of GET and PUT. */
export const Favorites = Type.Object(
  { favorites: FavoriteList },
  named('Favorites', {
    description: 'The favorites list: starred sinks, sources and routes by config_id, in order.',
    examples: [{ favorites: ['0b6e5f0c-3f5c-4a8e-9a63-2f1f8c2f7d11'] }],
  }),
);
export type Favorites = Static<typeof Favorites>;
