// The favorites list of config.yaml: config_ids of starred sinks, sources and routes. Pure
// functions the model, the file parser and the store use: which ids name nothing, the list without
// them, and the three-way merge of a hand edit.
import { isDeepStrictEqual } from 'node:util';
import type { Config } from '../schema/files.js';
import type { Problem } from '../schema/problem.js';
import { makeProblem } from '../schema/validate.js';

type Entries = Pick<Config, 'sinks' | 'sources' | 'routes'>;

function ids(config: Entries): Set<string> {
  return new Set(
    [...config.sinks, ...config.sources, ...config.routes].map((entry) => entry.config_id),
  );
}

/** A problem for every favorite that is not the config_id of a sink, source or route. */
export function favoriteProblems(config: Entries & Pick<Config, 'favorites'>): Problem[] {
  const known = ids(config);
  const problems: Problem[] = [];
  config.favorites.forEach((id, i) => {
    if (!known.has(id)) {
      problems.push(
        makeProblem(
          `favorites[${i}]`,
          'reference',
          'must be the config_id of an existing sink, source or route',
          id,
        ),
      );
    }
  });
  return problems;
}

/**
 * The favorites that still name an entry. A hand edit that removes an entry takes its star with
 * it, as a delete through the API does, instead of making the file invalid.
 */
export function existingFavorites(favorites: readonly string[], config: Entries): string[] {
  const known = ids(config);
  return favorites.filter((id) => known.has(id));
}

/**
 * Three-way merge of the list (it is one value: the order matters): the side that changed it
 * wins; when both did, the daemon's, as for every other field.
 */
export function mergeFavorites(
  base: readonly string[],
  ours: readonly string[],
  theirs: readonly string[],
): string[] {
  if (isDeepStrictEqual(base, ours)) return [...theirs];
  return [...ours];
}
