// The mDNS advertiser: the server as HOSTNAME.local with its API as _https._tcp and
// _tributary._tcp, and every real sink and source as a _tributary._tcp instance (subtypes _sink
// and _source) whose TXT carries the spec's fields. Names are probed first (RFC 6762 8.1: three
// queries 250 ms apart; an answer means taken, so "-2", "(2)" ... is tried); a changed TXT is
// re-announced with the cache-flush bit; a removed entry and the daemon's stop send goodbyes.
import type { Config } from '../../schema/files.js';
import type { DiscoveryLog } from './log.js';
import type { MdnsEndpoint, MdnsPacket, MdnsRecord } from './mdns-endpoint.js';
import { PublishedService } from './mdns-published.js';
import { SERVER_TYPE, serverTxt, sinkTxt, sourceTxt } from './txt.js';

const PROBES = 3;
const PROBE_GAP_MS = 250;

/** The instance name of an entry: its name and kind, within the 63 bytes DNS allows. */
export function instanceName(name: string, suffix: string): string {
  let base = name;
  while (Buffer.byteLength(`${base}${suffix}`) > 63) base = base.slice(0, -1);
  return `${base}${suffix}`;
}

interface Published {
  readonly service: PublishedService;
  readonly name: string;
  txt: string;
}

export class MdnsAdvertiser {
  readonly #endpoint: MdnsEndpoint;
  readonly #log: DiscoveryLog;
  readonly #entries = new Map<string, Published>();
  readonly #server: PublishedService[] = [];
  hostname: string | null = null;
  #apiPort = 0;
  #stopped = false;
  #latest: Pick<Config, 'sinks' | 'sources'> | null = null;
  #chain: Promise<void> = Promise.resolve();

  constructor(endpoint: MdnsEndpoint, log: DiscoveryLog) {
    this.#endpoint = endpoint;
    this.#log = log;
  }

  /** True when nobody answers for `name` during probing. */
  async probe(name: string, type: string): Promise<boolean> {
    const mdns = this.#endpoint.mdns;
    let taken = false;
    const wanted = name.toLowerCase();
    const onResponse = (packet: MdnsPacket) => {
      const records: MdnsRecord[] = [...(packet.answers ?? []), ...(packet.additionals ?? [])];
      if (records.some((r) => r.ttl > 0 && String(r.name).toLowerCase() === wanted)) taken = true;
    };
    mdns.on('response', onResponse as never);
    try {
      for (let i = 0; i < PROBES && !taken; i++) {
        this.#endpoint.query(name, type);
        await new Promise((r) => setTimeout(r, PROBE_GAP_MS));
      }
    } finally {
      mdns.off('response', onResponse as never);
    }
    return !taken;
  }

  /** Claims the host name (probing) and advertises the server's services. */
  async start(hostname: string, apiPort: number): Promise<void> {
    this.#apiPort = apiPort;
    for (let n = 1; n < 10 && !this.#stopped; n++) {
      const candidate = n === 1 ? hostname : `${hostname}-${n}`;
      if (await this.probe(`${candidate}.local`, 'A')) {
        this.hostname = `${candidate}.local`;
        break;
      }
      this.#log.warn(`mDNS: ${candidate}.local is taken on this network; trying another name`);
    }
    if (!this.hostname || this.#stopped) return;
    this.#log.info(`mDNS: answering as ${this.hostname}`);
    const label = hostname === 'tributary' ? 'Tributary' : `Tributary ${hostname}`;
    for (const [type, protocol, txt] of [
      [SERVER_TYPE.type, SERVER_TYPE.protocol, serverTxt()],
      ['https', 'tcp', { path: '/' }],
    ] as const) {
      const service = await this.#publish(label, type, protocol, [], txt);
      if (service) this.#server.push(service);
    }
  }

  /** Advertises exactly the real sinks and sources of `config` (changes queue up). */
  update(config: Pick<Config, 'sinks' | 'sources'>): Promise<void> {
    this.#latest = config;
    this.#chain = this.#chain
      .then(() => this.#apply())
      .catch((err: Error) => {
        this.#log.warn(`mDNS: advertising failed: ${err.message}`);
      });
    return this.#chain;
  }

  async #apply(): Promise<void> {
    const config = this.#latest;
    if (!config || !this.hostname || this.#stopped) return;
    const wanted = new Map<string, { name: string; kind: 'sink' | 'source'; txt: object }>();
    for (const s of config.sinks) {
      if (!s.is_group) wanted.set(s.config_id, { name: s.name, kind: 'sink', txt: sinkTxt(s) });
    }
    for (const s of config.sources) {
      if (!s.is_group) {
        wanted.set(s.config_id, { name: s.name, kind: 'source', txt: sourceTxt(s) });
      }
    }
    for (const [id, published] of this.#entries) {
      if (wanted.get(id)?.name === published.name) continue;
      this.#entries.delete(id);
      await published.service.stop();
    }
    const added: Promise<void>[] = [];
    for (const [id, want] of wanted) {
      const text = JSON.stringify(want.txt);
      const current = this.#entries.get(id);
      if (current) {
        if (current.txt !== text) {
          current.service.setTxt(want.txt);
          current.txt = text;
        }
        continue;
      }
      const instance = instanceName(want.name, ` (${want.kind})`);
      added.push(
        this.#publish(instance, SERVER_TYPE.type, SERVER_TYPE.protocol, [want.kind], want.txt).then(
          (service) => {
            if (service) this.#entries.set(id, { service, txt: text, name: want.name });
          },
        ),
      );
    }
    await Promise.all(added);
  }

  /** Publishes after probing the instance name (renamed "name (2)" ... when taken). */
  async #publish(
    name: string,
    type: string,
    protocol: 'tcp' | 'udp',
    subtypes: string[],
    txt: object,
  ): Promise<PublishedService | null> {
    for (let n = 1; n < 10 && !this.#stopped; n++) {
      const candidate = n === 1 ? name : `${name} (${n})`;
      const fqdn = `${candidate.split('.').join('-')}._${type}._${protocol}.local`;
      if (!(await this.probe(fqdn, 'ANY'))) continue;
      if (this.#stopped) return null;
      return new PublishedService(
        {
          name: candidate,
          type,
          protocol,
          port: this.#apiPort,
          host: this.hostname!,
          subtypes,
          txt,
        },
        this.#endpoint.book,
        this.#endpoint.mdns as never,
      );
    }
    this.#log.warn(`mDNS: could not find a free name for '${name}'`);
    return null;
  }

  get advertised(): string[] {
    return [...this.#server, ...[...this.#entries.values()].map((p) => p.service)].map(
      (s) => s.fqdn,
    );
  }

  /** Stops publishing (the endpoint's close sends the goodbyes). */
  stop(): void {
    this.#stopped = true;
    for (const service of this.#server) service.halt();
    for (const entry of this.#entries.values()) entry.service.halt();
  }
}
