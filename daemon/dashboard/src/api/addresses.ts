// How the dashboard puts an entry in a URL: by its name, or by its config_id when the name is
// one the API refuses in a URL (a config.yaml written by hand or before the rule of names: a
// lone surrogate has no UTF-8 form, "." and ".." are dropped by every URL parser). The API takes
// either in `{name}`. Never throws: the card of such an entry stays usable.
import type { Config } from './schema';
import { isName } from './schema';

export type Collection = 'sinks' | 'sources' | 'routes' | 'equalizers';

let config: Pick<Config, 'sinks' | 'sources' | 'routes'> | null = null;

/** The live store gives every configuration it receives (the names and ids to go by). */
export function rememberEntries(latest: Pick<Config, 'sinks' | 'sources' | 'routes'>): void {
  config = latest;
}

/** Lone surrogates made U+FFFD, so encodeURIComponent cannot throw. */
function wellFormed(text: string): string {
  return Array.from(text, (c) => (/^[\ud800-\udfff]$/.test(c) ? '\ufffd' : c)).join('');
}

/** The `{name}` path segment for the entry of `collection` named `name`, percent-encoded. */
export function segment(collection: Collection, name: string): string {
  if (isName(name)) return encodeURIComponent(name);
  const entry =
    collection === 'equalizers' ? undefined : config?.[collection].find((e) => e.name === name);
  // Presets have no config_id: such a preset is renamed in equalizers.yaml (the API says so).
  return encodeURIComponent(entry ? entry.config_id : wellFormed(name));
}
