// What discovery reports: the streams SAP heard, the devices mDNS found, and the counters of
// both (GET /api/discovery, with the lists paged); `discovery` in GET /api/stats is the same
// without the lists, so its size does not grow with what the network announces.
import { type Static, type TSchema, Type } from '@sinclair/typebox';
import { named } from './common.js';

const count = (description: string) => Type.Integer({ minimum: 0, description });
const NullableString = (description: string) =>
  Type.Union([Type.String(), Type.Null()], { description });
const Time = (description: string) => Type.String({ format: 'date-time', description });
const State = Type.Union([Type.Literal('off'), Type.Literal('running'), Type.Literal('failed')], {
  description: 'off: switched off (config or DISCOVERY=off); failed: see error.',
});

export const DiscoveredStream = Type.Object(
  {
    id: Type.String({
      description:
        'Stable identity: origin user and session id (plus origin address, destination and ' +
        'port when the session id is 0, as ffmpeg sends).',
    }),
    name: Type.String({ description: 'Session name (s=).' }),
    origin: Type.Object(
      {
        username: Type.String(),
        session_id: Type.String(),
        version: Type.String(),
        address: Type.String(),
      },
      { additionalProperties: false, description: 'The o= line.' },
    ),
    sap_source: Type.String({ description: 'Originating source in the SAP header.' }),
    sender: Type.String({ description: 'Address the announcement came from.' }),
    address: NullableString('Destination of the RTP stream (c=), often a multicast group.'),
    port: Type.Integer({ description: 'RTP port (m=audio).' }),
    encoding: Type.String({ description: 'Encoding as announced: L16, L24, S16LE, ...' }),
    format: NullableString('The RTP source format it plays as (S16BE, S16LE, L24); null: none.'),
    sample_rate: Type.Integer(),
    channels: Type.Integer(),
    payload_type: Type.Integer(),
    ptime: Type.Union([Type.Number(), Type.Null()], { description: 'ms of audio per packet.' }),
    direction: NullableString('a=recvonly / sendonly / sendrecv, when given.'),
    refclk: NullableString('a=ts-refclk (RFC 7273), when given.'),
    mediaclk: NullableString('a=mediaclk (RFC 7273), when given.'),
    playable: Type.Boolean(),
    reason: NullableString('Why Tributary cannot play it.'),
    announcements: count('Announcements heard.'),
    first_seen: Time('First announcement heard.'),
    last_seen: Time('Last announcement heard.'),
    source: NullableString('The configured source that plays this stream, if any.'),
  },
  named('DiscoveredStream', { description: 'An RTP stream announced over SAP.' }),
);
export type DiscoveredStream = Static<typeof DiscoveredStream>;

export const DiscoveredDevice = Type.Object(
  {
    id: Type.String({ description: "The device's config_id (TXT id), else its service name." }),
    kind: Type.Union([Type.Literal('sink'), Type.Literal('source')], {
      description: 'sink: a receiver (_tributary-sink._udp); source: a sender.',
    }),
    name: Type.String({ description: 'Its name (TXT name, else the service instance name).' }),
    service: Type.String({ description: 'Full service instance name.' }),
    host: Type.String({ description: 'Its host name (SRV target).' }),
    ip: NullableString('Its address (TXT ip, else the first A record).'),
    port: Type.Integer({ description: 'Service port: receive port of a receiver.' }),
    protocol: NullableString('TXT type: scream or rtp.'),
    bit_depth: Type.Union([Type.Integer(), Type.Null()]),
    sample_rate: Type.Union([Type.Integer(), Type.Null()]),
    channels: Type.Union([Type.Integer(), Type.Null()]),
    channel_layout: NullableString('TXT channel_layout.'),
    version: NullableString('Software version (senders).'),
    volume: Type.Union([Type.Number(), Type.Null()], { description: 'TXT volume, 0.0-1.0.' }),
    rev: Type.Union([Type.Integer(), Type.Null()], {
      description: 'TXT rev: counts saved setting changes on the device.',
    }),
    txt: Type.Record(Type.String(), Type.String(), { description: 'Every TXT field.' }),
    usable: Type.Boolean(),
    reason: NullableString('Why it cannot be added (no UUID id, a format Tributary cannot use).'),
    gone: Type.Boolean({
      description: 'It said goodbye (TTL 0); forgotten one second later unless it answers again.',
    }),
    first_seen: Time('First answer.'),
    last_seen: Time('Last answer.'),
    entry: NullableString('The configured sink or source with its config_id, if any.'),
  },
  named('DiscoveredDevice', { description: 'A device found over mDNS.' }),
);
export type DiscoveredDevice = Static<typeof DiscoveredDevice>;

const GroupState = Type.Object(
  { group: Type.String(), joined: Type.Boolean(), error: NullableString('Why not joined.') },
  { additionalProperties: false },
);

/** The most streams or devices GET /api/discovery lists; the rest are paged. */
export const DISCOVERY_PAGE = 100;
/** The largest page GET /api/discovery/streams and /devices give. */
export const DISCOVERY_PAGE_MAX = 500;

const sapFields = {
  state: State,
  error: NullableString('Why the listener could not start (port in use, ...).'),
  port: Type.Integer(),
  groups: Type.Array(GroupState, { description: 'Multicast groups and whether each is joined.' }),
  packets: count('Datagrams received.'),
  announcements: count('Announcements read (kept, refreshed or over capacity).'),
  deletions: count('Deletions read (accepted or refused).'),
  malformed: count('Packets dropped as malformed (header, payload or SDP).'),
  unsupported: count('Packets dropped as unsupported (encrypted, not SDP).'),
  own: count("Tributary's own announcements heard back (ignored)."),
  rate_limited: count(
    'Packets dropped unread because their sender address sent more than the per-sender rate.',
  ),
  over_capacity: count('Announcements of new streams dropped because max_streams were kept.'),
  deletions_refused: count(
    'Deletions refused: not from the address and originating source that announced the stream.',
  ),
  last_problem: NullableString('The last dropped or refused packet: sender and why.'),
  streams_total: count('Streams kept now.'),
  max_streams: count('The most streams kept at once (sap.listener.max_streams).'),
  auto_add: Type.Object(
    {
      per_minute: count('The most sources auto-add creates in any 60 seconds.'),
      added_last_minute: count('Sources auto-add created in the last 60 seconds.'),
      waiting: count('Playable streams waiting for auto-add (the per-minute cap was reached).'),
    },
    { additionalProperties: false, description: 'auto_add_sources and its cap.' },
  ),
  announcer: Type.Object(
    {
      state: State,
      error: NullableString('Why it could not start.'),
      announced: count('RTP sinks announced now.'),
      sent: count('Announcements sent.'),
      deletions: count('Deletions sent.'),
      send_errors: count('Sends that failed (no route for multicast, ...).'),
      last_error: NullableString('The last send error.'),
    },
    { additionalProperties: false },
  ),
};

export const SapStatus = Type.Object(
  {
    ...sapFields,
    streams: Type.Array(Type.Ref(DiscoveredStream), {
      maxItems: DISCOVERY_PAGE,
      description: `The first ${DISCOVERY_PAGE} streams kept, oldest first (GET /api/discovery/streams pages through all).`,
    }),
  },
  { additionalProperties: false, description: 'SAP: listener, streams heard, announcer.' },
);

const mdnsFields = {
  state: State,
  error: NullableString('Why mDNS could not start (its port in use, ...).'),
  hostname: NullableString('The name the server answers to (after probing).'),
  packets: count('mDNS packets received.'),
  malformed: count('Packets dropped: not DNS, or records that could not be read.'),
  queries_sent: count('Discovery queries sent.'),
  packets_sent: count('Datagrams sent (queries, answers, announcements, goodbyes).'),
  split_responses: count(
    'Responses too large for one packet, sent as several within the size limit.',
  ),
  max_packet_bytes: count('The size limit of a sent packet: the interface MTU, 9000 at most.'),
  send_errors: count('Datagrams that could not be sent (no route, ...).'),
  sending: Type.Union([Type.Literal('ok'), Type.Literal('failing')], {
    description:
      'failing: the last send failed; sends are retried with backoff and, once one works, ' +
      'everything advertised is announced again.',
  }),
  last_send_error: NullableString('The last send error, with its time.'),
  recovered_at: Type.Union([Time('When sending worked again after the last error.'), Type.Null()]),
  devices_total: count('Devices found now.'),
  sync: Type.Object(
    {
      to_devices: count('Settings sent to devices.'),
      from_devices: count('Settings taken from devices.'),
      errors: count('Settings that could not be sent or applied.'),
      last_error: NullableString('The last of those.'),
      not_sent: count(
        'Changes not sent because the device advertises no settings API (no _http._tcp ' +
          'service, as `tributary receive`): they stay in Tributary. Each change counts once.',
      ),
    },
    { additionalProperties: false, description: 'Settings sync.' },
  ),
};

export const MdnsStatus = Type.Object(
  {
    ...mdnsFields,
    advertised: Type.Array(Type.String(), { description: 'Service instances advertised.' }),
    devices: Type.Array(Type.Ref(DiscoveredDevice), {
      maxItems: DISCOVERY_PAGE,
      description: `The first ${DISCOVERY_PAGE} devices found, oldest first (GET /api/discovery/devices pages through all).`,
    }),
  },
  { additionalProperties: false, description: 'mDNS: advertising, devices found, sync.' },
);

const enabled = Type.Boolean({ description: 'False when the daemon runs with DISCOVERY=off.' });

export const DiscoveryStatus = Type.Object(
  { enabled, sap: SapStatus, mdns: MdnsStatus },
  named('DiscoveryStatus', {
    description: 'Discovery: what SAP and mDNS found, and their counters.',
  }),
);
export type DiscoveryStatus = Static<typeof DiscoveryStatus>;
export type SapStatus = Static<typeof SapStatus>;
export type MdnsStatus = Static<typeof MdnsStatus>;

export const DiscoverySummary = Type.Object(
  {
    enabled,
    sap: Type.Object(sapFields, { additionalProperties: false, description: 'SAP counters.' }),
    mdns: Type.Object(
      { ...mdnsFields, advertised_total: count('Service instances advertised.') },
      { additionalProperties: false, description: 'mDNS counters.' },
    ),
  },
  named('DiscoverySummary', {
    description:
      'Discovery in /api/stats: states and counters, without the lists of streams, devices ' +
      'and services (GET /api/discovery has them), so its size does not grow with the network.',
  }),
);
export type DiscoverySummary = Static<typeof DiscoverySummary>;

export const PageQuery = Type.Object(
  {
    offset: Type.Integer({ minimum: 0, default: 0, description: 'Entries to skip.' }),
    limit: Type.Integer({
      minimum: 1,
      maximum: DISCOVERY_PAGE_MAX,
      default: DISCOVERY_PAGE,
      description: `Entries to give (${DISCOVERY_PAGE} unless given, ${DISCOVERY_PAGE_MAX} at most).`,
    }),
  },
  { additionalProperties: false },
);

const page = <T extends TSchema>(item: T, id: string, what: string) =>
  Type.Object(
    {
      total: count(`${what} now.`),
      offset: count('Entries skipped.'),
      limit: count('The most entries given.'),
      items: Type.Array(item, { maxItems: DISCOVERY_PAGE_MAX }),
    },
    named(id, {
      description: `${what}, oldest first, one page: items[i] is entry offset + i. The list changes while it is paged (entries come and go), so a page can repeat or skip one.`,
    }),
  );

export const DiscoveredStreamPage = page(
  Type.Ref(DiscoveredStream),
  'DiscoveredStreamPage',
  'Streams heard over SAP',
);
export const DiscoveredDevicePage = page(
  Type.Ref(DiscoveredDevice),
  'DiscoveredDevicePage',
  'Devices found over mDNS',
);
export type DiscoveredStreamPage = Static<typeof DiscoveredStreamPage>;
export type DiscoveredDevicePage = Static<typeof DiscoveredDevicePage>;
