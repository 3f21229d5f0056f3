// /api/discovery: what SAP and mDNS found (the lists paged), the discovery settings (the sap and
// mdns sections of config.yaml), and adding a discovered stream or device by hand.
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { FastifyPluginAsync } from 'fastify';
import { NotAddableError, NotFoundError } from '../../errors.js';
import { nameRules } from '../../schema/common.js';
import {
  DiscoverySettings,
  DiscoverySettingsPatch,
  type DiscoverySettingsPatch as Patch,
} from '../../schema/discovery.js';
import {
  DISCOVERY_PAGE,
  DiscoveredDevicePage,
  DiscoveredStreamPage,
  DiscoveryStatus,
  PageQuery,
} from '../../schema/discovery-status.js';
import type { Config } from '../../schema/files.js';
import { Sink } from '../../schema/sink.js';
import { Source } from '../../schema/source.js';
import {
  addDevice,
  addStreamSource,
  freeName,
  sourceForStream,
} from '../../services/discovery/reconciler.js';
import { errors } from '../shared.js';

const tags = ['Discovery'];

const AddBody = Type.Object(
  {
    name: Type.Optional(
      Type.String({
        ...nameRules,
        description:
          'Name of the new entry (default: the announced or advertised name, with what the ' +
          'rule of names refuses made spaces).',
      }),
    ),
  },
  { additionalProperties: false },
);
const IdParams = (what: string) =>
  Type.Object({ id: Type.String({ description: `The id of the discovered ${what}.` }) });

/** Applies a partial update of the discovery settings to the draft's sections. */
function patchSettings(draft: Config, patch: Patch): void {
  if (patch.sap) {
    const { listener, announcer, ...top } = patch.sap;
    Object.assign(draft.sap, top);
    Object.assign(draft.sap.listener, listener ?? {});
    Object.assign(draft.sap.announcer, announcer ?? {});
  }
  if (patch.mdns) Object.assign(draft.mdns, patch.mdns);
}

const discoveryRoutes: FastifyPluginAsync = async (plain) => {
  // Request bodies and parameters typed from their schemas (no declared types to drift).
  const fastify = plain.withTypeProvider<TypeBoxTypeProvider>();
  const store = fastify.configStore;
  const discovery = fastify.discovery;

  fastify.get(
    '/api/discovery',
    {
      schema: {
        tags,
        operationId: 'getDiscovery',
        summary: 'Streams and devices found, and the state of SAP and mDNS',
        description:
          'Streams heard over SAP (with their format, destination and the source playing ' +
          'each), devices found over mDNS (with their TXT fields and the sink or source ' +
          'with their config_id), and the counters of both: packets, dropped packets and why. ' +
          `The lists hold their first ${DISCOVERY_PAGE} entries (streams_total and ` +
          'devices_total say how many there are); GET /api/discovery/streams and ' +
          '/api/discovery/devices page through the rest.',
        response: { 200: Type.Ref(DiscoveryStatus), ...errors() },
      },
    },
    async () => discovery.status(),
  );

  fastify.get(
    '/api/discovery/streams',
    {
      schema: {
        tags,
        operationId: 'listDiscoveredStreams',
        summary: 'Streams heard over SAP, one page',
        description:
          'Oldest first. offset skips entries, limit caps the page; items[i] is entry ' +
          'offset + i of total.',
        querystring: PageQuery,
        response: { 200: Type.Ref(DiscoveredStreamPage), ...errors(400) },
      },
    },
    async (request) => discovery.streamPage(request.query.offset, request.query.limit),
  );

  fastify.get(
    '/api/discovery/devices',
    {
      schema: {
        tags,
        operationId: 'listDiscoveredDevices',
        summary: 'Devices found over mDNS, one page',
        description:
          'Oldest first. offset skips entries, limit caps the page; items[i] is entry ' +
          'offset + i of total.',
        querystring: PageQuery,
        response: { 200: Type.Ref(DiscoveredDevicePage), ...errors(400) },
      },
    },
    async (request) => discovery.devicePage(request.query.offset, request.query.limit),
  );

  const settings = () => ({ sap: store.config.sap, mdns: store.config.mdns });

  fastify.get(
    '/api/discovery/settings',
    {
      schema: {
        tags,
        operationId: 'getDiscoverySettings',
        summary: 'The discovery settings (sap and mdns in config.yaml)',
        response: { 200: Type.Ref(DiscoverySettings), ...errors() },
      },
    },
    async () => settings(),
  );

  fastify.put(
    '/api/discovery/settings',
    {
      schema: {
        tags,
        operationId: 'updateDiscoverySettings',
        summary: 'Change discovery settings',
        description:
          'A partial update: fields left out keep their value. Saved to config.yaml and applied ' +
          'at once (a listener whose port or groups changed is restarted).',
        body: Type.Ref(DiscoverySettingsPatch),
        response: { 200: Type.Ref(DiscoverySettings), ...errors(400, 503) },
      },
    },
    async (request) => {
      await store.change((draft) => patchSettings(draft, request.body));
      return settings();
    },
  );

  fastify.post(
    '/api/discovery/streams/:id/add',
    {
      schema: {
        tags,
        operationId: 'addDiscoveredStream',
        summary: 'Add an announced stream as a source',
        description:
          'A source made by hand (never removed by discovery) that follows the stream: rtp.sap ' +
          'is on, so a new announcement updates its format and address.',
        params: IdParams('stream'),
        body: AddBody,
        response: { 201: Type.Ref(Source), ...errors(400, 404, 409, 503) },
      },
    },
    async (request, reply) => {
      const heard = discovery.streams.get(request.params.id);
      if (!heard) throw new NotFoundError('discovered stream', request.params.id);
      const stream = heard.item;
      if (stream.unplayable) throw new NotAddableError(`'${stream.name}'`, stream.unplayable);
      const playing = sourceForStream(store.config, stream)?.name;
      if (playing) throw new NotAddableError(`'${stream.name}'`, `source '${playing}' plays it`);
      const source = await store.change((draft) => {
        const taken = draft.sources.map((s) => s.name);
        const name = request.body.name ?? freeName(stream.name, taken, 'SAP stream');
        return addStreamSource(draft, stream, name, null);
      });
      return reply.code(201).send(source);
    },
  );

  fastify.post(
    '/api/discovery/devices/:id/add',
    {
      schema: {
        tags,
        operationId: 'addDiscoveredDevice',
        summary: 'Add a device found over mDNS as a sink or source',
        description:
          'An entry made by hand (never removed by discovery) with the device config_id, so it ' +
          'follows the device across address and host name changes and its settings sync.',
        params: IdParams('device'),
        body: AddBody,
        response: {
          201: Type.Union([Type.Ref(Sink), Type.Ref(Source)]),
          ...errors(400, 404, 409, 503),
        },
      },
    },
    async (request, reply) => {
      const heard = discovery.devices.get(request.params.id);
      if (!heard) throw new NotFoundError('discovered device', request.params.id);
      const d = heard.item;
      if (!d.usable) throw new NotAddableError(`'${d.name}'`, d.reason ?? 'unusable');
      const entry = await store.change((draft) => {
        const list: { name: string }[] = d.kind === 'sink' ? draft.sinks : draft.sources;
        const taken = list.map((e) => e.name);
        return addDevice(draft, d, request.body.name ?? freeName(d.name, taken, d.kind), null);
      });
      return reply.code(201).send(entry);
    },
  );
};

export default discoveryRoutes;
