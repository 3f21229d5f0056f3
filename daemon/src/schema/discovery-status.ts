// What discovery reports: the streams SAP heard, the devices mDNS found, and the counters of
// both (GET /api/discovery, and the `discovery` part of GET /api/stats).
import { type Static, Type } from '@sinclair/typebox';
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
    gone: Type.Boolean({ description: 'It said goodbye; forgotten after cleanup_timeout.' }),
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

export const SapStatus = Type.Object(
  {
    state: State,
    error: NullableString('Why the listener could not start (port in use, ...).'),
    port: Type.Integer(),
    groups: Type.Array(GroupState, { description: 'Multicast groups and whether each is joined.' }),
    packets: count('Datagrams received.'),
    announcements: count('Announcements read.'),
    deletions: count('Deletions read.'),
    malformed: count('Packets dropped as malformed (header, payload or SDP).'),
    unsupported: count('Packets dropped as unsupported (encrypted, not SDP).'),
    own: count("Tributary's own announcements heard back (ignored)."),
    last_problem: NullableString('The last dropped packet: sender and why.'),
    streams: Type.Array(Type.Ref(DiscoveredStream)),
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
  },
  { additionalProperties: false, description: 'SAP: listener, streams heard, announcer.' },
);

export const MdnsStatus = Type.Object(
  {
    state: State,
    error: NullableString('Why mDNS could not start.'),
    hostname: NullableString('The name the server answers to (after probing).'),
    advertised: Type.Array(Type.String(), { description: 'Service instances advertised.' }),
    packets: count('mDNS packets received.'),
    malformed: count('Packets dropped: not DNS, or records that could not be read.'),
    queries_sent: count('Discovery queries sent.'),
    devices: Type.Array(Type.Ref(DiscoveredDevice)),
    sync: Type.Object(
      {
        to_devices: count('Settings sent to devices.'),
        from_devices: count('Settings taken from devices.'),
        errors: count('Settings that could not be sent or applied.'),
        last_error: NullableString('The last of those.'),
      },
      { additionalProperties: false, description: 'Settings sync.' },
    ),
  },
  { additionalProperties: false, description: 'mDNS: advertising, devices found, sync.' },
);

export const DiscoveryStatus = Type.Object(
  {
    enabled: Type.Boolean({ description: 'False when the daemon runs with DISCOVERY=off.' }),
    sap: SapStatus,
    mdns: MdnsStatus,
  },
  named('DiscoveryStatus', {
    description: 'Discovery: what SAP and mDNS found, and their counters.',
  }),
);
export type DiscoveryStatus = Static<typeof DiscoveryStatus>;
export type SapStatus = Static<typeof SapStatus>;
export type MdnsStatus = Static<typeof MdnsStatus>;
