// Plugins from PLUGINS_DIRECTORY: each `*.js` or `*.mjs` file there (not in sub-folders) whose
// default export is a plugin (types.ts). A file that does not import, exports no plugin, names
// itself against the rule or takes a name already taken is reported as failed, not loaded.
import { readdir } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { PLUGIN_NAME, type TributaryPlugin } from './types.js';

/** Files read from the folder at most (a folder is not a place for thousands of plugins). */
export const MAX_PLUGIN_FILES = 64;

export interface LoadedPlugin {
  /** The plugin's name, else its file's. */
  readonly name: string;
  readonly plugin: TributaryPlugin | null;
  readonly error: string | null;
}

export async function loadFolder(
  directory: string,
  taken: ReadonlySet<string>,
): Promise<LoadedPlugin[]> {
  const folder = resolve(directory);
  let files: string[];
  try {
    files = (await readdir(folder, { withFileTypes: true }))
      .filter((d) => d.isFile() && /\.m?js$/.test(d.name))
      .map((d) => d.name)
      .sort();
  } catch (err) {
    return [
      {
        name: folder,
        plugin: null,
        error: `the plugins folder cannot be read: ${(err as Error).message}`,
      },
    ];
  }
  const names = new Set(taken);
  const out: LoadedPlugin[] = [];
  for (const file of files.slice(0, MAX_PLUGIN_FILES)) {
    out.push(await loadFile(join(folder, file), file, names));
  }
  if (files.length > MAX_PLUGIN_FILES) {
    out.push({
      name: files[MAX_PLUGIN_FILES]!,
      plugin: null,
      error: `only the first ${MAX_PLUGIN_FILES} files of the plugins folder are loaded`,
    });
  }
  return out;
}

async function loadFile(path: string, file: string, names: Set<string>): Promise<LoadedPlugin> {
  let plugin: Partial<TributaryPlugin> | undefined;
  try {
    plugin = ((await import(pathToFileURL(path).href)) as { default?: Partial<TributaryPlugin> })
      .default;
  } catch (err) {
    return { name: file, plugin: null, error: `import: ${(err as Error).message}` };
  }
  if (!plugin || typeof plugin !== 'object' || typeof plugin.start !== 'function') {
    return {
      name: file,
      plugin: null,
      error: 'its default export is not a plugin (no start function)',
    };
  }
  const name = plugin.name;
  if (typeof name !== 'string' || !PLUGIN_NAME.test(name)) {
    return {
      name: file,
      plugin: null,
      error: `name '${String(name)}' breaks the rule ${PLUGIN_NAME}`,
    };
  }
  if (names.has(name)) return { name, plugin: null, error: `name '${name}' is taken` };
  names.add(name);
  return { name, plugin: plugin as TributaryPlugin, error: null };
}
