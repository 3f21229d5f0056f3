// The discovery service: runs the SAP listener and announcer and the mDNS advertiser, browser
// and settings sync as the plan says (plan.ts: DISCOVERY, the configuration's `sap` and `mdns`
// sections and the API port; a part restarts when its settings change), feeds what they hear
// to auto-add, and reports it all.
import type { ConfigSnapshot, ConfigStore } from '../../config/store.js';
import type {
  DiscoveredDevicePage,
  DiscoveredStreamPage,
  DiscoveryStatus,
  DiscoverySummary,
} from '../../schema/discovery-status.js';
import type { Config } from '../../schema/files.js';
import { AutoAdder } from './auto-add.js';
import type { DiscoveryLog } from './log.js';
import { MdnsAdvertiser } from './mdns-advertiser.js';
import { MdnsBrowser } from './mdns-browser.js';
import { MdnsEndpoint } from './mdns-endpoint.js';
import { discoveryPlan, type MdnsPlan, planKey } from './plan.js';
import { Reconciler, removeAutoAdded } from './reconciler.js';
import { DiscoveredRegistry } from './registry.js';
import { rtpSinks, SapAnnouncer } from './sap-announcer.js';
import { SapListener, type SapStream } from './sap-listener.js';
import { SettingsSync } from './settings-sync.js';
import {
  type DiscoveryParts,
  devicePage,
  discoveryStatus,
  discoverySummary,
  streamPage,
} from './status.js';
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
  readonly #auto: AutoAdder;
  #listener: SapListener | null = null;
  #listenerKey = '';
  #listenerSince = 0;
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
    this.#auto = new AutoAdder(store, this.#reconciler, this.streams, this.devices, log);
    this.#auto.onDeviceGone = (id) => this.#mdns?.sync?.forget(id);
    const fault = (err: Error) => log.error(`discovery: ${err.stack ?? err.message}`);
    this.streams.onListenerError = fault;
    this.devices.onListenerError = fault;
  }

  get enabled(): boolean {
    return this.#options.enabled;
  }

  /** Follows the configuration (what runs is the plan's to say: nothing with DISCOVERY=off). */
  start(): Promise<void> {
    this.#unsubscribe.push(
      ...this.#auto.subscribe(),
      this.#store.subscribe((snapshot) => void this.#apply(snapshot)),
    );
    this.#sweep = setInterval(() => {
      this.#retryFailed();
      this.#sweepForgotten();
      this.#auto.retryWaiting();
    }, 2000);
    this.#sweep.unref();
    return this.#apply(this.#store.snapshot());
  }

  /** The API's port, once it listens: mDNS advertises it. */
  setApiPort(port: number): Promise<void> {
    this.#apiPort = port;
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

  /** Starts, restarts and stops parts to match the plan. */
  async #reconfigure(config: Readonly<Config>): Promise<void> {
    if (this.#stopped) return;
    const plan = discoveryPlan(this.#options.enabled, config, this.#apiPort);
    this.streams.capacity = config.sap.listener.max_streams;
    const listenerKey = planKey(plan.listener);
    if (listenerKey !== this.#listenerKey) {
      await this.#listener?.stop();
      this.#listener = null;
      this.#listenerKey = listenerKey;
      if (plan.listener) {
        const announcer = () => this.#announcer;
        this.#listener = new SapListener(
          this.streams,
          {
            ...plan.listener,
            isOwn: (source, hash) => announcer()?.isOwn(source, hash) ?? false,
          },
          this.#log,
        );
        await this.#listener.start();
        this.#listenerSince = Date.now();
      } else this.streams.clear();
    }
    this.#auto.reconsider(config);
    const announcerKey = planKey(plan.announcer);
    if (announcerKey !== this.#announcerKey) {
      await this.#announcer?.stop();
      this.#announcer = null;
      this.#announcerKey = announcerKey;
      if (plan.announcer) {
        this.#announcer = new SapAnnouncer(plan.announcer, this.#log);
        await this.#announcer.start();
      }
    }
    const playing = this.#options.enginePlaying?.() ?? true;
    this.#announcer?.update(playing ? rtpSinks(config) : []);
    await this.#reconfigureMdns(plan.mdns, config);
  }

  async #reconfigureMdns(plan: MdnsPlan | null, config: Readonly<Config>): Promise<void> {
    const key = planKey(plan);
    if (key !== this.#mdnsKey) {
      const old = this.#mdns;
      this.#mdns = null;
      this.#mdnsKey = key;
      if (old) await this.#closeMdns(old);
      if (!plan) {
        this.devices.clear();
        return;
      }
      const m = plan.settings;
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
      if (m.advertise && plan.apiPort !== null) {
        state.advertiser = new MdnsAdvertiser(endpoint, this.#log);
        // Probing takes about a second; the rest of discovery does not wait for it.
        void state.advertiser
          .start(m.hostname, plan.apiPort)
          .then(() => state.advertiser?.update(this.#store.config));
      }
    }
    void this.#mdns?.advertiser?.update(config);
  }

  async #closeMdns(m: MdnsParts): Promise<void> {
    m.advertiser?.stop();
    m.browser?.stop();
    m.sync?.stop();
    await m.endpoint.close();
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

  #parts(): DiscoveryParts {
    const m = this.#mdns;
    return {
      enabled: this.#options.enabled,
      config: this.#store.config,
      streams: this.streams,
      devices: this.devices,
      listener: this.#listener,
      announcer: this.#announcer,
      auto: this.#auto,
      mdns: m && { endpoint: m.endpoint, advertiser: m.advertiser, sync: m.sync },
    };
  }

  /** GET /api/discovery: everything, the lists cut to their first page. */
  status(): DiscoveryStatus {
    return discoveryStatus(this.#parts());
  }

  /** /api/stats: the states and counters, no lists. */
  summary(): DiscoverySummary {
    return discoverySummary(this.#parts());
  }

  /** Streams heard, `limit` from `offset` (oldest first). */
  streamPage(offset: number, limit: number): DiscoveredStreamPage {
    return streamPage(this.streams, this.#store.config, offset, limit);
  }

  /** Devices found, `limit` from `offset` (oldest first). */
  devicePage(offset: number, limit: number): DiscoveredDevicePage {
    return devicePage(this.devices, this.#store.config, offset, limit);
  }

  /** Sends SAP deletions and mDNS goodbyes, and closes every socket. */
  async stop(): Promise<void> {
    this.#stopped = true;
    for (const u of this.#unsubscribe) u();
    if (this.#sweep) clearInterval(this.#sweep);
    this.#auto.stop();
    await this.#chain;
    await Promise.all([
      this.#listener?.stop(),
      this.#announcer?.stop(),
      this.#mdns && this.#closeMdns(this.#mdns),
    ]);
  }
}
