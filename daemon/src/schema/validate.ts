// The one ajv setup used for configuration files and for API requests, and the translation of
// its errors into problems that name the path (`sinks[2].volume`), the rule and the value.
import type { TSchema } from '@sinclair/typebox';
import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import { isAddress } from './address.js';
import { Equalizer } from './common.js';
import {
  DiscoverySettings,
  DiscoverySettingsPatch,
  MdnsSettings,
  MdnsSettingsInput,
  MdnsSettingsPatch,
  SapSettings,
  SapSettingsInput,
  SapSettingsPatch,
} from './discovery.js';
import {
  DiscoveredDevice,
  DiscoveredDevicePage,
  DiscoveredStream,
  DiscoveredStreamPage,
  DiscoveryStatus,
  DiscoverySummary,
} from './discovery-status.js';
import { EqualizerPreset, EqualizerPresetInput } from './equalizer-preset.js';
import { Favorites } from './favorites.js';
import { Config, ConfigFile, ConfigMessage, EqualizersFile } from './files.js';
import { LevelsRefusal, LevelsSubscribe, LevelsUnsubscribe } from './levels.js';
import { NAME_PATTERN, nameFault } from './name.js';
import {
  PlayUrlSettings,
  PlayUrlSettingsInput,
  PlayUrlSettingsPatch,
  PluginSettings,
  PluginSettingsInput,
} from './plugin-settings.js';
import { PlaybackView } from './plugins.js';
import { ErrorResponse, Problem } from './problem.js';
import { Route, RouteInput, RoutePatch } from './route.js';
import { Sink, SinkInput, SinkPatch } from './sink.js';
import { Source, SourceInput, SourcePatch } from './source.js';

/** Every schema with an `$id`, registered once with ajv, Fastify and the OpenAPI document. */
export const sharedSchemas: readonly TSchema[] = [
  Equalizer,
  Sink,
  SinkInput,
  SinkPatch,
  Source,
  SourceInput,
  SourcePatch,
  Route,
  RouteInput,
  RoutePatch,
  EqualizerPreset,
  EqualizerPresetInput,
  SapSettings,
  SapSettingsInput,
  SapSettingsPatch,
  MdnsSettings,
  MdnsSettingsInput,
  MdnsSettingsPatch,
  DiscoverySettings,
  DiscoverySettingsPatch,
  PlayUrlSettings,
  PlayUrlSettingsInput,
  PlayUrlSettingsPatch,
  PluginSettings,
  PluginSettingsInput,
  DiscoveredStream,
  DiscoveredDevice,
  DiscoveryStatus,
  DiscoverySummary,
  DiscoveredStreamPage,
  DiscoveredDevicePage,
  Config,
  ConfigMessage,
  ConfigFile,
  EqualizersFile,
  Favorites,
  Problem,
  ErrorResponse,
  LevelsSubscribe,
  LevelsUnsubscribe,
  LevelsRefusal,
  PlaybackView,
];

function createAjv(coerceTypes: boolean): Ajv {
  const ajv = new Ajv({
    allErrors: true,
    useDefaults: true,
    coerceTypes,
    verbose: true,
    allowUnionTypes: true,
    strict: true,
  });
  addFormats.default(ajv, ['uuid']);
  ajv.addFormat('ip', { type: 'string', validate: isAddress });
  ajv.addKeyword({ keyword: 'x-rule', schemaType: 'string' });
  for (const schema of sharedSchemas) ajv.addSchema(schema);
  return ajv;
}

/** Validates request bodies and files: no type coercion, defaults filled in, every error. */
export const ajv = createAjv(false);
let foreign: Ajv | null = null;
/**
 * Compiles a schema that is not ours (a folder plugin's settings) with the same rules as `ajv`,
 * in an instance of its own so its `$id`s cannot collide with ours; throws when ajv refuses it.
 */
export function compileForeign(schema: object): ValidateFunction {
  foreign ??= createAjv(false);
  return foreign.compile(schema);
}
/** Validates path parameters and query strings, which arrive as text. */
export const coercingAjv = createAjv(true);

const formatRules: Record<string, string> = {
  uuid: 'must be a UUID',
  ip: 'must be an IP address, like 192.168.1.20 or fd00::20 (with no interface suffix such as %eth0)',
};

/** `/sinks/2/volume` -> `sinks[2].volume`. */
export function toPath(pointer: string, extra?: string): string {
  const parts = pointer
    .split('/')
    .slice(1)
    .map((p) => p.replaceAll('~1', '/').replaceAll('~0', '~'));
  if (extra !== undefined) parts.push(extra);
  let out = '';
  for (const part of parts) {
    if (/^\d+$/.test(part)) out += `[${part}]`;
    else out += out === '' ? part : `.${part}`;
  }
  return out;
}

/** A broken name rule (name.ts): reported with the keyword `name` and the precise fault. */
function isNameRule(e: ErrorObject): boolean {
  return e.keyword === 'pattern' && (e.params as { pattern?: string }).pattern === NAME_PATTERN;
}

function ruleOf(e: ErrorObject): string {
  const p = e.params as Record<string, unknown>;
  switch (e.keyword) {
    case 'maximum':
      return `must be <= ${p.limit}`;
    case 'minimum':
      return `must be >= ${p.limit}`;
    case 'exclusiveMaximum':
      return `must be < ${p.limit}`;
    case 'exclusiveMinimum':
      return `must be > ${p.limit}`;
    case 'type':
      // ajv's number type refuses Infinity and NaN too (YAML's .inf, JSON's 1e309): say so
      // instead of "must be number", which reads wrong next to a number.
      if (typeof e.data === 'number' && !Number.isFinite(e.data)) return 'must be a finite number';
      return `must be ${String(p.type).split(',').join(' or ')}`;
    case 'finite':
      return 'must be a finite decimal number';
    case 'enum':
      return `must be one of ${(p.allowedValues as unknown[]).map((v) => JSON.stringify(v)).join(', ')}`;
    case 'const':
      return `must be ${JSON.stringify(p.allowedValue)}`;
    case 'required':
      return 'is required';
    case 'additionalProperties':
      return 'is not a known field';
    case 'format':
      return formatRules[String(p.format)] ?? `must be a valid ${p.format}`;
    case 'minLength':
      return `must be at least ${p.limit} character${p.limit === 1 ? '' : 's'} long`;
    case 'maxLength':
      return `must be at most ${p.limit} characters long`;
    case 'pattern': {
      if (isNameRule(e) && typeof e.data === 'string') {
        const fault = nameFault(e.data);
        if (fault) return fault;
      }
      const described = (e.parentSchema as Record<string, unknown> | undefined)?.['x-rule'];
      return typeof described === 'string' ? `must be ${described}` : `must match ${p.pattern}`;
    }
    case 'uniqueItems':
      return `must not repeat an item (items ${p.j} and ${p.i} are equal)`;
    default:
      return e.message ?? `must satisfy ${e.keyword}`;
  }
}

/** A number JSON cannot carry (Infinity, -Infinity, NaN) as text; anything else as it is. */
function jsonSafe(value: unknown): unknown {
  return typeof value === 'number' && !Number.isFinite(value) ? String(value) : value;
}

/** Renders a value for a message: short JSON, long values cut. */
export function show(value: unknown): string {
  const safe = jsonSafe(value);
  const text =
    value === undefined ? 'nothing' : safe === value ? JSON.stringify(value) : String(safe);
  return text.length > 60 ? `${text.slice(0, 57)}...` : text;
}

export function makeProblem(path: string, keyword: string, rule: string, value?: unknown): Problem {
  const where = path === '' ? '(the document)' : path;
  const problem: Problem = {
    path,
    keyword,
    rule,
    message: value === undefined ? `${where} ${rule}` : `${where} ${rule} (got ${show(value)})`,
  };
  if (value !== undefined) problem.value = jsonSafe(value);
  return problem;
}

/** Turns ajv errors into problems, dropping the noise of `anyOf: [thing, null]` branches. */
export function toProblems(errors: readonly ErrorObject[], prefix = ''): Problem[] {
  const anyOfPaths = new Set(
    errors.filter((e) => e.keyword === 'anyOf').map((e) => e.instancePath),
  );
  // A value of one branch's type that breaks that branch's rule (a string not matching the
  // pattern of `string | string[]`) is reported by that rule alone, not also as "must be array".
  const ruleBroken = (path: string) =>
    errors.some(
      (r) =>
        r.keyword !== 'type' &&
        r.keyword !== 'anyOf' &&
        (r.instancePath === path || r.instancePath.startsWith(`${path}/`)),
    );
  const kept = errors.filter((e) => {
    if (!anyOfPaths.has(e.instancePath)) return true;
    if (e.keyword === 'anyOf') return false;
    if (e.keyword !== 'type') return true;
    return (e.params as { type?: string }).type !== 'null' && !ruleBroken(e.instancePath);
  });
  const seen = new Set<string>();
  const problems: Problem[] = [];
  for (const e of kept.length > 0 ? kept : errors) {
    const p = e.params as Record<string, unknown>;
    const extra =
      e.keyword === 'required'
        ? String(p.missingProperty)
        : e.keyword === 'additionalProperties'
          ? String(p.additionalProperty)
          : undefined;
    const rel = toPath(e.instancePath, extra);
    const path = prefix && rel ? `${prefix}.${rel}` : prefix || rel;
    const value =
      e.keyword === 'required'
        ? undefined
        : e.keyword === 'additionalProperties'
          ? (e.data as Record<string, unknown>)[String(p.additionalProperty)]
          : e.data;
    const problem = makeProblem(path, isNameRule(e) ? 'name' : e.keyword, ruleOf(e), value);
    if (seen.has(problem.message)) continue;
    seen.add(problem.message);
    problems.push(problem);
  }
  return problems;
}

const compiled = new WeakMap<TSchema, ValidateFunction>();

/**
 * Validates `data` against `schema` in place (defaults are filled in) and returns every problem,
 * or an empty list when it is valid.
 */
export function check(schema: TSchema, data: unknown, prefix = ''): Problem[] {
  let validate = compiled.get(schema);
  if (!validate) {
    validate = schema.$id ? ajv.getSchema(schema.$id)! : ajv.compile(schema);
    compiled.set(schema, validate);
  }
  return validate(data) ? [] : toProblems(validate.errors ?? [], prefix);
}
