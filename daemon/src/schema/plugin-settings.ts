// The product plugins' settings in config.yaml: the section `plugins`: `plugins.playurl` (the
// limits of the play-URL plugins, read at each play request) and a section per folder plugin
// (`plugins.NAME`, checked by the host against the plugin's own schema, src/product-plugins/).
// Two forms like the discovery sections: as stored (every field) and as written in the file
// (every field optional, defaults filled in). Every field has an upper bound: a configuration can loosen a limit, never lift it.
import { type Static, Type } from '@sinclair/typebox';
import { named, optionalWithDefaults, withDefaults } from './common.js';

const int = (minimum: number, maximum: number, description: string) =>
  Type.Integer({ minimum, maximum, description });

const playUrlFields = {
  max_playing: int(
    1,
    32,
    'Playbacks at once (of playurl and playurlmultiple together); one more is refused with ' +
      '503. Each holds a connection, a decoder thread and a ring.',
  ),
  max_urls: int(1, 32, 'URLs one POST /plugins/playurlmultiple/play may list (400 above).'),
  max_bytes: int(
    1024,
    4 * 1024 ** 3,
    'Largest file played, in bytes, by its declared length (an HTTP Content-Length or the ' +
      'size of a local file); a larger one is refused with 413. A stream without a length is ' +
      'bounded by max_seconds.',
  ),
  max_seconds: int(
    0,
    86_400,
    'Longest a playback plays, in seconds (a stream is stopped there); 0: until its end or ' +
      'a DELETE (an internet radio stream plays until stopped).',
  ),
  connect_timeout_ms: int(
    100,
    60_000,
    "Longest wait for a server's response headers, in ms (504 after).",
  ),
  read_timeout_ms: int(
    100,
    120_000,
    'Longest wait for the next bytes of a body, or for the first audio of a URL, in ms (the ' +
      'URL ends there, reported).',
  ),
  max_redirects: int(0, 10, 'Redirects followed for one URL (502 after).'),
};

/** The play-URL limits as shipped (what a configuration without `plugins` gets). */
export const PLAYURL_SETTINGS_DEFAULTS = {
  max_playing: 8,
  max_urls: 32,
  max_bytes: 512 * 1024 * 1024,
  max_seconds: 0,
  connect_timeout_ms: 10_000,
  read_timeout_ms: 15_000,
  max_redirects: 5,
};

export const PLUGIN_SETTINGS_DEFAULTS = { playurl: PLAYURL_SETTINGS_DEFAULTS };

const PLAYURL =
  'The limits of the play-URL plugins (playurl, playurlmultiple), read at each play request: ' +
  'a change applies to the next one, a playback already started keeps the limits it began with.';
const PLUGINS =
  "The plugins' settings: the built-in playurl's limits, and each folder plugin's own section.";

export const PlayUrlSettings = Type.Object(
  withDefaults(playUrlFields, PLAYURL_SETTINGS_DEFAULTS),
  named('PlayUrlSettings', { description: PLAYURL, default: PLAYURL_SETTINGS_DEFAULTS }),
);
export type PlayUrlSettings = Static<typeof PlayUrlSettings>;

export const PlayUrlSettingsInput = Type.Object(
  optionalWithDefaults(playUrlFields, PLAYURL_SETTINGS_DEFAULTS),
  named('PlayUrlSettingsInput', {
    description: `${PLAYURL} Fields left out take their defaults.`,
    default: PLAYURL_SETTINGS_DEFAULTS,
  }),
);

/** PUT /api/plugins/playurl/settings: any of the fields, each within its range. */
export const PlayUrlSettingsPatch = Type.Partial(
  Type.Object(playUrlFields),
  named('PlayUrlSettingsPatch', {
    description: `${PLAYURL} Fields left out keep their value.`,
    examples: [{ max_playing: 4, max_seconds: 600 }],
  }),
);
export type PlayUrlSettingsPatch = Static<typeof PlayUrlSettingsPatch>;

/**
 * The section of a folder plugin, `plugins.NAME`: a mapping the plugin reads (and validates
 * against the schema it declares, if any). Sections of plugins not installed are kept as they are.
 */
const FolderPluginSection = Type.Object(
  {},
  {
    additionalProperties: true,
    description:
      "A folder plugin's own settings (plugins.NAME, NAME its name), handed to it at start and " +
      'after each change; checked against the schema the plugin declares. Kept when no such ' +
      'plugin is installed.',
  },
);

export const PluginSettings = Type.Object(
  { playurl: Type.Ref(PlayUrlSettings) },
  // No default here: a schema with a $ref inside is compiled on its own, and ajv refuses a
  // default at a root (config.yaml's `plugins` gets its default where ConfigFile refers to it).
  named('PluginSettings', { description: PLUGINS, additionalProperties: FolderPluginSection }),
);
export type PluginSettings = Static<typeof PluginSettings>;

export const PluginSettingsInput = Type.Object(
  {
    playurl: Type.Optional(Type.Ref(PlayUrlSettingsInput, { default: PLAYURL_SETTINGS_DEFAULTS })),
  },
  named('PluginSettingsInput', {
    description: `${PLUGINS} Fields left out take their defaults.`,
    additionalProperties: FolderPluginSection,
  }),
);
