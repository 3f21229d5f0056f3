// The discovery settings in config.yaml: `sap` (RFC 2974 announcements of RTP streams) and
// `mdns` (RFC 6762/6763: the server, its sinks and sources advertised; devices browsed). Each in
// three forms like the entities: as stored (every field), as written in the file (every field
// optional, defaults filled in) and as a partial update (nothing filled in).
import { type Static, type TProperties, Type } from '@sinclair/typebox';
import { Nullable, named, nameRules, optionalWithDefaults, withDefaults } from './common.js';

/** Where SAP is heard and sent: global scope, PulseAudio/PipeWire, AES67 (local scope). */
export const SAP_GROUPS = ['224.2.127.254', '224.0.0.56', '239.255.255.255'] as const;
export const SAP_PORT = 9875;

const MulticastGroup = Type.String({
  format: 'ip',
  pattern: '^(22[4-9]|23[0-9])\\.\\d{1,3}\\.\\d{1,3}\\.\\d{1,3}$',
  'x-rule': 'an IPv4 multicast address (224.0.0.0 to 239.255.255.255)',
  examples: ['224.2.127.254'],
});

const Groups = (description: string) =>
  Type.Array(MulticastGroup, { uniqueItems: true, maxItems: 16, description });

const seconds = (minimum: number, maximum: number, description: string) =>
  Type.Integer({ minimum, maximum, description });

const GroupName = (description: string) =>
  Nullable(Type.String({ ...nameRules }), { description, examples: [null] });

const listenerFields = {
  multicast_groups: Groups('Multicast groups joined to hear announcements.'),
  port: Type.Integer({ minimum: 1, maximum: 65535, description: 'UDP port of SAP.' }),
  auto_add_sources: Type.Boolean({
    description:
      'Add every announced stream Tributary can play as an RTP source (marked auto_added), ' +
      'update it when its announcement changes, and remove it when the stream is deleted or ' +
      'silent for cleanup_timeout. Sources made by hand are never removed.',
  }),
  cleanup_timeout: seconds(
    1,
    3600,
    'Seconds without an announcement after which a stream is forgotten (and its auto-added ' +
      'source removed).',
  ),
  add_to_group: GroupName(
    'A source group that auto-added sources join (and leave when removed), so a route from ' +
      'that group plays every discovered stream at once. Null: they join no group.',
  ),
  max_streams: Type.Integer({
    minimum: 1,
    maximum: 4096,
    description:
      'The most streams kept at once. Announcements of further streams are dropped (counted ' +
      'as over_capacity) until one is deleted or forgotten; streams already kept are never ' +
      'pushed out.',
  }),
};
const LISTENER_DEFAULTS = {
  multicast_groups: [...SAP_GROUPS],
  port: SAP_PORT,
  auto_add_sources: false,
  cleanup_timeout: 30,
  add_to_group: null,
  max_streams: 256,
};

const announcerFields = {
  enabled: Type.Boolean({
    description: 'Announce every enabled RTP sink (one announcement per sink and interval).',
  }),
  interval: seconds(1, 300, 'Seconds between announcements of each stream.'),
  ttl: Type.Integer({ minimum: 1, maximum: 255, description: 'Multicast TTL of announcements.' }),
  multicast_groups: Groups('Groups the announcements are sent to (on the listener port).'),
};
const ANNOUNCER_DEFAULTS = {
  enabled: true,
  interval: 5,
  ttl: 64,
  multicast_groups: [...SAP_GROUPS],
};

const mdnsFields = {
  enabled: Type.Boolean({ description: 'mDNS on or off (advertising and browsing).' }),
  hostname: Type.String({
    minLength: 1,
    maxLength: 63,
    pattern: '^[a-z0-9]([a-z0-9-]*[a-z0-9])?$',
    'x-rule': 'a host name label: lower-case letters, digits and inner hyphens',
    description:
      'The server answers as HOSTNAME.local (probed first: if another host has it, ' +
      'HOSTNAME-2.local and so on).',
    examples: ['tributary'],
  }),
  advertise: Type.Boolean({
    description:
      'Advertise the server (_tributary._tcp and _https._tcp) and every real sink and source ' +
      '(_tributary._tcp subtypes _sink and _source) with their TXT fields.',
  }),
  browse: Type.Boolean({
    description: 'Look for devices (_tributary-sink._udp, _tributary-source._udp).',
  }),
  auto_add_devices: Type.Boolean({
    description:
      'Add every device found as a sink (receivers) or source (senders) with the device ' +
      'config_id, and remove it when the device stops answering. Entries made by hand are ' +
      'never removed.',
  }),
  add_sinks_to_group: GroupName('A sink group that auto-added sinks join (null: none).'),
  add_sources_to_group: GroupName('A source group that auto-added sources join (null: none).'),
  browse_interval: seconds(1, 300, 'Seconds between discovery queries.'),
  cleanup_timeout: seconds(
    1,
    3600,
    'Seconds after a device last answered before it is forgotten and its auto-added sink or ' +
      'source removed. A device that says goodbye (TTL 0) is forgotten one second later.',
  ),
  settings_sync: Type.Boolean({
    description:
      'Keep volume, name and sample rate of devices and their sinks or sources in step, in ' +
      'both directions.',
  }),
  sync_interval: seconds(1, 3600, 'Seconds between settings comparisons.'),
};
const MDNS_DEFAULTS = {
  enabled: true,
  hostname: 'tributary',
  advertise: true,
  browse: true,
  auto_add_devices: false,
  add_sinks_to_group: null,
  add_sources_to_group: null,
  browse_interval: 5,
  cleanup_timeout: 30,
  settings_sync: true,
  sync_interval: 10,
};

type Options = { $id?: string; title?: string; default?: unknown };

function stored<T extends TProperties>(
  fields: T,
  defaults: object,
  description: string,
  id?: string,
) {
  return Type.Object(withDefaults(fields, defaults), {
    ...(id ? named(id) : { additionalProperties: false }),
    description,
    default: defaults,
  } as Options);
}
function input<T extends TProperties>(
  fields: T,
  defaults: object,
  description: string,
  id?: string,
) {
  return Type.Object(optionalWithDefaults(fields, defaults), {
    ...(id ? named(id) : { additionalProperties: false }),
    description: `${description} Fields left out take their defaults.`,
    default: defaults,
  } as Options);
}
function patch<T extends TProperties>(fields: T, description: string, id?: string) {
  return Type.Partial(Type.Object(fields), {
    ...(id ? named(id) : { additionalProperties: false }),
    description: `${description} Fields left out keep their value.`,
  });
}

const SAP = 'SAP (RFC 2974): hearing and sending announcements of RTP streams.';
const LISTENER = 'The SAP listener: announced streams, listed and optionally added as sources.';
const ANNOUNCER = "The SAP announcer: Tributary's RTP sinks announced as streams.";
const MDNS = 'mDNS / DNS-SD: the server and its entries advertised, devices found and synced.';

export const SAP_DEFAULTS = {
  enabled: true,
  listener: LISTENER_DEFAULTS,
  announcer: ANNOUNCER_DEFAULTS,
};
export { MDNS_DEFAULTS };

const sapEnabled = (options: object = {}) =>
  Type.Boolean({ description: 'SAP on or off (listener and announcer).', ...options });

export const SapSettings = Type.Object(
  {
    enabled: sapEnabled({ default: true }),
    listener: stored(listenerFields, LISTENER_DEFAULTS, LISTENER),
    announcer: stored(announcerFields, ANNOUNCER_DEFAULTS, ANNOUNCER),
  },
  named('SapSettings', { description: SAP, default: SAP_DEFAULTS }),
);
export type SapSettings = Static<typeof SapSettings>;

export const SapSettingsInput = Type.Object(
  {
    enabled: Type.Optional(sapEnabled({ default: true })),
    listener: Type.Optional(input(listenerFields, LISTENER_DEFAULTS, LISTENER)),
    announcer: Type.Optional(input(announcerFields, ANNOUNCER_DEFAULTS, ANNOUNCER)),
  },
  named('SapSettingsInput', {
    description: `${SAP} Fields left out take their defaults.`,
    default: SAP_DEFAULTS,
  }),
);

export const SapSettingsPatch = Type.Object(
  {
    enabled: Type.Optional(sapEnabled()),
    listener: Type.Optional(patch(listenerFields, LISTENER)),
    announcer: Type.Optional(patch(announcerFields, ANNOUNCER)),
  },
  named('SapSettingsPatch', { description: `${SAP} Fields left out keep their value.` }),
);
export type SapSettingsPatch = Static<typeof SapSettingsPatch>;

export const MdnsSettings = stored(mdnsFields, MDNS_DEFAULTS, MDNS, 'MdnsSettings');
export type MdnsSettings = Static<typeof MdnsSettings>;
export const MdnsSettingsInput = input(mdnsFields, MDNS_DEFAULTS, MDNS, 'MdnsSettingsInput');
export const MdnsSettingsPatch = patch(mdnsFields, MDNS, 'MdnsSettingsPatch');
export type MdnsSettingsPatch = Static<typeof MdnsSettingsPatch>;

/** PUT /api/discovery/settings: either section, each partial. */
export const DiscoverySettingsPatch = Type.Object(
  {
    sap: Type.Optional(Type.Ref(SapSettingsPatch)),
    mdns: Type.Optional(Type.Ref(MdnsSettingsPatch)),
  },
  named('DiscoverySettingsPatch', {
    description: 'Changes to the discovery settings; fields left out keep their value.',
    examples: [{ sap: { listener: { auto_add_sources: true } } }],
  }),
);
export type DiscoverySettingsPatch = Static<typeof DiscoverySettingsPatch>;

export const DiscoverySettings = Type.Object(
  { sap: Type.Ref(SapSettings), mdns: Type.Ref(MdnsSettings) },
  named('DiscoverySettings', { description: 'The sap and mdns sections of config.yaml.' }),
);
export type DiscoverySettings = Static<typeof DiscoverySettings>;

/** Which discovery added an entry by itself, and what identifies the stream or device. */
export const AutoAdded = Nullable(
  Type.Object(
    {
      via: Type.Unsafe<'sap' | 'mdns'>({ type: 'string', enum: ['sap', 'mdns'] }),
      key: Type.String({
        minLength: 1,
        maxLength: 512,
        description:
          'SAP: the announcement origin (user, session id, address); mDNS: the device config_id.',
      }),
    },
    { additionalProperties: false },
  ),
  {
    description:
      'Set when discovery added this entry by itself: it follows the stream or device (new ' +
      'address, new format) and is removed when it disappears. Null for entries made by hand, ' +
      'which discovery never removes; set it to null to keep an auto-added entry for good.',
    examples: [null],
  },
);
export type AutoAdded = Static<typeof AutoAdded>;
