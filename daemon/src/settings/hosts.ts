// ALLOWED_HOSTS from the environment: names (or addresses) a request's Host header may give
// besides the machine's own (its addresses, localhost, its host name and .local name, the mDNS
// name), which are always accepted. A name a browser reaches the server by that is none of
// those (a reverse proxy's name that passes Host on, a DNS name on a router, the host's address
// when the daemon runs in a port-mapped container) must be listed, or requests by it are
// answered 421 (src/http/host-check.ts).
import { allowedName } from '../http/server-names.js';
import { SettingsError } from './errors.js';

/** ALLOWED_HOSTS: comma- or space-separated host names and IP addresses, no ports. */
export function readAllowedHosts(env: Record<string, string | undefined> = process.env): string[] {
  const raw = env.ALLOWED_HOSTS?.trim() ?? '';
  const names: string[] = [];
  for (const entry of raw.split(/[\s,]+/).filter(Boolean)) {
    const name = allowedName(entry);
    if (name === null) {
      throw new SettingsError(
        `ALLOWED_HOSTS must list host names or IP addresses without scheme or port ` +
          `(e.g. tributary.home.arpa,192.168.1.10), got '${entry}'`,
      );
    }
    names.push(name);
  }
  return names;
}
