// What discovery reports: GET /api/discovery (the state and counters of each part, the first
// page of the streams heard and the devices found, each with the configured source or entry that
// plays or matches it), the pages after it, and the summary in /api/stats (no lists: its size
// does not grow with what the network announces).

import {
  DISCOVERY_PAGE,
  type DiscoveredDevice,
  type DiscoveredDevicePage,
  type DiscoveredStream,
  type DiscoveredStreamPage,
  type DiscoveryStatus,
  type DiscoverySummary,
} from '../../schema/discovery-status.js';
import type { Config } from '../../schema/files.js';
import type { AutoAdder } from './auto-add.js';
import { AUTO_ADD_PER_MINUTE } from './limits.js';
import type { MdnsAdvertiser } from './mdns-advertiser.js';
import { type MdnsEndpoint, NO_MDNS_COUNTERS } from './mdns-endpoint.js';
import { entryForDevice, sourceForStream } from './reconciler.js';
import type { DiscoveredRegistry, Heard } from './registry.js';
import type { SapAnnouncer } from './sap-announcer.js';
import { NO_SAP_COUNTERS, type SapListener, type SapStream } from './sap-listener.js';
import type { SettingsSync } from './settings-sync.js';
import type { DeviceRecord } from './txt.js';

const iso = (ms: number) => new Date(ms).toISOString();

export interface DiscoveryParts {
  readonly enabled: boolean;
  readonly config: Readonly<Config>;
  readonly streams: DiscoveredRegistry<SapStream>;
  readonly devices: DiscoveredRegistry<DeviceRecord>;
  readonly listener: SapListener | null;
  readonly announcer: SapAnnouncer | null;
  readonly auto: AutoAdder;
  readonly mdns: {
    endpoint: MdnsEndpoint;
    advertiser: MdnsAdvertiser | null;
    sync: SettingsSync | null;
  } | null;
}

/** States and counters, no lists: the summary in /api/stats. */
export function discoverySummary(p: DiscoveryParts): DiscoverySummary {
  const { listener: l, announcer: a, mdns: m, config } = p;
  return {
    enabled: p.enabled,
    sap: {
      state: l?.state ?? 'off',
      error: l?.error ?? null,
      port: l?.port ?? config.sap.listener.port,
      groups: l
        ? [...l.groups].map(([group, error]) => ({ group, joined: error === null, error }))
        : [],
      ...(l?.counters ?? NO_SAP_COUNTERS),
      last_problem: l?.lastProblem ?? null,
      streams_total: p.streams.size,
      max_streams: config.sap.listener.max_streams,
      auto_add: {
        per_minute: AUTO_ADD_PER_MINUTE,
        added_last_minute: p.auto.sources.budget.used(),
        waiting: p.auto.sources.waiting.size,
      },
      announcer: {
        state: a?.state ?? 'off',
        error: a?.error ?? null,
        announced: a?.announced ?? 0,
        ...(a?.counters ?? { sent: 0, deletions: 0, send_errors: 0 }),
        last_error: a?.lastError ?? null,
      },
    },
    mdns: {
      state: m?.endpoint.state ?? 'off',
      error: m?.endpoint.error ?? null,
      hostname: m?.advertiser?.hostname ?? null,
      ...(m?.endpoint.status() ?? NO_MDNS_COUNTERS),
      devices_total: p.devices.size,
      advertised_total: m?.advertiser?.advertised.length ?? 0,
      sync: {
        ...(m?.sync?.counters ?? {
          to_devices: 0,
          from_devices: 0,
          errors: 0,
          last_error: null,
          not_sent: 0,
        }),
      },
    },
  };
}

/** GET /api/discovery: the summary with the first page of each list. */
export function discoveryStatus(p: DiscoveryParts): DiscoveryStatus {
  const { sap, mdns } = discoverySummary(p);
  const { advertised_total: _, ...mdnsCounters } = mdns;
  return {
    enabled: p.enabled,
    sap: { ...sap, streams: streamPage(p.streams, p.config, 0, DISCOVERY_PAGE).items },
    mdns: {
      ...mdnsCounters,
      advertised: p.mdns?.advertiser?.advertised ?? [],
      devices: devicePage(p.devices, p.config, 0, DISCOVERY_PAGE).items,
    },
  };
}

/** The streams heard, `limit` from `offset`, each with the source that plays it. */
export function streamPage(
  streams: DiscoveredRegistry<SapStream>,
  config: Readonly<Config>,
  offset: number,
  limit: number,
): DiscoveredStreamPage {
  const items = streams
    .page(offset, limit)
    .map((h) => streamView(h, sourceForStream(config, h.item)?.name ?? null));
  return { total: streams.size, offset, limit, items };
}

/** The devices found, `limit` from `offset`, each with the entry that has its config_id. */
export function devicePage(
  devices: DiscoveredRegistry<DeviceRecord>,
  config: Readonly<Config>,
  offset: number,
  limit: number,
): DiscoveredDevicePage {
  const items = devices
    .page(offset, limit)
    .map((h) => deviceView(h, entryForDevice(config, h.item)?.name ?? null));
  return { total: devices.size, offset, limit, items };
}

function streamView(h: Heard<SapStream>, source: string | null): DiscoveredStream {
  const s = h.item;
  return {
    id: s.id,
    name: s.name,
    origin: s.origin,
    sap_source: s.sap_source,
    sender: s.sender,
    address: s.address,
    port: s.port,
    encoding: s.stream.encoding,
    format: s.stream.format,
    sample_rate: s.stream.sample_rate,
    channels: s.stream.channels,
    payload_type: s.stream.payload_type,
    ptime: s.ptime,
    direction: s.direction,
    refclk: s.refclk,
    mediaclk: s.mediaclk,
    playable: s.unplayable === null,
    reason: s.unplayable,
    announcements: h.count,
    first_seen: iso(h.firstSeen),
    last_seen: iso(h.lastSeen),
    source,
  };
}

function deviceView(h: Heard<DeviceRecord>, entry: string | null): DiscoveredDevice {
  const d = h.item;
  return {
    id: d.id,
    kind: d.kind,
    name: d.name,
    service: d.service,
    host: d.host,
    ip: d.ip,
    port: d.port,
    protocol: d.protocol,
    bit_depth: d.bit_depth,
    sample_rate: d.sample_rate,
    channels: d.channels,
    channel_layout: d.channel_layout,
    version: d.version,
    volume: d.volume,
    rev: d.rev,
    txt: d.txt,
    usable: d.usable,
    reason: d.reason,
    gone: d.gone,
    first_seen: iso(h.firstSeen),
    last_seen: iso(h.lastSeen),
    entry,
  };
}
