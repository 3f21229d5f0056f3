// The discovery service: runs the SAP listener and announcer and the mDNS advertiser, browser
// and settings sync as the configuration's `sap` and `mdns` sections say (restarting a part
// when its settings change), feeds what they hear to the reconciler, and reports it all.
import type { ConfigSnapshot, ConfigStore } from '../../config/store.js';
import type { DiscoveredStream, DiscoveryStatus } from '../../schema/discovery-status.js';
import type { Config } from '../../schema/files.js';
import type { DiscoveryLog } from './log.js';
import { MdnsAdvertiser } from './mdns-advertiser.js';
import { MdnsBrowser } from './mdns-browser.js';
import { MdnsEndpoint } from './mdns-endpoint.js';
import { applyDevice, applyStream, Reconciler, removeAutoAdded } from './reconciler.js';
import { DiscoveredRegistry, type RegistryEvent } from './registry.js';
import { rtpSinks, SapAnnouncer } from './sap-announcer.js';
import { SapListener, type SapStream } from './sap-listener.js';
import { SettingsSync } from './settings-sync.js';
import { discoveryStatus, streamList } from './status.js';
import type { DeviceRecord } from './txt.js';

export interface DiscoveryOptions {
  /** False: DISCOVERY=off (tests, Docker bridge networking): nothing is opened. */
  readonly enabled: boolean;
  /** mDNS UDP port (5353). */
  readonly mdnsPort?: number;
  /** Whether the audio engine plays: RTP sinks are only announced then. */
  readonly enginePlaying?: () => boolean;
}

/** How often a socket that could not start is tried again. */
const RETRY_MS = 10_000;

/** The running parts of mDNS, on one endpoint. */
interface MdnsParts {
  readonly endpoint: MdnsEndpoint;
  advertiser: MdnsAdvertiser | null;
  browser: MdnsBrowser | null;
  sync: SettingsSync | null;
  readonly since: number;
}

export class DiscoveryService {
  readonly streams = new DiscoveredRegistry<SapStream>();
  readonly devices = new DiscoveredRegistry<DeviceRecord>();
  readonly #options: DiscoveryOptions;
  readonly #store: ConfigStore;
  readonly #log: DiscoveryLog;
  readonly #reconciler: Reconciler;
  #listener: SapListener | null = null;
  #listenerKey = '';
  #listenerSince = 0;
  #autoKey = '';
  #announcer: SapAnnouncer | null = null;
  #announcerKey = '';
  #mdns: MdnsParts | null = null;
  #mdnsKey = '';
  #apiPort: number | null = null;
  #chain: Promise<void> = Promise.resolve();
  #sweep: NodeJS.Timeout | null = null;
  #unsubscribe: (() => void)[] = [];
  #stopped = false;

  constructor(options: DiscoveryOptions, store: ConfigStore, log: DiscoveryLog) {
    this.#options = options;
    this.#store = store;
    this.#log = log;
    this.#reconciler = new Reconciler(store, log);
    const fault = (err: Error) => log.error(`discovery: ${err.stack ?? err.message}`);
    this.streams.onListenerError = fault;
    this.devices.onListenerError = fault;
  }

  get enabled(): boolean {
    return this.#options.enabled;
  }

  /** Starts what the configuration asks for and follows its changes. */
  start(): Promise<void> {
    if (!this.#options.enabled) return Promise.resolve();
    this.#unsubscribe.push(
      this.streams.subscribe((e, s, why) => this.#onStream(e, s, why)),
      this.devices.subscribe((e, d, why) => this.#onDevice(e, d, why)),
      this.#store.subscribe((snapshot) => void this.#apply(snapshot)),
    );
    this.#sweep = setInterval(() => {
      this.#retryFailed();
      this.#sweepForgotten();
    }, 2000);
    this.#sweep.unref();
    return this.#apply(this.#store.snapshot());
  }

  /** The API's port, once it listens: mDNS advertises it. */
  setApiPort(port: number): Promise<void> {
    this.#apiPort = port;
    this.#mdnsKey = '';
    return this.#apply(this.#store.snapshot());
  }

  /** Waits for the running reconfiguration (tests). */
  settled(): Promise<void> {
    return this.#chain;
  }

  #apply(snapshot: ConfigSnapshot): Promise<void> {
    this.#chain = this.#chain
      .then(() => this.#reconfigure(snapshot.config))
      .catch((err: Error) => this.#log.error(`discovery: ${err.stack ?? err.message}`));
    return this.#chain;
  }

  async #reconfigure(config: Readonly<Config>): Promise<void> {
    if (this.#stopped) return;
    const { sap } = config;
    const listenerKey = sap.enabled
      ? JSON.stringify([
          sap.listener.multicast_groups,
          sap.listener.port,
          sap.listener.cleanup_timeout,
        ])
      : '';
    if (listenerKey !== this.#listenerKey) {
      await this.#listener?.stop();
      this.#listener = null;
      this.#listenerKey = listenerKey;
      if (listenerKey) {
        const announcer = () => this.#announcer;
        this.#listener = new SapListener(
          this.streams,
          {
            port: sap.listener.port,
            groups: sap.listener.multicast_groups,
            cleanupTimeoutS: sap.listener.cleanup_timeout,
            isOwn: (source, hash) => announcer()?.isOwn(source, hash) ?? false,
          },
          this.#log,
        );
        await this.#listener.start();
        this.#listenerSince = Date.now();
      } else this.streams.clear();
    }
    // Auto-add switched on, or a group named: what is already heard counts now.
    const autoKey = JSON.stringify([sap.listener.auto_add_sources, sap.listener.add_to_group]);
    if (autoKey !== this.#autoKey) {
      this.#autoKey = autoKey;
      for (const { item } of this.streams.list()) this.#onStream('changed', item, 'settings');
    }
    const a = sap.announcer;
    const announcerKey =
      sap.enabled && a.enabled
        ? JSON.stringify([a.multicast_groups, sap.listener.port, a.interval, a.ttl])
        : '';
    if (announcerKey !== this.#announcerKey) {
      await this.#announcer?.stop();
      this.#announcer = null;
      this.#announcerKey = announcerKey;
      if (announcerKey) {
        this.#announcer = new SapAnnouncer(
          {
            groups: a.multicast_groups,
            port: sap.listener.port,
            intervalS: a.interval,
            ttl: a.ttl,
          },
          this.#log,
        );
        await this.#announcer.start();
      }
    }
    const playing = this.#options.enginePlaying?.() ?? true;
    this.#announcer?.update(playing ? rtpSinks(config) : []);
    await this.#reconfigureMdns(config);
  }

  async #reconfigureMdns(config: Readonly<Config>): Promise<void> {
    const m = config.mdns;
    const on = m.enabled && (m.advertise || m.browse);
    const key = on ? JSON.stringify([m, this.#apiPort]) : '';
    if (key !== this.#mdnsKey) {
      const old = this.#mdns;
      this.#mdns = null;
      this.#mdnsKey = key;
      if (old) {
        old.advertiser?.stop();
        old.browser?.stop();
        old.sync?.stop();
        await old.endpoint.close();
      }
      if (!on) {
        this.devices.clear();
        return;
      }
      const endpoint = await MdnsEndpoint.open(this.#log, { port: this.#options.mdnsPort });
      const state: MdnsParts = {
        endpoint,
        advertiser: null,
        browser: null,
        sync: null,
        since: Date.now(),
      };
      this.#mdns = state;
      if (endpoint.state !== 'running') return;
      if (m.browse) {
        state.browser = new MdnsBrowser(
          endpoint,
          this.devices,
          { intervalS: m.browse_interval, cleanupTimeoutS: m.cleanup_timeout },
          this.#log,
        );
        state.browser.start();
        if (m.settings_sync) {
          const browser = state.browser;
          state.sync = new SettingsSync(
            this.devices,
            () => this.#store.config,
            this.#reconciler,
            (id) => browser.httpPort(id),
            this.#log,
          );
          state.sync.start(m.sync_interval);
        }
      }
      if (m.advertise && this.#apiPort !== null) {
        state.advertiser = new MdnsAdvertiser(endpoint, this.#log);
        // Probing takes about a second; the rest of discovery does not wait for it.
        void state.advertiser
          .start(m.hostname, this.#apiPort)
          .then(() => state.advertiser?.update(this.#store.config));
      }
    }
    void this.#mdns?.advertiser?.update(config);
  }

  #onStream(event: RegistryEvent, stream: SapStream, why: string): void {
    const config = this.#store.config;
    const { auto_add_sources: autoAdd, add_to_group: group } = config.sap.listener;
    if (event === 'added') {
      const f = stream.stream;
      this.#log.info(
        `SAP: heard '${stream.name}' (${f.encoding}/${f.sample_rate}/${f.channels} at ` +
          `${stream.address}:${stream.port}${stream.unplayable ? `; ${stream.unplayable}` : ''})`,
      );
    }
    if (event === 'removed') {
      this.#log.info(`SAP: '${stream.name}' is gone (${why})`);
      void this.#reconciler.run(`stream '${stream.name}' gone`, (draft) =>
        removeAutoAdded(draft, 'source', 'sap', stream.id),
      );
      return;
    }
    // Only call the store when something would change.
    if (applyStream(structuredClone(config) as Config, stream, autoAdd, group) === null) return;
    void this.#reconciler.run(`stream '${stream.name}'`, (draft) =>
      applyStream(draft, stream, autoAdd, group),
    );
  }

  #onDevice(event: RegistryEvent, device: DeviceRecord, why: string): void {
    const config = this.#store.config;
    const m = config.mdns;
    const group = device.kind === 'sink' ? m.add_sinks_to_group : m.add_sources_to_group;
    if (event === 'removed') {
      this.#log.info(`mDNS: ${device.kind} '${device.name}' is gone (${why})`);
      this.#mdns?.sync?.forget(device.id);
      void this.#reconciler.run(`device '${device.name}' gone`, (draft) =>
        removeAutoAdded(draft, device.kind, 'mdns', device.id),
      );
      return;
    }
    if (device.gone) return;
    const autoAdd = m.auto_add_devices;
    if (applyDevice(structuredClone(config) as Config, device, autoAdd, group) === null) return;
    void this.#reconciler.run(`device '${device.name}'`, (draft) =>
      applyDevice(draft, device, autoAdd, group),
    );
  }

  /**
   * A listener or mDNS socket that could not start (its port taken by another program) is tried
   * again every RETRY_MS, so discovery comes back by itself once the port is free.
   */
  #retryFailed(): void {
    const now = Date.now();
    let retry = false;
    if (this.#listener?.state === 'failed' && now - this.#listenerSince >= RETRY_MS) {
      this.#listenerKey = 'retry';
      retry = true;
    }
    if (this.#mdns?.endpoint.state === 'failed' && now - this.#mdns.since >= RETRY_MS) {
      this.#mdnsKey = 'retry';
      retry = true;
    }
    if (retry) void this.#apply(this.#store.snapshot());
  }

  /**
   * Auto-added entries saved by an earlier run whose stream or device has not been heard
   * within cleanup_timeout of listening are removed, as if they had gone while it ran.
   */
  #sweepForgotten(): void {
    const config = this.#store.config;
    const now = Date.now();
    const due = (since: number, timeoutS: number) => since > 0 && now - since >= timeoutS * 1000;
    const stale: { kind: 'sink' | 'source'; via: 'sap' | 'mdns'; key: string }[] = [];
    if (
      this.#listener?.state === 'running' &&
      due(this.#listenerSince, config.sap.listener.cleanup_timeout)
    ) {
      for (const s of config.sources) {
        if (s.auto_added?.via === 'sap' && !this.streams.get(s.auto_added.key)) {
          stale.push({ kind: 'source', via: 'sap', key: s.auto_added.key });
        }
      }
    }
    const m = this.#mdns;
    if (m?.browser && due(m.since, config.mdns.cleanup_timeout)) {
      for (const e of [...config.sinks, ...config.sources]) {
        if (e.auto_added?.via === 'mdns' && !this.devices.get(e.auto_added.key)) {
          const kind = config.sinks.includes(e as never) ? 'sink' : 'source';
          stale.push({ kind, via: 'mdns', key: e.auto_added.key });
        }
      }
    }
    for (const { kind, via, key } of stale) {
      void this.#reconciler.run('forgotten entry', (draft) =>
        removeAutoAdded(draft, kind, via, key),
      );
    }
  }

  /** The API's view of the streams heard. */
  streamList(config = this.#store.config): DiscoveredStream[] {
    return streamList(this.streams, config);
  }

  status(): DiscoveryStatus {
    const m = this.#mdns;
    return discoveryStatus({
      enabled: this.#options.enabled,
      config: this.#store.config,
      streams: this.streams,
      devices: this.devices,
      listener: this.#listener,
      announcer: this.#announcer,
      mdns: m && { endpoint: m.endpoint, advertiser: m.advertiser, sync: m.sync },
    });
  }

  /** Sends SAP deletions and mDNS goodbyes, and closes every socket. */
  async stop(): Promise<void> {
    this.#stopped = true;
    for (const u of this.#unsubscribe) u();
    if (this.#sweep) clearInterval(this.#sweep);
    await this.#chain;
    await Promise.all([
      this.#listener?.stop(),
      this.#announcer?.stop(),
      (async () => {
        const m = this.#mdns;
        if (!m) return;
        m.advertiser?.stop();
        m.browser?.stop();
        m.sync?.stop();
        await m.endpoint.close();
      })(),
    ]);
  }
}
