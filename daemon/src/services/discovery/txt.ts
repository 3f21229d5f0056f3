// The DNS-SD TXT mapping, both ways: what a device's TXT record says (sinks: id, ip, type,
// bit_depth, sample_rate, channels, channel_layout; sources: id, ip, type, version; all: name,
// volume, rev, and optionally port) read into a checked device record; and the TXT records
// Tributary advertises for itself and for each real sink and source.
import { isIP } from 'node:net';
import { CHANNEL_LAYOUTS, SAMPLE_RATES } from '../../schema/common.js';
import type { Sink } from '../../schema/sink.js';
import type { Source } from '../../schema/source.js';
import { version } from '../../version.js';
import type { DeviceFacts } from './reconciler.js';

/** Service types devices advertise (the ESP32 firmware, receivers and senders). */
export const DEVICE_TYPES = {
  sink: { type: 'tributary-sink', protocol: 'udp' },
  source: { type: 'tributary-source', protocol: 'udp' },
} as const;
/** The server's own type; sinks and sources are its instances with subtypes _sink, _source. */
export const SERVER_TYPE = { type: 'tributary', protocol: 'tcp' } as const;

/** Largest TXT record read (RFC 6763 6.2: 8900 bytes is the practical mDNS maximum). */
export const MAX_TXT_BYTES = 8900;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A service as bonjour-service's browser reports it. */
export interface BrowsedService {
  readonly name?: string;
  readonly fqdn?: string;
  readonly host?: string;
  readonly port?: number;
  readonly txt?: Record<string, unknown>;
  readonly rawTxt?: Buffer | Buffer[];
  readonly addresses?: string[];
}

/** A device record, as the registry holds it (the API adds the times and the config entry). */
export interface DeviceRecord extends DeviceFacts {
  readonly service: string;
  readonly host: string;
  readonly version: string | null;
  readonly volume: number | null;
  readonly rev: number | null;
  readonly txt: Record<string, string>;
  readonly reason: string | null;
  readonly gone: boolean;
}

/** Size of a raw TXT record in bytes. */
export function txtBytes(raw: BrowsedService['rawTxt']): number {
  if (!raw) return 0;
  return Array.isArray(raw) ? raw.reduce((n, b) => n + b.length + 1, 0) : raw.length;
}

/** TXT values as text (a key without "=" reads as ""), long keys and values left out. */
export function txtStrings(txt: Record<string, unknown> | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries(txt ?? {})) {
    if (key.length === 0 || key.length > 64) continue;
    const text = value === true ? '' : Buffer.isBuffer(value) ? value.toString() : String(value);
    if (text.length <= 255) out[key.toLowerCase()] = text;
  }
  return out;
}

const integer = (s: string | undefined) =>
  s !== undefined && /^\d{1,9}$/.test(s) ? Number(s) : null;

/** Reads a browsed service of `kind` into a device record, saying why it is unusable if so. */
export function deviceFromService(
  service: BrowsedService,
  kind: 'sink' | 'source',
  hostAddresses: readonly string[],
): DeviceRecord {
  const txt = txtStrings(service.txt);
  const problems: string[] = [];
  const id = txt.id && UUID.test(txt.id) ? txt.id.toLowerCase() : null;
  if (!id) problems.push(txt.id ? `TXT id '${txt.id}' is not a UUID` : 'no TXT id (config_id)');
  const ip = [txt.ip, ...hostAddresses, ...(service.addresses ?? [])].find(
    (a) => a !== undefined && isIP(a) !== 0,
  );
  if (!ip) problems.push('no address (TXT ip or A record)');
  const port = service.port ?? 0;
  if (!Number.isInteger(port) || port < 1 || port > 65535) problems.push(`port ${port}`);
  const protocol = txt.type === 'scream' || txt.type === 'rtp' ? txt.type : null;
  if (txt.type !== undefined && protocol === null) problems.push(`TXT type '${txt.type}'`);
  const checked = <T>(key: string, value: T | null, ok: (v: T) => boolean): T | null => {
    if (txt[key] === undefined) return null;
    if (value === null || !ok(value)) {
      problems.push(`TXT ${key} '${txt[key]}' is not supported`);
      return null;
    }
    return value;
  };
  const bit_depth = checked('bit_depth', integer(txt.bit_depth), (v) => [16, 24, 32].includes(v));
  const sample_rate = checked('sample_rate', integer(txt.sample_rate), (v) =>
    (SAMPLE_RATES as readonly number[]).includes(v),
  );
  const channels = checked('channels', integer(txt.channels), (v) => v >= 1 && v <= 8);
  const channel_layout = checked('channel_layout', txt.channel_layout ?? null, (v) =>
    (CHANNEL_LAYOUTS as readonly string[]).includes(v),
  );
  const volumeText = txt.volume;
  const volume =
    volumeText !== undefined && /^\d+(\.\d+)?$/.test(volumeText) && Number(volumeText) <= 1
      ? Number(volumeText)
      : null;
  const rtpPort = integer(txt.port);
  const name = (txt.name || service.name || 'Device').slice(0, 64);
  return {
    id: id ?? service.fqdn ?? name,
    kind,
    name,
    service: service.fqdn ?? name,
    host: service.host ?? '',
    ip: ip ?? null,
    port,
    protocol,
    bit_depth,
    sample_rate,
    channels,
    channel_layout,
    rtp_port: rtpPort !== null && rtpPort >= 1 && rtpPort <= 65535 ? rtpPort : null,
    version: txt.version ?? null,
    volume,
    rev: integer(txt.rev),
    txt,
    usable: problems.length === 0,
    reason: problems.length ? problems.join('; ') : null,
    gone: false,
  };
}

/** The TXT record of the server itself. */
export function serverTxt(): Record<string, string> {
  return { version, api: '/api', tls: '1' };
}

/** The TXT record Tributary advertises for a real sink (the spec's fields, plus settings). */
export function sinkTxt(sink: Sink): Record<string, string> {
  return {
    id: sink.config_id,
    ip: sink.ip ?? '',
    type: sink.protocol,
    bit_depth: String(sink.bit_depth),
    sample_rate: String(sink.sample_rate),
    channels: String(sink.channels),
    channel_layout: sink.channel_layout,
    port: String(sink.port ?? ''),
    name: sink.name,
    volume: sink.volume.toFixed(2),
    enabled: sink.enabled ? '1' : '0',
  };
}

/** The TXT record Tributary advertises for a real source. */
export function sourceTxt(source: Source): Record<string, string> {
  return {
    id: source.config_id,
    ip: source.ip ?? '',
    type: source.rtp ? 'rtp' : 'scream',
    version,
    name: source.name,
    volume: source.volume.toFixed(2),
    enabled: source.enabled ? '1' : '0',
    ...(source.rtp
      ? { port: String(source.rtp.port), sample_rate: String(source.rtp.sample_rate) }
      : {}),
  };
}
