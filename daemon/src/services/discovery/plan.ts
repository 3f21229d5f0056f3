// The one place that decides what of discovery runs: from DISCOVERY (the environment), the
// configuration's `sap` and `mdns` sections and the API port, which parts should be running and
// with what settings. The service starts, restarts and stops parts only to match a plan, so a
// new way into it (a new setting, a new hook) cannot open a socket that DISCOVERY=off forbids.
import type { Config } from '../../schema/files.js';

export interface ListenerPlan {
  readonly port: number;
  readonly groups: readonly string[];
  readonly cleanupTimeoutS: number;
}

export interface AnnouncerPlan {
  readonly groups: readonly string[];
  readonly port: number;
  readonly intervalS: number;
  readonly ttl: number;
}

export interface MdnsPlan {
  readonly settings: Readonly<Config['mdns']>;
  /** Null until the API listens: then the server and its entries are advertised. */
  readonly apiPort: number | null;
}

export interface DiscoveryPlan {
  readonly listener: ListenerPlan | null;
  readonly announcer: AnnouncerPlan | null;
  readonly mdns: MdnsPlan | null;
}

/** Nothing runs: DISCOVERY=off, or everything switched off in the configuration. */
export const NOTHING: DiscoveryPlan = Object.freeze({
  listener: null,
  announcer: null,
  mdns: null,
});

/** What should run. `enabled` is DISCOVERY: false means nothing, whatever the rest says. */
export function discoveryPlan(
  enabled: boolean,
  config: Readonly<Pick<Config, 'sap' | 'mdns'>>,
  apiPort: number | null,
): DiscoveryPlan {
  if (!enabled) return NOTHING;
  const { sap, mdns } = config;
  const a = sap.announcer;
  return {
    listener: sap.enabled
      ? {
          port: sap.listener.port,
          groups: sap.listener.multicast_groups,
          cleanupTimeoutS: sap.listener.cleanup_timeout,
        }
      : null,
    announcer:
      sap.enabled && a.enabled
        ? { groups: a.multicast_groups, port: sap.listener.port, intervalS: a.interval, ttl: a.ttl }
        : null,
    mdns: mdns.enabled && (mdns.advertise || mdns.browse) ? { settings: mdns, apiPort } : null,
  };
}

/** A part's identity: it is restarted when this changes ('' when it should not run). */
export const planKey = (part: object | null): string => (part ? JSON.stringify(part) : '');
