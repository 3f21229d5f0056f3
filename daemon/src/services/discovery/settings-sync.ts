// Settings sync between devices and their sinks or sources (matched by config_id), every
// sync_interval, both ways. A device tells its settings in its TXT record (volume, name,
// sample_rate, eq_preset; `rev` counts its saved changes) and takes changes on its HTTP API
// (POST http://IP:PORT/api/settings, a JSON object of the fields to change; PORT from its
// _http._tcp service). Per field, against the values both sides last agreed on: a side that
// changed wins; when both changed, Tributary wins (as for hand edits of config.yaml).
// bit_depth, channels and channel_layout only flow from the device (what it can play).
// A device that advertises no _http._tcp service (`tributary receive`, say) has no settings
// API: Tributary's changes are not sent, stay in Tributary, and are counted and said once.
import { bandsOf, updateEntity } from '../../config/model.js';
import { invalidRequest } from '../../errors.js';
import type { Config } from '../../schema/files.js';
import { type Sink, SinkPatch } from '../../schema/sink.js';
import { type Source, SourcePatch } from '../../schema/source.js';
import { check } from '../../schema/validate.js';
import type { DiscoveryLog } from './log.js';
import { RateLimitedLog } from './log.js';
import type { Reconciler } from './reconciler.js';
import { entryForDevice } from './reconciler.js';
import type { DiscoveredRegistry } from './registry.js';
import type { DeviceRecord } from './txt.js';

type Field = 'volume' | 'name' | 'sample_rate' | 'eq_preset';
type Values = Record<Field, string | number | null>;
const FIELDS: Field[] = ['volume', 'name', 'sample_rate', 'eq_preset'];
/** What each field is called in the device API (the ESP32 firmware's names). */
const DEVICE_FIELD: Record<Field, string> = {
  volume: 'volume',
  name: 'name',
  sample_rate: 'rate',
  eq_preset: 'eq_preset',
};

/** The device's side, from its TXT record (null: it does not say). */
export function deviceValues(device: DeviceRecord): Values {
  return {
    volume: device.volume,
    name: device.txt.name ?? null,
    sample_rate: device.sample_rate,
    eq_preset: device.txt.eq_preset ?? null,
  };
}

/** Tributary's side: the entry's fields (eq_preset: the preset its equalizer equals). */
export function entryValues(entry: Sink | Source, config: Pick<Config, 'equalizers'>): Values {
  const preset = config.equalizers.find(
    (p) => JSON.stringify(bandsOf(p)) === JSON.stringify(entry.equalizer),
  );
  const rate = 'sample_rate' in entry ? entry.sample_rate : (entry.rtp?.sample_rate ?? null);
  return {
    volume: Math.round(entry.volume * 100) / 100,
    name: entry.name,
    sample_rate: rate,
    eq_preset: preset?.name ?? null,
  };
}

export interface SyncPlan {
  /** Fields to take from the device into the configuration. */
  readonly pull: Partial<Values>;
  /** Fields to send to the device. */
  readonly push: Partial<Values>;
}

/** The three-way decision for one device: `agreed` is what both sides last agreed on. */
export function planSync(device: Values, entry: Values, agreed: Values): SyncPlan {
  const pull: Partial<Values> = {};
  const push: Partial<Values> = {};
  for (const f of FIELDS) {
    const d = device[f];
    const c = entry[f];
    if (d === null || d === c) continue;
    if (c !== agreed[f]) push[f] = c;
    else if (d !== agreed[f]) pull[f] = d;
  }
  return { pull, push };
}

export interface SyncCounters {
  to_devices: number;
  from_devices: number;
  errors: number;
  last_error: string | null;
  /** Changes not sent: the device has no settings API (each change counted once). */
  not_sent: number;
}

export class SettingsSync {
  readonly #agreed = new Map<string, Values>();
  readonly #errorsLog: RateLimitedLog;
  /** Devices without a settings API -> the change last kept from them (said once). */
  readonly #notSent = new Map<string, string>();
  readonly counters: SyncCounters = {
    to_devices: 0,
    from_devices: 0,
    errors: 0,
    last_error: null,
    not_sent: 0,
  };
  #timer: NodeJS.Timeout | null = null;
  #running = false;

  constructor(
    private readonly registry: DiscoveredRegistry<DeviceRecord>,
    private readonly config: () => Readonly<Config>,
    private readonly reconciler: Reconciler,
    private readonly httpPort: (id: string) => number | null,
    private readonly log: DiscoveryLog,
  ) {
    this.#errorsLog = new RateLimitedLog((m) => log.warn(m), 5);
  }

  start(intervalS: number): void {
    this.#timer = setInterval(() => void this.tick(), intervalS * 1000);
    this.#timer.unref();
  }

  stop(): void {
    if (this.#timer) clearInterval(this.#timer);
    this.#timer = null;
  }

  #error(message: string): void {
    this.counters.errors += 1;
    this.counters.last_error = message;
    this.#errorsLog.write(`settings sync: ${message}`);
  }

  /** One comparison of every present device with its entry. */
  async tick(): Promise<void> {
    if (this.#running) return;
    this.#running = true;
    try {
      for (const { item: device } of this.registry.list()) {
        if (!device.usable || device.gone || device.ip === null) continue;
        const config = this.config();
        const entry = entryForDevice(config, device);
        if (!entry) continue;
        const d = deviceValues(device);
        const agreed = this.#agreed.get(device.id) ?? d;
        const plan = planSync(d, entryValues(entry, config), agreed);
        const next = { ...agreed, ...d };
        if (Object.keys(plan.pull).length > 0) await this.#pull(device, entry, plan.pull);
        if (Object.keys(plan.push).length > 0)
          Object.assign(next, await this.#push(device, plan.push));
        else Object.assign(next, plan.pull);
        this.#agreed.set(device.id, next);
      }
    } finally {
      this.#running = false;
    }
  }

  async #pull(device: DeviceRecord, entry: Sink | Source, pull: Partial<Values>): Promise<void> {
    const kind = device.kind;
    const error = await this.reconciler.run(`settings from '${device.name}'`, (draft) => {
      const patch: Record<string, unknown> = {};
      if (pull.volume !== undefined) patch.volume = pull.volume;
      if (pull.name !== undefined) patch.name = pull.name;
      if (pull.sample_rate !== undefined) {
        if (kind === 'sink') patch.sample_rate = pull.sample_rate;
        else if ('rtp' in entry && entry.rtp)
          patch.rtp = { ...entry.rtp, sample_rate: pull.sample_rate };
      }
      if (pull.eq_preset !== undefined) {
        const preset = draft.equalizers.find((p) => p.name === pull.eq_preset);
        if (preset) patch.equalizer = bandsOf(preset);
      }
      // A device's values are checked like an API request: nothing saved that would not load.
      const problems = check(kind === 'sink' ? SinkPatch : SourcePatch, patch);
      if (problems.length > 0) throw invalidRequest(problems);
      updateEntity(draft, kind, entry.name, patch as never);
      return `${kind} '${entry.name}' took ${Object.keys(pull).join(', ')} from the device`;
    });
    if (error) this.#error(error);
    else this.counters.from_devices += 1;
  }

  /** Sends the changed fields; returns what the device now agrees on. */
  async #push(device: DeviceRecord, push: Partial<Values>): Promise<Partial<Values>> {
    const body: Record<string, unknown> = {};
    for (const [f, v] of Object.entries(push)) body[DEVICE_FIELD[f as Field]] = v;
    const port = this.httpPort(device.id);
    if (port === null) {
      // Nothing agreed: the device keeps its value, the entry its own (not pulled over it).
      this.#keptHere(device, body);
      return {};
    }
    this.#notSent.delete(device.id);
    const host = device.ip!.includes(':') ? `[${device.ip}]` : device.ip;
    const url = `http://${host}:${port}/api/settings`;
    try {
      const res = await fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
        signal: AbortSignal.timeout(3000),
      });
      const text = (await res.text()).slice(0, 300);
      if (res.ok) {
        this.counters.to_devices += 1;
        this.log.info(`settings sync: sent ${Object.keys(body).join(', ')} to '${device.name}'`);
        return push;
      }
      // Refused (a name the device does not allow, say): said once, not retried until it
      // changes again.
      this.#error(`'${device.name}' refused ${JSON.stringify(body)}: ${res.status} ${text}`);
      return res.status >= 400 && res.status < 500 ? push : {};
    } catch (err) {
      this.#error(`cannot reach '${device.name}' at ${url}: ${(err as Error).message}`);
      return {};
    }
  }

  /** A change for a device without a settings API: counted and said once per change. */
  #keptHere(device: DeviceRecord, body: Record<string, unknown>): void {
    const change = JSON.stringify(body);
    if (this.#notSent.get(device.id) === change) return;
    this.#notSent.set(device.id, change);
    this.counters.not_sent += 1;
    this.log.info(
      `settings sync: '${device.name}' has no settings API (no _http._tcp service): ` +
        `${Object.keys(body).join(', ')} not sent, kept in Tributary`,
    );
  }

  /** Forgets what a device agreed on (it is gone). */
  forget(id: string): void {
    this.#agreed.delete(id);
    this.#notSent.delete(id);
  }
}
