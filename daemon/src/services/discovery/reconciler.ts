// The auto-add reconciler: turns what discovery hears into configuration. A stream or device
// that appears becomes a source or sink (when auto-add is on), marked `auto_added` so it is
// recognised after a restart; one that moves keeps its entry with the new address; one that
// disappears takes its auto-added entry with it. Entries made by hand are updated, never
// removed. Every change goes through the configuration store (validated, saved, published).
import {
  addEntity,
  deleteEntity,
  type Entries,
  type InputOf,
  listOf,
  referrers,
} from '../../config/model.js';
import type { ConfigStore } from '../../config/store.js';
import { invalidRequest } from '../../errors.js';
import type { AutoAdded } from '../../schema/discovery.js';
import type { Config } from '../../schema/files.js';
import { toName } from '../../schema/name.js';
import { type Sink, SinkInput } from '../../schema/sink.js';
import {
  DEFAULT_RTP_PORT,
  type RtpSettings,
  type Source,
  SourceInput,
} from '../../schema/source.js';
import { check } from '../../schema/validate.js';
import type { DiscoveryLog } from './log.js';
import type { SapStream } from './sap-listener.js';

/** A device as the reconciler needs it (the mDNS browser's view). */
export interface DeviceFacts {
  readonly id: string;
  readonly kind: 'sink' | 'source';
  readonly name: string;
  readonly ip: string | null;
  readonly port: number;
  readonly protocol: 'scream' | 'rtp' | null;
  readonly bit_depth: number | null;
  readonly sample_rate: number | null;
  readonly channels: number | null;
  readonly channel_layout: string | null;
  /** RTP senders: the port their stream arrives on. */
  readonly rtp_port: number | null;
  readonly volume: number | null;
  readonly usable: boolean;
}

type Entity = Sink | Source;

const isMulticast = (ip: string | null) => ip !== null && /^(22[4-9]|23\d)\./.test(ip);

/** A name the config accepts, unique among `taken`: "Studio", then "Studio (2)", ... */
export function freeName(wanted: string, taken: readonly string[], fallback: string): string {
  // Text from the network, made to follow the rule of names (room left for " (99)").
  const clean = toName(wanted, fallback, 58);
  const names = new Set(taken);
  if (!names.has(clean)) return clean;
  for (let i = 2; ; i++) if (!names.has(`${clean} (${i})`)) return `${clean} (${i})`;
}

/** The RTP settings a stream plays with. */
export function rtpOf(stream: SapStream, sap = true): RtpSettings {
  return {
    listen_ip: isMulticast(stream.address) ? stream.address : null,
    port: stream.port,
    format: stream.stream.format!,
    sample_rate: stream.stream.sample_rate as RtpSettings['sample_rate'],
    channels: stream.stream.channels,
    payload_type: stream.stream.payload_type,
    time_sync: false,
    sap,
  };
}

const marked = (e: { auto_added: AutoAdded }, via: 'sap' | 'mdns', key: string) =>
  e.auto_added?.via === via && e.auto_added.key === key;

/**
 * The source that plays `stream`: the one auto-added for it, else one made by hand that follows
 * SAP (`rtp.sap`) and has its name, or its port and group.
 */
export function sourceForStream(config: Entries, stream: SapStream): Source | undefined {
  return (
    config.sources.find((s) => marked(s, 'sap', stream.id)) ??
    config.sources.find(
      (s) =>
        s.auto_added === null &&
        s.rtp?.sap === true &&
        (s.name === stream.name ||
          (s.rtp.port === stream.port && s.rtp.listen_ip === rtpOf(stream).listen_ip)),
    )
  );
}

/** The sink or source with the device's config_id. */
export function entryForDevice(config: Entries, device: Pick<DeviceFacts, 'id' | 'kind'>) {
  return (listOf(config, device.kind) as Entity[]).find((e) => e.config_id === device.id);
}

function joinGroup(draft: Config, kind: 'sink' | 'source', group: string | null, name: string) {
  if (group === null) return;
  const entry = (listOf(draft, kind) as Entity[]).find((e) => e.name === group && e.is_group);
  if (entry && !entry.group_members.includes(name)) entry.group_members.push(name);
}

/**
 * Removes an auto-added entry: it leaves every group; if a route still names it (the user
 * routed it by hand), it is kept. Returns what happened, for the log.
 */
export function removeAutoAdded(
  draft: Config,
  kind: 'sink' | 'source',
  via: 'sap' | 'mdns',
  key: string,
): string | null {
  const entry = (listOf(draft, kind) as Entity[]).find((e) => marked(e, via, key));
  if (!entry) return null;
  for (const group of listOf(draft, kind) as Entity[]) {
    group.group_members = group.group_members.filter((m) => m !== entry.name);
  }
  const users = referrers(draft, kind, entry.name);
  if (users.length > 0) return `kept ${kind} '${entry.name}': ${users.join(', ')} uses it`;
  deleteEntity(draft, kind, entry.name);
  return `removed ${kind} '${entry.name}'`;
}

/** Adds or updates the source of a stream; returns what it did (null: nothing). */
export function applyStream(
  draft: Config,
  stream: SapStream,
  autoAdd: boolean,
  group: string | null,
): string | null {
  if (stream.unplayable !== null) return null;
  const existing = sourceForStream(draft, stream);
  if (existing) {
    const rtp = rtpOf(stream, existing.rtp?.sap ?? true);
    if (existing.rtp && JSON.stringify(existing.rtp) === JSON.stringify(rtp)) return null;
    existing.rtp = { ...rtp, time_sync: existing.rtp?.time_sync ?? false };
    return `updated source '${existing.name}' from its announcement`;
  }
  if (!autoAdd) return null;
  const name = freeName(
    stream.name,
    draft.sources.map((s) => s.name),
    'SAP stream',
  );
  addStreamSource(draft, stream, name, { via: 'sap', key: stream.id });
  joinGroup(draft, 'source', group, name);
  return `added source '${name}' for the announced stream`;
}

/** Adds or updates the entry of a device; returns what it did (null: nothing). */
export function applyDevice(
  draft: Config,
  device: DeviceFacts,
  autoAdd: boolean,
  group: string | null,
): string | null {
  if (!device.usable) return null;
  const existing = entryForDevice(draft, device);
  if (existing) {
    const changes: string[] = [];
    if (device.ip !== null && existing.ip !== device.ip) {
      changes.push(`ip ${existing.ip} -> ${device.ip}`);
      existing.ip = device.ip;
    }
    if (device.kind === 'sink') {
      const sink = existing as Sink;
      // What the receiver plays is its own to say: port and format follow its TXT record.
      const format = {
        port: device.port,
        bit_depth: device.bit_depth,
        channels: device.channels,
        channel_layout: device.channel_layout,
      } as const;
      for (const [key, value] of Object.entries(format)) {
        const field = key as keyof typeof format;
        if (value === null || sink[field] === value) continue;
        changes.push(`${field} ${sink[field]} -> ${value}`);
        (sink as Record<string, unknown>)[field] = value;
      }
    }
    return changes.length ? `${device.kind} '${existing.name}': ${changes.join(', ')}` : null;
  }
  if (!autoAdd) return null;
  const name = freeName(
    device.name,
    (listOf(draft, device.kind) as Entity[]).map((e) => e.name),
    device.kind === 'sink' ? 'Speaker' : 'Sender',
  );
  addDevice(draft, device, name, { via: 'mdns', key: device.id });
  joinGroup(draft, device.kind, group, name);
  return `added ${device.kind} '${name}' for the device found`;
}

/** Adds a source playing `stream` under `name` (following its announcements: rtp.sap on). */
export function addStreamSource(
  draft: Config,
  stream: SapStream,
  name: string,
  auto_added: AutoAdded,
): Source {
  return addEntity(draft, 'source', validated('source', { name, rtp: rtpOf(stream), auto_added }));
}

/** Adds the sink or source of a device under `name`, with its format, address and volume. */
export function addDevice(
  draft: Config,
  device: DeviceFacts,
  name: string,
  auto_added: AutoAdded,
): Sink | Source {
  const common = {
    config_id: device.id,
    name,
    ip: device.ip,
    auto_added,
    ...(device.volume !== null ? { volume: device.volume } : {}),
  };
  if (device.kind === 'sink') {
    return addEntity(
      draft,
      'sink',
      validated('sink', {
        ...common,
        port: device.port,
        protocol: device.protocol ?? 'scream',
        ...(device.bit_depth ? { bit_depth: device.bit_depth as Sink['bit_depth'] } : {}),
        ...(device.sample_rate ? { sample_rate: device.sample_rate as Sink['sample_rate'] } : {}),
        ...(device.channels ? { channels: device.channels } : {}),
        ...(device.channel_layout
          ? { channel_layout: device.channel_layout as Sink['channel_layout'] }
          : {}),
      }),
    );
  }
  const rtp: RtpSettings | null =
    device.protocol === 'rtp'
      ? {
          listen_ip: null,
          port: device.rtp_port ?? DEFAULT_RTP_PORT,
          format: 'S16BE',
          sample_rate: (device.sample_rate ?? 48000) as RtpSettings['sample_rate'],
          channels: device.channels ?? 2,
          payload_type: null,
          time_sync: false,
          sap: false,
        }
      : null;
  return addEntity(draft, 'source', validated('source', { ...common, rtp }));
}

/** A new entry's fields checked against its schema, defaults filled in (as the API does). */
function validated<K extends 'sink' | 'source'>(kind: K, input: InputOf<K>): InputOf<K> {
  const copy = structuredClone(input);
  const problems = check(kind === 'sink' ? SinkInput : SourceInput, copy);
  if (problems.length > 0) throw invalidRequest(problems);
  return copy;
}

/** Runs reconciliation steps through the store, one after another, logging what changed. */
export class Reconciler {
  constructor(
    private readonly store: ConfigStore,
    private readonly log: DiscoveryLog,
  ) {}

  /** Applies `step` to the configuration; errors are logged (and returned), never thrown. */
  async run(what: string, step: (draft: Config) => string | null): Promise<string | null> {
    let done: string | null = null;
    try {
      await this.store.change((draft) => {
        done = step(draft);
      });
      if (done) this.log.info(`discovery: ${done}`);
      return null;
    } catch (err) {
      const message = `${what}: ${(err as Error).message}`;
      this.log.warn(`discovery could not change the configuration: ${message}`);
      return message;
    }
  }
}
