import { type Static, Type } from '@sinclair/typebox';
import { named } from './common.js';
import {
  MDNS_DEFAULTS,
  MdnsSettings,
  MdnsSettingsInput,
  SAP_DEFAULTS,
  SapSettings,
  SapSettingsInput,
} from './discovery.js';
import { EqualizerPreset, EqualizerPresetInput } from './equalizer-preset.js';
import { FavoriteList, favoriteList } from './favorites.js';
import {
  PLUGIN_SETTINGS_DEFAULTS,
  PluginSettings,
  PluginSettingsInput,
} from './plugin-settings.js';
import { Route, RouteInput } from './route.js';
import { Sink, SinkInput } from './sink.js';
import { Source, SourceInput } from './source.js';

const fileRevision = Type.Optional(
  Type.Integer({
    minimum: 0,
    description:
      'Written by the daemon, one more on every save. Leave it as it is when editing by hand: it ' +
      'tells the daemon which version the edit started from, so changes made through the API ' +
      'since then are merged with it instead of undone.',
    examples: [17],
  }),
);

/** config.yaml: sinks, sources and routes. Fields left out of an entry take their defaults. */
export const ConfigFile = Type.Object(
  {
    revision: fileRevision,
    sinks: Type.Array(Type.Ref(SinkInput), { default: [], description: 'Sinks and sink groups.' }),
    sources: Type.Array(Type.Ref(SourceInput), {
      default: [],
      description: 'Sources and source groups.',
    }),
    routes: Type.Array(Type.Ref(RouteInput), { default: [], description: 'Routes.' }),
    sap: Type.Optional(Type.Ref(SapSettingsInput, { default: SAP_DEFAULTS })),
    mdns: Type.Optional(Type.Ref(MdnsSettingsInput, { default: MDNS_DEFAULTS })),
    plugins: Type.Optional(Type.Ref(PluginSettingsInput, { default: PLUGIN_SETTINGS_DEFAULTS })),
    favorites: favoriteList({ default: [] }),
  },
  named('ConfigFile', {
    description: 'The contents of config.yaml.',
  }),
);
export type ConfigFile = Static<typeof ConfigFile>;

/** equalizers.yaml: named presets. */
export const EqualizersFile = Type.Object(
  {
    revision: fileRevision,
    equalizers: Type.Array(Type.Ref(EqualizerPresetInput), {
      default: [],
      description: 'Named equalizer presets.',
    }),
  },
  named('EqualizersFile', {
    description: 'The contents of equalizers.yaml.',
  }),
);
export type EqualizersFile = Static<typeof EqualizersFile>;

/** The whole configuration as the daemon holds it: every entry complete. */
export const Config = Type.Object(
  {
    sinks: Type.Array(Type.Ref(Sink)),
    sources: Type.Array(Type.Ref(Source)),
    routes: Type.Array(Type.Ref(Route)),
    equalizers: Type.Array(Type.Ref(EqualizerPreset)),
    sap: Type.Ref(SapSettings),
    mdns: Type.Ref(MdnsSettings),
    plugins: Type.Ref(PluginSettings),
    favorites: FavoriteList,
  },
  named('Config', {
    description:
      'The whole configuration: sinks, sources, routes, equalizer presets, the discovery ' +
      'settings (sap, mdns), the plugin settings (plugins) and the favorites.',
  }),
);
export type Config = Static<typeof Config>;

/** What /ws/config pushes on connect and after every change. */
export const ConfigMessage = Type.Object(
  {
    type: Type.Literal('config'),
    revision: Type.Integer({
      minimum: 1,
      description: 'Increases by one with every change since the daemon started.',
    }),
    config: Type.Ref(Config),
  },
  named('ConfigMessage', {
    description:
      'The full configuration and its revision, sent by /ws/config on connect and after every ' +
      'change (API call or reloaded hand edit).',
  }),
);
export type ConfigMessage = Static<typeof ConfigMessage>;
