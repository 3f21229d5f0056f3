// The mDNS browser: asks for _tributary-sink._udp and _tributary-source._udp every
// browse_interval (and _http._tcp, for each device's settings port), and keeps the device
// registry: a device appears when it answers, changes when its TXT, port, host or address
// does, is marked gone on a goodbye and forgotten a second later (RFC 6762 section 10.1: a
// record with TTL 0 is deleted after one second, unless it is announced again meanwhile), and
// is forgotten cleanup_timeout after its last answer when it goes silently.
// bonjour-service's Browser decodes services; it does not track silence or address changes,
// so every response refreshes the devices it names here.
import type { Browser, Service } from 'bonjour-service';
import type { DiscoveryLog } from './log.js';
import type { MdnsEndpoint, MdnsPacket, MdnsRecord } from './mdns-endpoint.js';
import type { DiscoveredRegistry } from './registry.js';
import {
  type BrowsedService,
  DEVICE_TYPES,
  type DeviceRecord,
  deviceFromService,
  MAX_TXT_BYTES,
  txtBytes,
  txtStrings,
} from './txt.js';

export interface MdnsBrowserOptions {
  readonly intervalS: number;
  readonly cleanupTimeoutS: number;
}

interface Known {
  service: BrowsedService;
  readonly kind: 'sink' | 'source';
}

const lower = (s: unknown) => String(s ?? '').toLowerCase();
/** Devices tracked at most (a network of ESP32s has tens; a flood of names is cut here). */
const MAX_SERVICES = 512;
/** RFC 6762 section 10.1: a goodbye (TTL 0) is acted on one second after it arrives. */
export const GOODBYE_MS = 1000;

export class MdnsBrowser {
  readonly #endpoint: MdnsEndpoint;
  readonly #registry: DiscoveredRegistry<DeviceRecord>;
  readonly #options: MdnsBrowserOptions;
  readonly #log: DiscoveryLog;
  readonly #browsers: Browser[] = [];
  /** Services by lower-case FQDN. */
  readonly #known = new Map<string, Known>();
  /** Host name (lower case) -> IPv4 addresses from A records. */
  readonly #hosts = new Map<string, string[]>();
  /** Device config_id -> port of its _http._tcp service (settings API). */
  readonly #httpPorts = new Map<string, number>();
  #timers: NodeJS.Timeout[] = [];
  /** Devices that said goodbye -> the timer that forgets them. */
  readonly #goodbyes = new Map<string, NodeJS.Timeout>();
  #onResponse: ((packet: MdnsPacket) => void) | null = null;

  constructor(
    endpoint: MdnsEndpoint,
    registry: DiscoveredRegistry<DeviceRecord>,
    options: MdnsBrowserOptions,
    log: DiscoveryLog,
  ) {
    this.#endpoint = endpoint;
    this.#registry = registry;
    this.#options = options;
    this.#log = log;
  }

  start(): void {
    if (this.#endpoint.state !== 'running') return;
    const bonjour = this.#endpoint.bonjour;
    for (const kind of ['sink', 'source'] as const) {
      const { type, protocol } = DEVICE_TYPES[kind];
      const browser = bonjour.find({ type, protocol });
      const seen = (service: Service) => this.#seen(service, kind, browser);
      browser.on('up', seen);
      browser.on('txt-update', seen);
      browser.on('srv-update', seen);
      browser.on('down', (service: Service) => this.#goodbye(service));
      this.#browsers.push(browser);
    }
    const http = bonjour.find({ type: 'http', protocol: 'tcp' });
    const webPort = (service: Service) => {
      const id = txtStrings(service.txt).id;
      if (id && service.port) this.#httpPorts.set(id.toLowerCase(), service.port);
    };
    http.on('up', webPort);
    http.on('txt-update', webPort);
    http.on('srv-update', webPort);
    this.#browsers.push(http);
    this.#endpoint.counters.queries_sent += this.#browsers.length;
    this.#onResponse = (packet) => this.#response(packet);
    this.#endpoint.mdns.on('response', this.#onResponse as never);
    const query = setInterval(() => {
      for (const b of this.#browsers) b.update();
      this.#endpoint.counters.queries_sent += this.#browsers.length;
    }, this.#options.intervalS * 1000);
    const timeoutMs = this.#options.cleanupTimeoutS * 1000;
    const expire = setInterval(() => this.#registry.expire(timeoutMs), Math.min(250, timeoutMs));
    this.#timers = [query, expire];
    for (const t of this.#timers) t.unref();
  }

  stop(): void {
    for (const t of this.#timers) clearInterval(t);
    this.#timers = [];
    for (const t of this.#goodbyes.values()) clearTimeout(t);
    this.#goodbyes.clear();
    for (const b of this.#browsers) b.stop();
    this.#browsers.length = 0;
    if (this.#onResponse) this.#endpoint.mdns.off('response', this.#onResponse as never);
    this.#onResponse = null;
  }

  /** The port of a device's settings API (its _http._tcp service), if it advertises one. */
  httpPort(id: string): number | null {
    return this.#httpPorts.get(id.toLowerCase()) ?? null;
  }

  #seen(service: BrowsedService, kind: 'sink' | 'source', browser: Browser): void {
    // An oversized TXT was counted where the packet arrived (#response). It and services past
    // the limit are dropped from the library's cache too, so a flood of names cannot grow it.
    const tooMany = !this.#known.has(lower(service.fqdn)) && this.#known.size >= MAX_SERVICES;
    if (txtBytes(service.rawTxt) > MAX_TXT_BYTES || tooMany) {
      if (tooMany) this.#endpoint.dropped(`${service.fqdn}: more than ${MAX_SERVICES} services`);
      (browser as unknown as { removeService(fqdn: string): void }).removeService(
        service.fqdn ?? '',
      );
      return;
    }
    this.#known.set(lower(service.fqdn), { service, kind });
    this.#record(service, kind);
  }

  #record(service: BrowsedService, kind: 'sink' | 'source'): void {
    const device = deviceFromService(service, kind, this.#hosts.get(lower(service.host)) ?? []);
    this.#cancelGoodbye(device.id);
    const before = this.#registry.get(device.id);
    const event = this.#registry.heard(device);
    if (event === 'added' || (event === 'changed' && before?.item.gone)) {
      const where = device.ip ? ` at ${device.ip}` : '';
      this.#log.info(`mDNS: found ${kind} '${device.name}'${where} (${device.service})`);
    }
  }

  #goodbye(service: BrowsedService): void {
    const known = this.#known.get(lower(service.fqdn));
    if (!known) return;
    this.#known.delete(lower(service.fqdn));
    const device = deviceFromService(known.service, known.kind, []);
    const entry = this.#registry.get(device.id);
    if (entry && entry.item.service === device.service) {
      // The same device (its id) still answers as another service instance: that one now.
      const other = [...this.#known.values()].find(
        (k) => deviceFromService(k.service, k.kind, []).id === device.id,
      );
      if (other) {
        this.#record(other.service, other.kind);
        return;
      }
      this.#registry.replace({ ...entry.item, gone: true });
      this.#log.info(`mDNS: ${known.kind} '${entry.item.name}' said goodbye`);
      this.#cancelGoodbye(device.id);
      const timer = setTimeout(() => {
        this.#goodbyes.delete(device.id);
        const now = this.#registry.get(device.id);
        if (now?.item.gone) this.#registry.remove(device.id, 'said goodbye');
      }, GOODBYE_MS);
      timer.unref();
      this.#goodbyes.set(device.id, timer);
    }
  }

  #cancelGoodbye(id: string): void {
    const timer = this.#goodbyes.get(id);
    if (timer) clearTimeout(timer);
    this.#goodbyes.delete(id);
  }

  /** Every response: refreshes the devices it names, and notes host addresses. */
  #response(packet: MdnsPacket): void {
    const records: MdnsRecord[] = [...(packet.answers ?? []), ...(packet.additionals ?? [])];
    const touched = new Set<string>();
    const hostsChanged = new Set<string>();
    for (const r of records) {
      const name = lower(r.name);
      if (
        r.type === 'TXT' &&
        Array.isArray(r.data) &&
        txtBytes(r.data as Buffer[]) > MAX_TXT_BYTES
      ) {
        this.#endpoint.dropped(`${r.name}: TXT record of ${txtBytes(r.data as Buffer[])} bytes`);
        continue;
      }
      if (r.type === 'A' && typeof r.data === 'string') {
        const list = this.#hosts.get(name) ?? [];
        const next =
          r.ttl > 0
            ? [r.data, ...list.filter((a) => a !== r.data)]
            : list.filter((a) => a !== r.data);
        if (next.join() !== list.join()) {
          this.#hosts.set(name, next.slice(0, 4));
          hostsChanged.add(name);
        }
        continue;
      }
      if (r.ttl <= 0) continue;
      if (r.type === 'PTR') touched.add(lower(r.data));
      else if (r.type === 'SRV' || r.type === 'TXT') touched.add(name);
    }
    for (const fqdn of touched) {
      const known = this.#known.get(fqdn);
      if (!known) continue;
      const id = deviceFromService(known.service, known.kind, []).id;
      // Forgotten after silence but still in the library's cache: it answers again.
      if (this.#registry.get(id)) this.#registry.touch(id);
      else this.#record(known.service, known.kind);
    }
    for (const known of this.#known.values()) {
      if (hostsChanged.has(lower(known.service.host))) this.#record(known.service, known.kind);
    }
  }
}
