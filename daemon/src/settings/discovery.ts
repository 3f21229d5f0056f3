// DISCOVERY from the environment: SAP and mDNS on (the default) or off. Off opens no socket at
// all, whatever config.yaml says: for tests, and for Docker's bridge networking, where
// multicast does not reach the container (use host networking to discover).
import { SettingsError } from './errors.js';

export interface DiscoverySettings {
  readonly enabled: boolean;
}

export function readDiscoverySettings(
  env: Record<string, string | undefined> = process.env,
): DiscoverySettings {
  const raw = env.DISCOVERY?.trim() || 'on';
  if (raw !== 'on' && raw !== 'off') {
    throw new SettingsError(`DISCOVERY must be 'on' or 'off', got '${raw}'`);
  }
  return { enabled: raw === 'on' };
}
