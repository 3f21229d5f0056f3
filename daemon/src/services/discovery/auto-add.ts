// What discovery hears, turned into configuration through the reconciler: a stream or device
// that appears is added (auto_add_sources, auto_add_devices) or updates the entry that plays
// it; one that goes takes its auto-added entry with it. Auto-add creates at most
// AUTO_ADD_PER_MINUTE entries of each kind in any minute: the rest wait (listed as waiting) and
// are added as the minute allows, so a flood of announcements cannot flood config.yaml.
import type { ConfigStore } from '../../config/store.js';
import type { Config } from '../../schema/files.js';
import { WindowBudget } from './limits.js';
import { type DiscoveryLog, DropSummary, RateLimitedLog } from './log.js';
import {
  applyDevice,
  applyStream,
  entryForDevice,
  type Reconciler,
  removeAutoAdded,
  sourceForStream,
} from './reconciler.js';
import type { DiscoveredRegistry, RegistryEvent } from './registry.js';
import type { SapStream } from './sap-listener.js';
import type { DeviceRecord } from './txt.js';

/** One kind of auto-added entry: its budget, what waits for it, and what is being added. */
class Queue {
  readonly budget = new WindowBudget();
  readonly waiting = new Set<string>();
  readonly adding = new Set<string>();
}

export class AutoAdder {
  readonly #store: ConfigStore;
  readonly #reconciler: Reconciler;
  readonly #streams: DiscoveredRegistry<SapStream>;
  readonly #devices: DiscoveredRegistry<DeviceRecord>;
  readonly #log: DiscoveryLog;
  readonly #deferred: DropSummary;
  /** Streams heard and gone: every one while they are few, 20 a minute in a flood. */
  readonly #comings: RateLimitedLog;
  readonly sources = new Queue();
  readonly entries = new Queue();
  #streamKey = '';
  #deviceKey = '';
  /** Told when a device goes (the settings sync forgets it). */
  onDeviceGone: ((id: string) => void) | null = null;

  constructor(
    store: ConfigStore,
    reconciler: Reconciler,
    streams: DiscoveredRegistry<SapStream>,
    devices: DiscoveredRegistry<DeviceRecord>,
    log: DiscoveryLog,
  ) {
    this.#store = store;
    this.#reconciler = reconciler;
    this.#streams = streams;
    this.#devices = devices;
    this.#log = log;
    this.#deferred = new DropSummary((m) => log.info(m), 'auto-add');
    this.#comings = new RateLimitedLog((m) => log.info(m), 20);
  }

  /** Listens to both registries; returns the unsubscribe functions. */
  subscribe(): (() => void)[] {
    return [
      this.#streams.subscribe((e, s, why) => this.onStream(e, s, why)),
      this.#devices.subscribe((e, d, why) => this.onDevice(e, d, why)),
    ];
  }

  /** After a configuration change: auto-add switched on, or a group named, counts now. */
  reconsider(config: Readonly<Config>): void {
    const l = config.sap.listener;
    const streamKey = JSON.stringify([l.auto_add_sources, l.add_to_group]);
    if (streamKey !== this.#streamKey) {
      this.#streamKey = streamKey;
      for (const { item } of this.#streams.list()) this.onStream('changed', item, 'settings');
    }
    const m = config.mdns;
    const deviceKey = JSON.stringify([
      m.auto_add_devices,
      m.add_sinks_to_group,
      m.add_sources_to_group,
    ]);
    if (deviceKey !== this.#deviceKey) {
      this.#deviceKey = deviceKey;
      for (const { item } of this.#devices.list()) this.onDevice('changed', item, 'settings');
    }
  }

  /** Adds what waits, as far as the minute allows (called every few seconds). */
  retryWaiting(): void {
    // Copies: what still cannot be added goes back into the sets.
    for (const id of [...this.sources.waiting]) {
      const heard = this.#streams.get(id);
      this.sources.waiting.delete(id);
      if (heard) this.onStream('changed', heard.item, 'waited');
    }
    for (const id of [...this.entries.waiting]) {
      const heard = this.#devices.get(id);
      this.entries.waiting.delete(id);
      if (heard) this.onDevice('changed', heard.item, 'waited');
    }
  }

  /** Runs a step that creates an entry, if the kind's budget allows; else it waits. */
  #add(queue: Queue, id: string, what: string, step: (draft: Config) => string | null): void {
    if (queue.adding.has(id)) return;
    if (!queue.budget.take()) {
      if (!queue.waiting.has(id)) {
        queue.waiting.add(id);
        const n = queue.budget.limit;
        this.#deferred.write(
          'waiting',
          `${what} waits: ${n} entries were added in the last minute`,
        );
      }
      return;
    }
    queue.waiting.delete(id);
    queue.adding.add(id);
    void this.#reconciler.run(what, step).finally(() => queue.adding.delete(id));
  }

  onStream(event: RegistryEvent, stream: SapStream, why: string): void {
    const config = this.#store.config;
    const { auto_add_sources: autoAdd, add_to_group: group } = config.sap.listener;
    if (event === 'added') {
      const f = stream.stream;
      this.#comings.write(
        `SAP: heard '${stream.name}' (${f.encoding}/${f.sample_rate}/${f.channels} at ` +
          `${stream.address}:${stream.port}${stream.unplayable ? `; ${stream.unplayable}` : ''})`,
      );
    }
    if (event === 'removed') {
      this.sources.waiting.delete(stream.id);
      this.#comings.write(`SAP: '${stream.name}' is gone (${why})`);
      void this.#reconciler.run(`stream '${stream.name}' gone`, (draft) =>
        removeAutoAdded(draft, 'source', 'sap', stream.id),
      );
      return;
    }
    const step = (draft: Config) => applyStream(draft, stream, autoAdd, group);
    const what = `stream '${stream.name}'`;
    if (stream.unplayable !== null) return;
    if (!sourceForStream(config, stream)) {
      if (autoAdd) this.#add(this.sources, stream.id, what, step);
      else this.sources.waiting.delete(stream.id);
      return;
    }
    // Only call the store when something would change.
    if (step(structuredClone(config) as Config) !== null) void this.#reconciler.run(what, step);
  }

  onDevice(event: RegistryEvent, device: DeviceRecord, why: string): void {
    const config = this.#store.config;
    const m = config.mdns;
    const group = device.kind === 'sink' ? m.add_sinks_to_group : m.add_sources_to_group;
    if (event === 'removed') {
      this.entries.waiting.delete(device.id);
      this.#log.info(`mDNS: ${device.kind} '${device.name}' is gone (${why})`);
      this.onDeviceGone?.(device.id);
      void this.#reconciler.run(`device '${device.name}' gone`, (draft) =>
        removeAutoAdded(draft, device.kind, 'mdns', device.id),
      );
      return;
    }
    if (device.gone || !device.usable) return;
    const autoAdd = m.auto_add_devices;
    const step = (draft: Config) => applyDevice(draft, device, autoAdd, group);
    const what = `device '${device.name}'`;
    if (!entryForDevice(config, device)) {
      if (autoAdd) this.#add(this.entries, device.id, what, step);
      else this.entries.waiting.delete(device.id);
      return;
    }
    if (step(structuredClone(config) as Config) !== null) void this.#reconciler.run(what, step);
  }

  stop(): void {
    this.#deferred.stop();
  }
}
