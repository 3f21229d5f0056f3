// A plugin's own settings: its section of config.yaml, `plugins.NAME`, checked against the JSON
// Schema (a TypeBox schema is one) the plugin declares as `settings`, with the defaults it
// declares filled in. What breaks the schema is said the way config.yaml's own problems are
// (`plugins.NAME.field must be <= 10 (got 50)`); the host disables the plugin with that reason.
import type { ValidateFunction } from 'ajv';
import type { Config } from '../schema/files.js';
import { compileForeign, toProblems } from '../schema/validate.js';

/** A plugin's settings, or why they cannot be used. */
export type CheckedSettings =
  | { readonly settings: Readonly<Record<string, unknown>>; readonly error: null }
  | { readonly settings: null; readonly error: string };

const compiled = new WeakMap<object, ValidateFunction | Error>();

/** `plugins.NAME` of `config`, checked against `schema` (none: taken as it is). */
export function checkSettings(
  name: string,
  schema: object | undefined,
  config: Readonly<Config>,
): CheckedSettings {
  const sections = config.plugins as Readonly<Record<string, unknown>>;
  const section = Object.hasOwn(sections, name) ? sections[name] : undefined;
  const where = `plugins.${name}`;
  // A section left out is an empty one: the schema's defaults fill it.
  const value: unknown = section === undefined || section === null ? {} : structuredClone(section);
  if (!schema) {
    if (typeof value !== 'object' || value === null || Array.isArray(value)) {
      return { settings: null, error: `settings: ${where} must be a mapping` };
    }
    return { settings: Object.freeze(value as Record<string, unknown>), error: null };
  }
  let validate = compiled.get(schema);
  if (!validate) {
    try {
      validate = compileForeign(schema);
    } catch (err) {
      validate = err as Error;
    }
    compiled.set(schema, validate);
  }
  if (validate instanceof Error) {
    return { settings: null, error: `settings: its schema is not valid: ${validate.message}` };
  }
  if (!validate(value)) {
    const problems = toProblems(validate.errors ?? [], where).map((p) => p.message);
    return { settings: null, error: `settings: ${problems.join('; ')}` };
  }
  return { settings: Object.freeze(value as Record<string, unknown>), error: null };
}
